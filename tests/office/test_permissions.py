"""The permission battery: every page and endpoint, every kind of user.

- anonymous → the login page (pages) or 401 (API);
- a signed-in user without any office role → 403;
- a staff role → the page works (200), whatever the role (staff see every record);
- an outside user → their own records work; another's record is 404 (it does not exist for
  them) — lists, details, API, timelines, files and letters alike;
- role-reserved pages (filing forms, the Town's availability act) → 403 for other roles.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_office.core.models import Attachment
from sewer_office.permits.kinds import KINDS

from .billing_money_factories import pay_fee
from .factories import USERS, Town, new_record

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
#: The clerk's intake pages (registering persons, properties, establishments).
INTAKE = ("/registry/persons/new/", "/registry/properties/new/", "/registry/establishments/new/")


def _records(town: Town) -> dict[str, tuple[Any, Any]]:
    """slug → (owner's record, other's record)."""
    return {slug: (new_record(slug, town), new_record(slug, town, mine=False)) for slug in KINDS}


def _pages(town: Town, mine: dict[str, Any]) -> list[str]:
    """Every page of the office (GET), with the owner's records where an id is needed."""
    pages = [
        "/",
        "/permits/",
        "/registry/properties/",
        "/registry/establishments/",
        "/registry/areas/",
        "/registry/persons/",
        f"/registry/properties/{town.owner_home.pk}/",
        f"/registry/persons/{town.owner_person.pk}/",
        f"/registry/establishments/{town.owner_restaurant.pk}/",
        f"/registry/areas/{town.served.pk}/",
        "/api/docs/",
        "/accounts/password_change/",
        *INTAKE,
    ]
    for slug, record in mine.items():
        pages += [f"/permits/{slug}/", f"/permits/{slug}/{record.pk}/", f"/permits/{slug}/new/"]
    return pages


def _endpoints(town: Town, mine: dict[str, Any]) -> list[str]:
    eps = [
        "/api/properties/",
        f"/api/properties/{town.owner_home.pk}/",
        "/api/persons/",
        f"/api/persons/{town.owner_person.pk}/",
        "/api/establishments/",
        f"/api/establishments/{town.owner_restaurant.pk}/",
        "/api/service-areas/",
        f"/api/service-areas/{town.served.pk}/",
        "/api/schema/",
    ]
    for slug, record in mine.items():
        eps += [
            f"/api/permits/{slug}/",
            f"/api/permits/{slug}/{record.pk}/",
            f"/api/permits/{slug}/{record.pk}/timeline/",
            f"/api/permits/{slug}/{record.pk}/files/",
        ]
    return eps


def _declared(name: str) -> set[str]:
    """URL names (or prefixes) other test modules declare their own batteries cover.

    Each monitoring app's permission tests (``tests/office/test_<app>_permissions.py``) set
    ``COVERED_URL_NAMES`` and, for their API routers, ``COVERED_URL_PREFIXES``.
    """
    import importlib
    import pkgutil
    from pathlib import Path

    out: set[str] = set()
    here = Path(__file__).parent
    for info in pkgutil.iter_modules([str(here)]):
        if info.name.startswith("test_") and info.name.endswith("_permissions"):
            module = importlib.import_module(f"{__package__}.{info.name}")
            out |= set(getattr(module, name, ()))
    return out


def test_every_page_and_endpoint_is_covered(town: Town) -> None:
    """The battery's list names every URL pattern of the office (a new page must join it)."""
    from django.urls import get_resolver

    records = _records(town)
    mine = {s: r[0] for s, r in records.items()}
    listed = _pages(town, mine) + _endpoints(town, mine)
    names: set[str] = set()

    def walk(patterns: Any, prefix: str = "") -> None:
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + (p.namespace + ":" if p.namespace else ""))
            elif p.name:
                names.add(prefix + p.name)

    walk(get_resolver().url_patterns)
    from django.urls import resolve

    covered = {resolve(u.split("?")[0]).view_name for u in listed}
    covered |= {  # exercised by the POST/file tests below and in test_api / test_workflows
        "permits:transition",
        "permits:upload",
        "permits:letter",
        "attachment-download",
        "registry:area-declare",
        "healthz",
        "readyz",
        "favicon",  # test_pages.test_favicon_ico_leads_to_the_mark
        "login",
        "logout",
        "password_change_done",
        "api-token",
        # staff-only network page and endpoints: their battery is in test_network_office
        "registry:network",
        "network-trace",
        "network-import",
        "network-geojson",  # its battery: test_field_and_map.test_map_geojson_permission_battery
        # the API's JSON 404 for what names no endpoint: test_hostile_filters
        "api-not-found",
    }
    covered |= _declared("COVERED_URL_NAMES")
    api_actions = {
        n
        for n in names
        if n.startswith(
            (
                "permit-",
                "property-",
                "person-",
                "establishment-",
                "service-area-",
                "api-root",
                *_declared("COVERED_URL_PREFIXES"),
            )
        )
    }
    missing = {n for n in names - covered - api_actions if not n.startswith("admin:")}
    assert not missing, f"pages not in the permission battery: {sorted(missing)}"


