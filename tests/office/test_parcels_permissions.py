"""The parcels app's permission battery: every page and endpoint, every kind of user.

Anonymous → the login page; a user without a role and the outside users → 403 everywhere (the
roll lists every owner; importing is the office's); every staff role reads the imports, the
reviews and the map; importing and deciding a review are the clerk's, the engineer's and the
Superintendent's (403 for the other staff).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from sewer_cli.main import main
from sewer_office.parcels.choices import ReviewState
from sewer_office.parcels.models import ParcelReview
from tests.parcel_rolls import next_year, write_roll

from .factories import Town

COVERED_URL_NAMES = {
    "parcels:index",
    "parcels:import",
    "parcels:import-districts",
    "parcels:review",
    "parcels:map",
    "parcels:map-data",
}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
IMPORTERS = ("superintendent", "engineer", "clerk")


@pytest.fixture(scope="module")
def rolls(tmp_path_factory: Any) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("permission-rolls")
    (base / "a").mkdir()
    (base / "b").mkdir()
    first = write_roll(base / "a", parcels=310, bad_rows=False)
    return first, next_year(first, base / "b")


@pytest.fixture
def review(town: Town, rolls: tuple[Path, Path]) -> ParcelReview:
    for path in rolls:
        assert main(["import-parcels", str(path)]) == 0
    found = ParcelReview.objects.order_by("id").first()
    assert found is not None
    return found


def _reading(r: ParcelReview) -> list[str]:
    return ["/parcels/", f"/parcels/reviews/{r.pk}/", "/parcels/map/", "/parcels/map/data/"]


def _importing() -> list[str]:
    return ["/parcels/import/", "/parcels/districts/import/"]


def test_anonymous_goes_to_login(review: ParcelReview, client: Any) -> None:
    for url in _reading(review) + _importing():
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    r = client.post(f"/parcels/reviews/{review.pk}/", {"decision": "confirm"})
    assert r.status_code == 302
    review.refresh_from_db()
    assert review.state == ReviewState.PENDING


@pytest.mark.parametrize("username", ["norole", "owner", "other"])
def test_no_role_and_outside_users_are_refused(
    review: ParcelReview, login: Any, username: str
) -> None:
    c = login(username)
    for url in _reading(review) + _importing():
        assert c.get(url).status_code == 403, url
    assert c.post(f"/parcels/reviews/{review.pk}/", {"decision": "confirm"}).status_code == 403
    assert c.post("/parcels/import/", {"step": "preview"}).status_code == 403
    review.refresh_from_db()
    assert review.state == ReviewState.PENDING


@pytest.mark.parametrize("username", STAFF)
def test_staff_read_and_the_importers_import(
    review: ParcelReview, login: Any, username: str
) -> None:
    c = login(username)
    for url in _reading(review):
        assert c.get(url).status_code == 200, url
    for url in _importing():
        assert c.get(url).status_code == (200 if username in IMPORTERS else 403), url
    r = c.post(f"/parcels/reviews/{review.pk}/", {"decision": "reject", "note": "no"})
    assert r.status_code == (302 if username in IMPORTERS else 403)
    review.refresh_from_db()
    assert review.state == (ReviewState.REJECTED if username in IMPORTERS else ReviewState.PENDING)


def test_an_unknown_review_is_404(review: ParcelReview, login: Any) -> None:
    assert login("clerk").get(f"/parcels/reviews/{review.pk + 1000}/").status_code == 404
