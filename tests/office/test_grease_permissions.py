"""The grease app's permission battery: every page and endpoint, every kind of user.

Anonymous → login (pages) / 401 (API); no role → 403; every staff role reads everything;
the owner reads and records pump-outs for its own restaurant's trap and gets 404 for the
other's; registering and removing are for the Superintendent, engineer and Building Inspector.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from sewer_office.grease import installations, services
from sewer_office.grease.choices import InterceptorKind
from sewer_office.grease.models import GreaseInterceptor, PumpOut

from .factories import Town

COVERED_URL_NAMES = {
    "grease:list",
    "grease:create",
    "grease:overdue",
    "grease:detail",
    "grease:pump-out",
    "grease:remove",
    "grease:void",
    "grease-overdue",
    "grease-sizing-check",
}
COVERED_URL_PREFIXES = ("grease-interceptor-", "grease-pump-out-")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
REGISTRARS = ("superintendent", "engineer", "inspector")
TODAY = timezone.localdate()


def _traps(town: Town) -> tuple[GreaseInterceptor, GreaseInterceptor, PumpOut, PumpOut]:
    """The owner's grease trap and the other's oil and sand interceptor, one pump-out each."""
    su = town.u("superintendent")
    mine = installations.register_interceptor(
        su,
        establishment=town.owner_restaurant,
        kind=InterceptorKind.GREASE_TRAP,
        rated_gpm=Decimal("20"),
        location="Kitchen",
        accessible=True,
        installed_on=TODAY - timedelta(days=100),
    )
    theirs = installations.register_interceptor(
        su,
        establishment=town.other_plant,
        kind=InterceptorKind.OIL_SAND,
        capacity_gal=Decimal("1000"),
        location="Bay drain",
        accessible=True,
        installed_on=TODAY - timedelta(days=100),
    )
    pumps = [
        services.record_pump_out(
            su, t, pumped_on=TODAY - timedelta(days=5), hauler_name="HV", volume_gal=Decimal("300")
        )
        for t in (mine, theirs)
    ]
    return mine, theirs, pumps[0], pumps[1]


def _pages(t: GreaseInterceptor) -> list[str]:
    return ["/grease/", "/grease/overdue/", f"/grease/{t.pk}/", "/grease/new/"]


def _endpoints(t: GreaseInterceptor, p: PumpOut) -> list[str]:
    return [
        "/api/grease/interceptors/",
        f"/api/grease/interceptors/{t.pk}/",
        "/api/grease/pump-outs/",
        f"/api/grease/pump-outs/{p.pk}/",
        "/api/grease/overdue/",
    ]


def _pump_data() -> dict[str, str]:
    return {"pumped_on": str(TODAY), "hauler_name": "HV", "volume_gal": "250"}


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    mine, _, p, _ = _traps(town)
    for url in _pages(mine):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in _endpoints(mine, p):
        assert client.get(url).status_code == 401, url
    assert client.post("/api/grease/sizing-check/", {}).status_code == 401
    assert client.post(f"/grease/{mine.pk}/pump-outs/", _pump_data()).status_code == 302
    assert client.post(f"/grease/pump-outs/{p.pk}/void/", {"reason": "x"}).status_code == 302
    assert client.post(f"/grease/{mine.pk}/remove/", {}).status_code == 302
    assert PumpOut.objects.count() == 2


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    mine, _, p, _ = _traps(town)
    c = login("norole")
    for url in _pages(mine):
        assert c.get(url).status_code == 403, url
    for url in _endpoints(mine, p):
        assert c.get(url).status_code == 403, url
    r = c.post("/api/grease/sizing-check/", {"method": "gravity", "dfu": 5})
    assert r.status_code == 403
    assert c.post(f"/grease/{mine.pk}/pump-outs/", _pump_data()).status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_page_and_record(town: Town, login: Any, username: str) -> None:
    mine, theirs, p, q = _traps(town)
    c = login(username)
    for t, pump in ((mine, p), (theirs, q)):
        for url in _pages(t):
            expected = 403 if url == "/grease/new/" and username not in REGISTRARS else 200
            assert c.get(url).status_code == expected, url
        for url in _endpoints(t, pump):
            assert c.get(url).status_code == 200, url
    ids = {r["id"] for r in c.get("/api/grease/interceptors/").json()["results"]}
    assert ids == {mine.pk, theirs.pk}
    r = c.post(
        "/api/grease/sizing-check/",
        {"method": "gravity", "dfu": 5},
        content_type="application/json",
    )
    assert r.status_code == 200
    r = c.post(f"/grease/{theirs.pk}/pump-outs/", _pump_data())
    assert r.status_code == (302 if username in REGISTRARS else 403)


def test_owner_sees_and_records_only_its_own(town: Town, login: Any) -> None:
    mine, theirs, p, q = _traps(town)
    c = login("owner")
    for url in _pages(mine):
        assert c.get(url).status_code == (403 if url == "/grease/new/" else 200), url
    for url in _endpoints(mine, p):
        assert c.get(url).status_code == 200, url
    for url in (
        f"/grease/{theirs.pk}/",
        f"/api/grease/interceptors/{theirs.pk}/",
        f"/api/grease/pump-outs/{q.pk}/",
    ):
        assert c.get(url).status_code == 404, url
    assert {r["id"] for r in c.get("/api/grease/interceptors/").json()["results"]} == {mine.pk}
    assert {r["id"] for r in c.get("/api/grease/pump-outs/").json()["results"]} == {p.pk}
    listing = c.get("/grease/").content.decode()
    assert f"/grease/{mine.pk}/" in listing and f"/grease/{theirs.pk}/" not in listing
    overdue_ids = {r["interceptor"] for r in c.get("/api/grease/overdue/").json()["results"]}
    assert theirs.pk not in overdue_ids
    # Recording a pump-out for its own restaurant's trap: allowed (self-reporting).
    assert c.post(f"/grease/{mine.pk}/pump-outs/", _pump_data()).status_code == 302
    r = c.post(
        "/api/grease/pump-outs/",
        {"interceptor": mine.pk, **_pump_data()},
        content_type="application/json",
    )
    assert r.status_code == 201 and r.json()["recorded_by"] == "owner"
    # ...and for another's: it does not exist for the owner.
    assert c.post(f"/grease/{theirs.pk}/pump-outs/", _pump_data()).status_code == 404
    r = c.post(
        "/api/grease/pump-outs/",
        {"interceptor": theirs.pk, **_pump_data()},
        content_type="application/json",
    )
    assert r.status_code == 404
    assert c.post(f"/grease/pump-outs/{q.pk}/void/", {"reason": "x"}).status_code == 404
    r = c.post(
        f"/api/grease/pump-outs/{q.pk}/void/", {"reason": "x"}, content_type="application/json"
    )
    assert r.status_code == 404
    assert PumpOut.objects.filter(interceptor=theirs).count() == 1
    assert PumpOut.objects.filter(interceptor=mine, recorded_by=town.u("owner")).count() == 2


def test_reserved_actions_are_refused_to_other_roles(town: Town, login: Any) -> None:
    mine, _, p, _ = _traps(town)
    create = {
        "establishment": town.owner_restaurant.pk,
        "kind": "grease_trap",
        "rated_gpm": "7",
        "location": "Kitchen",
    }
    removal = {"removed_on": str(TODAY), "reason": "Replaced."}
    for username in ("owner", "clerk", "highway", "viewer"):
        c = login(username)
        assert c.post("/grease/new/", create).status_code == 403, username
        r = c.post("/api/grease/interceptors/", create, content_type="application/json")
        assert r.status_code == 403, username
        assert c.post(f"/grease/{mine.pk}/remove/", removal).status_code == 403, username
        # The owner did not record the superintendent's pump-out: it may not void it.
        r = c.post(f"/grease/pump-outs/{p.pk}/void/", {"reason": "x"})
        assert r.status_code == 403, username
        p.refresh_from_db()
        assert not p.voided
    for username in ("clerk", "highway", "viewer"):
        assert (
            login(username).post(f"/grease/{mine.pk}/pump-outs/", _pump_data()).status_code == 403
        )
    assert GreaseInterceptor.objects.count() == 2
    r = login("engineer").post(f"/grease/{mine.pk}/remove/", removal)
    assert r.status_code == 302
    mine.refresh_from_db()
    assert not mine.active and mine.removed_on == TODAY