def test_anonymous_is_sent_to_login_and_api_says_401(town: Town, client: Any) -> None:
    records = _records(town)
    mine = {s: r[0] for s, r in records.items()}
    for url in _pages(town, mine):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in _endpoints(town, mine):
        if url == "/api/schema/":
            continue  # the schema is public documentation of the interface
        r = client.get(url)
        assert r.status_code == 401, url
    kind = next(iter(KINDS))
    assert (
        client.post(
            f"/permits/{kind}/{mine[kind].pk}/actions/withdraw/", {"reason": "x"}
        ).status_code
        == 302
    )
    assert (
        client.post(
            f"/api/permits/{kind}/{mine[kind].pk}/transitions/withdraw/", {"reason": "x"}
        ).status_code
        == 401
    )


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    records = _records(town)
    mine = {s: r[0] for s, r in records.items()}
    c = login("norole")
    for url in _pages(town, mine):
        if url == "/accounts/password_change/":
            continue  # anyone signed in may change their password
        assert c.get(url).status_code == 403, url
    for url in _endpoints(town, mine):
        if url != "/api/schema/":
            assert c.get(url).status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_page_and_record(town: Town, login: Any, username: str) -> None:
    from sewer_office.permits.kinds import may_file

    records = _records(town)
    c = login(username)
    user = town.u(username)
    for which in (0, 1):
        recs = {s: r[which] for s, r in records.items()}
        for url in _pages(town, recs):
            expected = 200
            if url in INTAKE:
                expected = 200 if username == "clerk" else 403
            elif url.endswith("/new/"):
                expected = 200 if may_file(user, KINDS[url.split("/")[2]]) else 403
            assert c.get(url).status_code == expected, url
        for url in _endpoints(town, recs):
            assert c.get(url).status_code == 200, url
    for slug, (a, b) in records.items():
        body = c.get(f"/api/permits/{slug}/").json()
        assert {r["id"] for r in body["results"]} >= {a.pk, b.pk}


def test_applicant_sees_only_their_own(town: Town, login: Any) -> None:
    records = _records(town)
    c = login("owner")
    mine = {s: r[0] for s, r in records.items()}
    theirs = {s: r[1] for s, r in records.items()}
    for url in _pages(town, mine):
        if url in ("/registry/persons/",):
            continue
        expected = 403 if url == "/permits/interceptor/new/" or url in INTAKE else 200
        assert c.get(url).status_code == expected, url
    for url in _endpoints(town, mine):
        assert c.get(url).status_code == 200, url
    for slug, record in theirs.items():
        assert c.get(f"/permits/{slug}/{record.pk}/").status_code == 404
        assert c.get(f"/api/permits/{slug}/{record.pk}/").status_code == 404
        assert c.get(f"/api/permits/{slug}/{record.pk}/timeline/").status_code == 404
        assert c.get(f"/api/permits/{slug}/{record.pk}/files/").status_code == 404
        listing = c.get(f"/permits/{slug}/").content.decode()
        assert record.number not in listing and mine[slug].number in listing
        ids = {r["id"] for r in c.get(f"/api/permits/{slug}/").json()["results"]}
        assert ids == {mine[slug].pk}
        r = c.post(f"/permits/{slug}/{record.pk}/actions/withdraw/", {"reason": "mine now"})
        assert r.status_code == 404
        r = c.post(
            f"/api/permits/{slug}/{record.pk}/transitions/withdraw/",
            {"reason": "x"},
            content_type="application/json",
        )
        assert r.status_code == 404
        assert c.post(f"/permits/{slug}/{record.pk}/files/", {}).status_code == 404
    for url in (
        f"/registry/properties/{town.other_home.pk}/",
        f"/registry/persons/{town.other_person.pk}/",
        f"/registry/establishments/{town.other_plant.pk}/",
        f"/api/properties/{town.other_home.pk}/",
        f"/api/persons/{town.other_person.pk}/",
        f"/api/establishments/{town.other_plant.pk}/",
    ):
        assert c.get(url).status_code == 404, url
    props = c.get("/registry/properties/").content.decode()
    assert town.owner_home.parcel_id in props and town.other_home.parcel_id not in props
    assert {p["id"] for p in c.get("/api/properties/").json()["results"]} == {
        town.owner_home.pk,
        town.phase3_lot.pk,
        town.owner_shop_building.property_id,
        town.tract.pk,
    }


