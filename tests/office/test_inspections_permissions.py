"""Permission battery of the inspections pages and API (see test_permissions.py).

Anonymous → login / 401; no role → 403; every staff role sees every inspection; the owner
sees the completed inspections of its own facility and nothing else (404); scheduling,
performing, cancelling, photos and addenda are reserved to the Superintendent, the engineer
and the Building Inspector (403 for everyone else).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from sewer_office.inspections.models import Inspection

from .factories import Town
from .test_inspections import PNG, completed, scheduled

COVERED_URL_NAMES = {
    "inspections:list",
    "inspections:schedule",
    "inspections:detail",
    "inspections:complete",
    "inspections:cancel",
    "inspections:photo",
    "inspections:addendum",
    "inspections:agency",
    "inspections:refusal",
    "inspections:report",
}
COVERED_URL_PREFIXES = ("inspection-",)

#: A complete agency inspector and refusal of entry (§ 196-21 A), for the reserved POSTs.
AGENCY = {"agency": "dec", "name": "R. Rivera", "credential": "DEC badge 4411"}
REFUSAL = {
    "refused_by": "J. Doe, plant manager",
    "refused_at": "2026-01-02T10:00:00-05:00",
    "asked": "entry to the pretreatment room to sample",
    "credentials_shown": "Town ID 12",
}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
PERFORMERS = ("superintendent", "engineer", "inspector")


def _pages(done: Inspection) -> list[str]:
    return [
        "/inspections/",
        "/inspections/?upcoming=on",
        f"/inspections/{done.pk}/",
        f"/inspections/{done.pk}/report.pdf",
    ]


def _endpoints(done: Inspection) -> list[str]:
    return [
        "/api/inspections/",
        f"/api/inspections/{done.pk}/",
        f"/api/inspections/{done.pk}/report/",
    ]


def _posts(open_: Inspection, done: Inspection) -> list[tuple[str, dict[str, Any]]]:
    """Role-reserved page POSTs (URL, data)."""
    return [
        ("/inspections/schedule/", {"kind": "food_service"}),
        (f"/inspections/{open_.pk}/complete/", {}),
        (f"/inspections/{open_.pk}/cancel/", {"reason": "x"}),
        (f"/inspections/{open_.pk}/photos/", {}),
        (f"/inspections/{done.pk}/addenda/", {"text": "x"}),
        (f"/inspections/{open_.pk}/agency-inspectors/", AGENCY),
        (f"/inspections/{open_.pk}/refusal/", REFUSAL),
    ]


def _api_posts(open_: Inspection, done: Inspection) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("/api/inspections/", {"kind": "food_service"}),
        (f"/api/inspections/{open_.pk}/complete/", {}),
        (f"/api/inspections/{open_.pk}/cancel/", {"reason": "x"}),
        (f"/api/inspections/{open_.pk}/photos/", {}),
        (f"/api/inspections/{done.pk}/addenda/", {"text": "x"}),
        (f"/api/inspections/{open_.pk}/agency-inspectors/", AGENCY),
        (f"/api/inspections/{open_.pk}/refusal/", REFUSAL),
    ]


def test_urls_are_named_as_declared() -> None:
    for name in COVERED_URL_NAMES:
        assert reverse(
            name, args=[] if name in ("inspections:list", "inspections:schedule") else [1]
        )
    assert reverse("inspection-complete", args=[1]) == "/api/inspections/1/complete/"


def test_anonymous_goes_to_login_and_api_says_401(town: Town, client: Any) -> None:
    done, open_ = completed(town), scheduled(town)
    for url in [*_pages(done), f"/inspections/{open_.pk}/complete/", "/inspections/schedule/"]:
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for url, data in _posts(open_, done):
        assert client.post(url, data).status_code == 302, url
    for url in _endpoints(done):
        assert client.get(url).status_code == 401, url
    for url, data in _api_posts(open_, done):
        assert client.post(url, data, content_type="application/json").status_code == 401, url


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    done, open_ = completed(town), scheduled(town)
    c = login("norole")
    for url in [*_pages(done), f"/inspections/{open_.pk}/complete/", "/inspections/schedule/"]:
        assert c.get(url).status_code == 403, url
    for url in _endpoints(done):
        assert c.get(url).status_code == 403, url
    for url, data in _api_posts(open_, done):
        assert c.post(url, data, content_type="application/json").status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_staff_see_every_inspection(town: Town, login: Any, username: str) -> None:
    mine, theirs = completed(town), completed(town, mine=False)
    open_ = scheduled(town, mine=False)
    c = login(username)
    for done in (mine, theirs):
        for url in _pages(done) + _endpoints(done):
            assert c.get(url).status_code == 200, url
    assert c.get(f"/inspections/{open_.pk}/").status_code == 200
    assert c.get(f"/api/inspections/{open_.pk}/").status_code == 200
    expected = 200 if username in PERFORMERS else 403
    assert c.get("/inspections/schedule/").status_code == expected
    assert c.get(f"/inspections/{open_.pk}/complete/").status_code == expected
    ids = {r["id"] for r in c.get("/api/inspections/").json()["results"]}
    assert ids == {mine.pk, theirs.pk, open_.pk}
    for est in (town.owner_restaurant, town.other_plant):
        assert c.get(f"/registry/establishments/{est.pk}/").status_code == 200
    assert c.get("/").status_code == 200


def test_owner_sees_own_completed_only(town: Town, login: Any) -> None:
    mine, theirs = completed(town), completed(town, mine=False)
    my_open = scheduled(town)
    c = login("owner")
    for url in _pages(mine) + _endpoints(mine):
        assert c.get(url).status_code == 200, url
    for url in (
        _pages(theirs)[2:]
        + _endpoints(theirs)[1:]
        + [f"/inspections/{my_open.pk}/", f"/api/inspections/{my_open.pk}/"]
    ):
        assert c.get(url).status_code == 404, url
    assert c.get("/inspections/schedule/").status_code == 403
    assert c.get(f"/inspections/{my_open.pk}/complete/").status_code == 403
    ids = {r["id"] for r in c.get("/api/inspections/").json()["results"]}
    assert ids == {mine.pk}
    # the API answers 404 for what the owner cannot see, 403 for an action on what it can
    assert (
        c.post(f"/api/inspections/{my_open.pk}/complete/", {}, content_type="application/json")
    ).status_code == 404
    assert (
        c.post(
            f"/api/inspections/{mine.pk}/addenda/", {"text": "x"}, content_type="application/json"
        )
    ).status_code == 403
    assert login("other").get(f"/inspections/{theirs.pk}/").status_code == 200


@pytest.mark.parametrize("username", ["clerk", "highway", "viewer", "owner"])
def test_actions_reserved_to_performers(town: Town, login: Any, username: str) -> None:
    done, open_ = completed(town), scheduled(town)
    c = login(username)
    for url, data in _posts(open_, done):
        assert c.post(url, data).status_code == 403, url
    for url, data in _api_posts(open_, done):
        r = c.post(url, data, content_type="application/json")
        expected = 404 if username == "owner" and str(open_.pk) in url.split("/") else 403
        assert r.status_code == expected, url
    open_.refresh_from_db()
    assert open_.state == "scheduled" and not done.addenda.exists()
    assert not open_.refusals.exists() and not open_.agency_inspectors.exists()
    assert Inspection.objects.count() == 2


@pytest.mark.parametrize("username", PERFORMERS)
def test_performers_may_act(town: Town, login: Any, username: str) -> None:
    open_ = scheduled(town)
    c = login(username)
    r = c.post(
        f"/inspections/{open_.pk}/photos/",
        {"photo": SimpleUploadedFile("a.png", PNG, content_type="image/png")},
    )
    assert r.status_code == 302
    r = c.post(f"/inspections/{open_.pk}/cancel/", {"reason": "closed"})
    assert r.status_code == 302
    done = completed(town)
    assert c.post(f"/inspections/{done.pk}/addenda/", {"text": "noted"}).status_code == 302
    other = scheduled(town, mine=False)
    assert c.post(f"/inspections/{other.pk}/agency-inspectors/", AGENCY).status_code == 302
    assert c.post(f"/inspections/{other.pk}/refusal/", REFUSAL).status_code == 302
    assert other.agency_inspectors.count() == 1 and other.refusals.count() == 1
    r = c.post(
        "/inspections/schedule/",
        {
            "kind": "control_manhole",
            "establishment": town.other_plant.pk,
            "scheduled_for": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert r.status_code == 302
