"""Permission battery of the enforcement pages and API (see test_permissions.py).

Anonymous → login / 401; no role → 403; every staff role sees every violation and notice;
the owner sees its own violations once noticed, and another's (or its own not yet noticed)
is 404; each action is reserved to the roles the workflow names (403 otherwise), and the
owner may report its own correction.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_office.enforcement.models import Violation

from .enforcement_factories import opened, overdue, reported, served
from .factories import Town

COVERED_URL_NAMES = {
    "enforcement:list",
    "enforcement:open",
    "enforcement:detail",
    "enforcement:action",
    "enforcement:cost",
    "enforcement:notice-pdf",
}
COVERED_URL_PREFIXES = ("violation-", "notice-")

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
OPENERS = ("superintendent", "engineer", "inspector")


def _pages(v: Violation) -> list[str]:
    n = v.notices.first()
    return [
        "/enforcement/",
        "/enforcement/?open=true",
        f"/enforcement/{v.pk}/",
        f"/enforcement/notices/{n.pk}.pdf",
    ]


def _endpoints(v: Violation) -> list[str]:
    n = v.notices.first()
    return [
        "/api/enforcement/violations/",
        f"/api/enforcement/violations/{v.pk}/",
        "/api/enforcement/notices/",
        f"/api/enforcement/notices/{n.pk}/",
        f"/api/enforcement/notices/{n.pk}/letter/",
    ]


ACTIONS = (
    "issue",
    "serve",
    "report-correction",
    "verify",
    "escalate",
    "refer",
    "refer-fine",
    "cost",
)


def test_urls_are_named_as_declared() -> None:
    assert reverse("enforcement:list") == "/enforcement/"
    assert reverse("enforcement:action", args=[1, "serve"]) == "/enforcement/1/actions/serve/"
    assert reverse("violation-report-correction", args=[1]) == (
        "/api/enforcement/violations/1/report-correction/"
    )
    assert reverse("notice-letter", args=[1]) == "/api/enforcement/notices/1/letter/"


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    v = served(town)
    for url in [*_pages(v), "/enforcement/open/"]:
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url in (f"/enforcement/{v.pk}/actions/verify/", f"/enforcement/{v.pk}/costs/"):
        assert client.post(url, {}).status_code == 302, url
    for url in _endpoints(v):
        assert client.get(url).status_code == 401, url
    for a in ACTIONS:
        url = f"/api/enforcement/violations/{v.pk}/{a}/"
        assert client.post(url, {}, content_type="application/json").status_code == 401, url


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    v = served(town)
    c = login("norole")
    for url in [*_pages(v), "/enforcement/open/", *_endpoints(v)]:
        assert c.get(url).status_code == 403, url
    r = c.post(f"/api/enforcement/violations/{v.pk}/verify/", {}, content_type="application/json")
    assert r.status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_violation(town: Town, login: Any, username: str) -> None:
    mine, theirs = served(town), served(town, mine=False)
    internal = opened(town, mine=False, day="2026-01-03")
    c = login(username)
    for v in (mine, theirs):
        for url in _pages(v) + _endpoints(v):
            assert c.get(url).status_code == 200, url
    assert c.get(f"/enforcement/{internal.pk}/").status_code == 200
    ids = {r["id"] for r in c.get("/api/enforcement/violations/").json()["results"]}
    assert ids == {mine.pk, theirs.pk, internal.pk}
    assert c.get("/enforcement/open/").status_code == (200 if username in OPENERS else 403)


def test_owner_sees_its_own_only(town: Town, login: Any) -> None:
    mine, theirs = served(town), served(town, mine=False)
    internal = opened(town, day="2026-01-03")  # its own, not yet noticed
    c = login("owner")
    for url in _pages(mine) + _endpoints(mine):
        assert c.get(url).status_code == 200, url
    for url in [
        *_pages(theirs)[2:],
        *[u for u in _endpoints(theirs) if u.rstrip("/")[-1].isdigit() or "letter" in u],
        f"/enforcement/{internal.pk}/",
        f"/api/enforcement/violations/{internal.pk}/",
    ]:
        assert c.get(url).status_code == 404, url
    ids = {r["id"] for r in c.get("/api/enforcement/violations/").json()["results"]}
    assert ids == {mine.pk}
    notices = {r["violation"] for r in c.get("/api/enforcement/notices/").json()["results"]}
    assert notices == {mine.pk}
    # the filter's choices do not name other persons or facilities
    body = c.get("/enforcement/").content.decode()
    assert "Otto Plating" not in body and "Otto Other" not in body
    for a in ACTIONS:
        url = f"/api/enforcement/violations/{theirs.pk}/{a}/"
        assert c.post(url, {}, content_type="application/json").status_code == 404, url
    assert c.post(f"/enforcement/{theirs.pk}/actions/report_correction/", {}).status_code == 404
    assert c.get("/enforcement/open/").status_code == 403
    assert login("other").get(f"/enforcement/{theirs.pk}/").status_code == 200


def _post(c: Any, v: Violation, action: str, data: dict[str, Any]) -> int:
    r = c.post(
        f"/api/enforcement/violations/{v.pk}/{action}/", data, content_type="application/json"
    )
    return int(r.status_code)


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_each_action_is_reserved_to_its_roles(town: Town, login: Any, username: str) -> None:
    c = login(username)
    v = opened(town)
    ok = username == "superintendent"
    assert _post(c, v, "issue", {}) == (200 if ok else 404 if username == "owner" else 403)
    v = served(town)
    ok = username in ("superintendent", "clerk", "engineer", "inspector", "owner")
    code = _post(c, v, "report-correction", {"reported_on": "2026-01-06", "description": "x"})
    assert code == (200 if ok else 403)
    v = reported(town)
    ok = username in ("superintendent", "engineer", "inspector")
    assert _post(c, v, "verify", {"verified_on": "2026-01-20"}) == (200 if ok else 403)
    v = overdue(town)
    ok = username in ("superintendent", "engineer", "clerk")
    cost = {
        "category": "laboratory",
        "description": "copper",
        "amount": "45.50",
        "incurred_on": "2026-01-10",
    }
    assert _post(c, v, "cost", cost) == (201 if ok else 403)
    ok = username == "superintendent"
    assert _post(c, v, "escalate", {}) == (200 if ok else 403)
    assert _post(c, v, "refer", {"kind": "town_attorney"}) == (200 if ok else 403)
    w = served(town, mine=False)
    code = _post(c, w, "serve", {"served_on": "2026-01-05", "service_method": "personal"})
    # already served: staff who may serve learn it is not possible now (409)
    expected = {"superintendent": 409, "clerk": 409, "owner": 404}.get(username, 403)
    assert code == expected