def test_applicant_cannot_download_anothers_files(town: Town, login: Any) -> None:
    mine = new_record("building-sewer", town)
    theirs = new_record("building-sewer", town, mine=False)
    f_mine = Attachment.objects.get(
        object_id=str(mine.pk), content_type__model="buildingsewerpermit"
    )
    f_theirs = Attachment.objects.get(
        object_id=str(theirs.pk), content_type__model="buildingsewerpermit"
    )
    c = login("owner")
    r = c.get(f"/files/{f_mine.pk}/")
    assert r.status_code == 200 and b"".join(r.streaming_content).startswith(b"%PDF")
    assert c.get(f"/files/{f_theirs.pk}/").status_code == 404
    assert login("other").get(f"/files/{f_theirs.pk}/").status_code == 200
    assert login("viewer").get(f"/files/{f_theirs.pk}/").status_code == 200
    assert login(None).get(f"/files/{f_mine.pk}/").status_code == 302


def test_applicant_cannot_file_for_someone_else(town: Town, login: Any) -> None:
    c = login("owner")
    r = c.post(
        "/permits/grinder/new/",
        {
            "applicant": town.other_person.pk,
            "property": town.other_home.pk,
            "make_model": "X",
            "motor_hp": "1",
        },
    )
    assert r.status_code == 400
    form = r.context["form"]
    assert "applicant" in form.errors and "property" in form.errors


@pytest.mark.parametrize(
    ("slug", "name", "username"),
    [
        ("building-sewer", "record_fee_payment", "engineer"),
        ("building-sewer", "approve_plans", "clerk"),
        ("building-sewer", "approve_plans", "superintendent"),
        ("industrial", "begin_review", "superintendent"),
        ("grinder", "approve", "engineer"),
    ],
)
def test_wrong_role_gets_403_on_pages_and_api(
    town: Town, login: Any, slug: str, name: str, username: str
) -> None:
    record = new_record(slug, town)
    t = record.WORKFLOW.get(name)
    type(record).objects.filter(pk=record.pk).update(state=t.sources[0])
    c = login(username)
    assert (
        c.post(f"/permits/{slug}/{record.pk}/actions/{name}/", {"reason": "x"}).status_code == 403
    )
    r = c.post(
        f"/api/permits/{slug}/{record.pk}/transitions/{name}/",
        {"reason": "x"},
        content_type="application/json",
    )
    assert r.status_code == 403
    record.refresh_from_db()
    assert record.state == t.sources[0]


def test_availability_act_is_reserved(town: Town, login: Any) -> None:
    url = f"/registry/areas/{town.phase3.pk}/declare/"
    data = {"available_from": "2026-01-05", "act": "res. 2026-1"}
    for username in ("engineer", "viewer", "owner", "highway"):
        assert login(username).post(url, data).status_code == 403
        r = login(username).post(
            f"/api/service-areas/{town.phase3.pk}/declare-available/",
            data,
            content_type="application/json",
        )
        assert r.status_code == 403
    r = login("clerk").post(url, data)
    assert r.status_code == 302
    town.phase3.refresh_from_db()
    assert str(town.phase3.public_sewer_available_from) == "2026-01-05"


def test_viewer_has_no_actions(town: Town, login: Any) -> None:
    record = new_record("building-sewer", town)
    c = login("viewer")
    page = c.get(f"/permits/building-sewer/{record.pk}/").content.decode()
    assert "/actions/" not in page
    assert c.get(f"/api/permits/building-sewer/{record.pk}/").json()["available_actions"] == []
    assert set(USERS) >= {"viewer"}
    pay_fee(town, record)
