"""Permission battery of the pretreatment pages and API (see test_permissions.py).

Anonymous → login / 401; no role → 403; every staff role sees every page (the yearly SNC list
and the annual report are staff-only: outside users get 403); the Superintendent and the
engineer run SNC, designate, require reports and prepare the annual report; the clerk also records received reports;
the owner sees its own facility's designations, due dates and determinations, and another's
is 404.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.pretreatment import program_page, report_dues, services, snc
from sewer_office.pretreatment.models import ReportDue, SNCDetermination
from sewer_office.registry.models import Establishment
from sewer_office.registry.services import register_establishment

from .factories import Town
from .pretreatment_factories import at, chronic_copper, sup

COVERED_URL_NAMES = {
    "pretreatment:index",
    "pretreatment:snc-run",
    "pretreatment:snc-detail",
    "pretreatment:snc-staff-criterion",
    "pretreatment:facility",
    "pretreatment:designate",
    "pretreatment:require",
    "pretreatment:received",
    "pretreatment:snc-list",
    "pretreatment:snc-list-pdf",
    "pretreatment:snc-list-csv",
    "pretreatment:annual",
    "pretreatment:annual-pdf",
    "pretreatment:annual-csv",
    "pretreatment:annual-xml",  # test_annual_xml_is_staff_only
    "pretreatment:annual-prepare",
}
COVERED_URL_PREFIXES = ("siu-designation-", "report-due-", "snc-determination-")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
DECIDERS = ("superintendent", "engineer")
RECEIVERS = ("superintendent", "engineer", "clerk")


def _setup(town: Town) -> dict[str, Any]:
    f = chronic_copper(town)
    for est in (f.mine, f.theirs):
        services.designate(
            sup(town), est, basis="designated", reason="plating line", on=date(2026, 1, 5),
            at=at("2026-01-05"),
        )  # fmt: skip
        report_dues.add_requirement(
            sup(town), est, kind="periodic", first_due=date(2026, 1, 31), at=at("2026-01-05")
        )
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = {d.establishment_id: d for d in SNCDetermination.objects.all()}
    due = {d.establishment_id: d for d in ReportDue.objects.filter(due_on=date(2026, 1, 31))}
    return {"f": f, "det": det, "due": due}


def _own_pages(s: dict[str, Any], mine: bool) -> list[str]:
    est = s["f"].mine if mine else s["f"].theirs
    return [f"/pretreatment/facilities/{est.pk}/", f"/pretreatment/snc/{s['det'][est.pk].pk}/"]


def _own_endpoints(s: dict[str, Any], mine: bool) -> list[str]:
    est = s["f"].mine if mine else s["f"].theirs
    d = services.current_designation(est)
    assert d is not None
    return [
        f"/api/pretreatment/designations/{d.pk}/",
        f"/api/pretreatment/reports/{s['due'][est.pk].pk}/",
        f"/api/pretreatment/snc/{s['det'][est.pk].pk}/",
    ]


LISTS = ("/api/pretreatment/designations/", "/api/pretreatment/reports/", "/api/pretreatment/snc/")
STAFF_PAGES = (
    "/pretreatment/snc-list/2026/",
    "/pretreatment/snc-list/2026.pdf",
    "/pretreatment/snc-list/2026.csv",
    "/pretreatment/annual/2026/",
    "/pretreatment/annual/2026.pdf",
    "/pretreatment/annual/2026.csv",
)


def _posts(s: dict[str, Any], mine: bool = True) -> dict[str, tuple[str, dict[str, str]]]:
    est = s["f"].mine if mine else s["f"].theirs
    return {  # the staff criterion first: running SNC supersedes the determination
        "staff-criterion": (
            f"/pretreatment/snc/{s['det'][est.pk].pk}/staff-criterion/",
            {"criterion": "C", "facts": "slug upset the plant", "on": "2026-03-04"},
        ),
        "run": ("/pretreatment/snc/run/", {"period": "2026H1"}),
        "designate": (f"/pretreatment/facilities/{est.pk}/designate/", {"basis": "evaluated"}),
        "require": (
            f"/pretreatment/facilities/{est.pk}/reports/",
            {"kind": "baseline", "every_months": "0", "first_due": "2026-09-01"},
        ),
        "received": (
            f"/pretreatment/reports/{s['due'][est.pk].pk}/received/",
            {"received_on": "2026-02-01"},
        ),
        "prepare": ("/pretreatment/annual/2025/prepare/", {}),
    }


STAFF_CRITERION = {"criterion": "H", "facts": "refused entry", "on": "2026-05-02"}


def _staff_criterion_api(s: dict[str, Any], mine: bool) -> str:
    est = s["f"].mine if mine else s["f"].theirs
    current = SNCDetermination.objects.get(establishment=est, superseded_by__isnull=True)
    return f"/api/pretreatment/snc/{current.pk}/staff-criterion/"


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    s = _setup(town)
    for url in ["/pretreatment/", *_own_pages(s, True), *STAFF_PAGES]:
        r = client.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    for url, data in _posts(s).values():
        assert client.post(url, data).status_code == 302, url
    for url in [*LISTS, *_own_endpoints(s, True)]:
        assert client.get(url).status_code == 401, url
    assert client.post("/api/pretreatment/snc/run/", {"period": "2026H1"}).status_code == 401
    assert client.post(_staff_criterion_api(s, True), STAFF_CRITERION).status_code == 401


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("norole")
    for url in ["/pretreatment/", *_own_pages(s, True), *STAFF_PAGES, *LISTS]:
        assert c.get(url).status_code == 403, url
    for url, data in _posts(s).values():
        assert c.post(url, data).status_code == 403, url
    assert c.post(_staff_criterion_api(s, True), STAFF_CRITERION).status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_everything(town: Town, login: Any, username: str) -> None:
    s = _setup(town)
    c = login(username)
    for mine in (True, False):
        for url in _own_pages(s, mine) + _own_endpoints(s, mine):
            assert c.get(url).status_code == 200, url
    for url in ("/pretreatment/", *STAFF_PAGES):
        assert c.get(url).status_code == 200, url
    assert len(c.get("/api/pretreatment/snc/").json()["results"]) == 2
    body = c.get("/pretreatment/").content.decode()
    assert ("Determine SNC" in body) == (username in DECIDERS)


def test_owner_sees_its_own_only(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("owner")
    for url in ["/pretreatment/", *_own_pages(s, True), *_own_endpoints(s, True)]:
        assert c.get(url).status_code == 200, url
    for url in _own_pages(s, False) + _own_endpoints(s, False):
        assert c.get(url).status_code == 404, url
    for url in STAFF_PAGES:
        assert c.get(url).status_code == 403, url
    for url in LISTS:
        ests = {r["establishment"] for r in c.get(url).json()["results"]}
        assert ests == {s["f"].mine.pk}, url
    body = c.get("/pretreatment/").content.decode()
    assert "Otto Plating" not in body
    # the owner may not run, designate, require, nor record its own report as received
    for url, data in _posts(s).values():
        assert c.post(url, data).status_code == 403, url
    r = c.post("/api/pretreatment/snc/run/", {"period": "2026H1"}, content_type="application/json")
    assert r.status_code == 403
    url = f"/api/pretreatment/reports/{s['due'][s['f'].theirs.pk].pk}/received/"
    assert c.post(url, {"received_on": "2026-02-01"}).status_code == 404
    api = _staff_criterion_api(s, True)
    assert c.post(api, STAFF_CRITERION, content_type="application/json").status_code == 403
    api = _staff_criterion_api(s, False)
    assert c.post(api, STAFF_CRITERION, content_type="application/json").status_code == 404
    assert login("other").get(_own_pages(s, False)[0]).status_code == 200


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_each_action_is_reserved_to_its_roles(town: Town, login: Any, username: str) -> None:
    s = _setup(town)
    c = login(username)
    for name, (url, data) in _posts(s).items():
        allowed = DECIDERS if name != "received" else RECEIVERS
        code = c.post(url, data).status_code
        assert code == (302 if username in allowed else 403), (name, code)
    r = c.post("/api/pretreatment/snc/run/", {"period": "2026H1"}, content_type="application/json")
    assert r.status_code == (201 if username in DECIDERS else 403)
    due = ReportDue.objects.filter(establishment=s["f"].theirs, received_on__isnull=True).first()
    code = c.post(
        f"/api/pretreatment/reports/{due.pk}/received/",
        {"received_on": "2026-02-02"},
        content_type="application/json",
    ).status_code
    assert code == (200 if username in RECEIVERS else 404 if username == "owner" else 403)
    code = c.post(
        _staff_criterion_api(s, False), STAFF_CRITERION, content_type="application/json"
    ).status_code
    assert code == (201 if username in DECIDERS else 404 if username == "owner" else 403)


def test_bad_input_is_refused_with_its_message(town: Town, login: Any) -> None:
    s = _setup(town)
    c = login("superintendent")
    r = c.post("/pretreatment/snc/run/", {"period": "2026H3"})
    assert r.status_code == 400 and "2026H3" in r.content.decode()
    r = c.post("/api/pretreatment/snc/run/", {"period": "2026-02..2026-05"},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 400 and "calendar halves" in r.json()["errors"]["period"][0]
    url, _ = _posts(s)["designate"]
    r = c.post(url, {"basis": "designated", "reason": ""})
    assert r.status_code == 400 and "403.3(v)(1)(ii)" in r.content.decode()
    due = s["due"][s["f"].mine.pk]
    r = c.post(f"/pretreatment/reports/{due.pk}/received/", {"received_on": "2099-01-01"})
    assert r.status_code == 400 and "future" in r.content.decode()


def test_determination_page_lists_the_measurements_counted(town: Town, login: Any) -> None:
    s = _setup(town)
    det = s["det"][s["f"].theirs.pk]
    body = login("viewer").get(f"/pretreatment/snc/{det.pk}/").content.decode()
    assert "2026-01-10 1.1 mg/l*" in body and "2026-02-10 0.9 mg/l," in body
    assert "40 CFR 403.8(f)(2)(viii)(A)" in body


def test_index_lists_industrial_users_never_designated(town: Town, login: Any) -> None:
    chronic_copper(town)
    body = login("clerk").get("/pretreatment/").content.decode()
    assert "Industrial users never designated" in body and "Otto Plating" in body
    assert "Otto Plating" not in login("owner").get("/pretreatment/").content.decode()


def test_annual_xml_is_staff_only(town: Town, client: Any, login: Any) -> None:
    """The ICIS-NPDES XML answers as the annual report's PDF: staff only. Here the users have
    no ICIS-NPDES identifier, so staff get the annual page listing what is missing (409)."""
    _setup(town)
    url = "/pretreatment/annual/2026.xml"
    r = client.get(url)
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    for outsider in ("norole", "owner"):
        assert login(outsider).get(url).status_code == 403, outsider
    for username in STAFF:
        r = login(username).get(url)
        assert r.status_code == 409, username
        assert "ICIS-NPDES permit identifier" in r.content.decode(), username


def test_index_names_the_first_users_never_designated_and_counts_the_rest(
    town: Town, login: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a county's thousands of users are counted and left to the establishments list
    chronic_copper(town)
    assert town.owner_home is not None and town.owner_person is not None
    register_establishment(
        town.u("clerk"),
        name="Acme Anodizing",
        kind="industrial",
        operator=town.owner_person,
        building=town.owner_home.buildings.get(),
    )
    never = Establishment.objects.filter(kind="industrial", siu_designations=None)
    assert never.count() >= 2
    monkeypatch.setattr(program_page, "UNDESIGNATED_SHOWN", 1)
    body = login("clerk").get("/pretreatment/").content.decode()
    first = never.order_by("name", "id").first()
    assert first is not None and first.name in body
    assert f"and {never.count() - 1} more" in body
    assert "/registry/establishments/?kind=industrial" in body
