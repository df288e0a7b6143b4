"""Permission battery of the compliance-schedule pages and API (see test_permissions.py).

Anonymous → login / 401; no role → 403; every staff role sees every schedule; the owner sees
its own facility's and another's is 404; imposing and amending are the Superintendent's and
the engineer's (403 otherwise); a milestone's completion is recorded by the Superintendent,
the engineer, the clerk, or the facility itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.enforcement.models import ComplianceSchedule

from .factories import Town
from .test_schedules import schedule

COVERED_URL_NAMES = {
    "enforcement:schedules",
    "enforcement:schedule-new",
    "enforcement:schedule-detail",
    "enforcement:schedule-edit",
    "enforcement:milestone-complete",
}
COVERED_URL_PREFIXES = ("schedule-", "milestone-")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
SCHEDULERS = ("superintendent", "engineer")
RECORDERS = ("superintendent", "engineer", "clerk", "owner")


def _pages(s: ComplianceSchedule) -> list[str]:
    return [
        "/enforcement/schedules/",
        f"/enforcement/schedules/?establishment={s.establishment_id}",
        f"/enforcement/schedules/{s.pk}/",
    ]


def _endpoints(s: ComplianceSchedule) -> list[str]:
    m = s.milestones.get()
    return [
        "/api/enforcement/schedules/",
        f"/api/enforcement/schedules/{s.pk}/",
        "/api/enforcement/milestones/",
        f"/api/enforcement/milestones/{m.pk}/",
    ]


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    s = schedule(town)
    m = s.milestones.get()
    for url in [*_pages(s), "/enforcement/schedules/new/", f"/enforcement/schedules/{s.pk}/edit/"]:
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/"), url
    assert client.post(f"/enforcement/milestones/{m.pk}/complete/", {}).status_code == 302
    for url in _endpoints(s):
        assert client.get(url).status_code == 401, url
    assert client.post(f"/api/enforcement/milestones/{m.pk}/complete/", {}).status_code == 401


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    s = schedule(town)
    c = login("norole")
    for url in [*_pages(s), *_endpoints(s), "/enforcement/schedules/new/"]:
        assert c.get(url).status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_schedule(town: Town, login: Any, username: str) -> None:
    mine, theirs = schedule(town), schedule(town, mine=False)
    c = login(username)
    for s in (mine, theirs):
        for url in _pages(s) + _endpoints(s):
            assert c.get(url).status_code == 200, url
    ids = {r["id"] for r in c.get("/api/enforcement/schedules/").json()["results"]}
    assert ids == {mine.pk, theirs.pk}
    ok = 200 if username in SCHEDULERS else 403
    assert c.get("/enforcement/schedules/new/").status_code == ok
    assert c.get(f"/enforcement/schedules/{mine.pk}/edit/").status_code == ok


def test_owner_sees_its_own_only(town: Town, login: Any) -> None:
    mine, theirs = schedule(town), schedule(town, mine=False)
    c = login("owner")
    for url in _pages(mine) + _endpoints(mine):
        assert c.get(url).status_code == 200, url
    for url in [f"/enforcement/schedules/{theirs.pk}/", *_endpoints(theirs)[1::2]]:
        assert c.get(url).status_code == 404, url
    assert {r["id"] for r in c.get("/api/enforcement/schedules/").json()["results"]} == {mine.pk}
    assert "Otto Plating" not in c.get("/enforcement/schedules/").content.decode()
    m = theirs.milestones.get()
    assert c.post(f"/enforcement/milestones/{m.pk}/complete/", {}).status_code == 404
    r = c.post(f"/api/enforcement/milestones/{m.pk}/complete/", {}, content_type="application/json")
    assert r.status_code == 404
    assert c.get("/enforcement/schedules/new/").status_code == 403
    assert c.get(f"/enforcement/schedules/{mine.pk}/edit/").status_code == 403


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_actions_are_reserved_to_their_roles(town: Town, login: Any, username: str) -> None:
    c = login(username)
    s = schedule(town)
    m = s.milestones.get()
    body = {"completed_on": "2026-01-02", "completion_report": "done"}
    r = c.post(
        f"/api/enforcement/milestones/{m.pk}/complete/", body, content_type="application/json"
    )
    assert r.status_code == (200 if username in RECORDERS else 403), r.content
    new = {
        "establishment": town.owner_restaurant.pk,  # type: ignore[union-attr]
        "imposed_by": "approval_condition",
        "approval": s.approval_id,
        "requirement": "Second schedule",
        "citation": "§ 196-19 E(1)",
        "milestones": [{"due_on": "2026-09-01", "description": "done"}],
    }
    r = c.post("/api/enforcement/schedules/", new, content_type="application/json")
    expected = 201 if username in SCHEDULERS else 403
    assert r.status_code == expected, r.content
    # the requirement as imposed (fixed since); the amendment adds nothing else here
    amend = {"reason": "r", "requirement": s.requirement, "citation": s.citation}
    r = c.post(f"/api/enforcement/schedules/{s.pk}/amend/", amend, content_type="application/json")
    assert r.status_code == (200 if username in SCHEDULERS else 403), r.content
