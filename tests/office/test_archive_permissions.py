"""The permission battery of the archive (``/archive/``): the imports of records of the past
are the clerk's, the engineer's and the Superintendent's; every other role and an outside user
get 403, an anonymous visitor the login page."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest

from sewer_office.archive.bundle import read_zip
from sewer_office.archive.models import RecordImport
from sewer_office.archive.services import import_records

from .factories import Town

COVERED_URL_NAMES = {"archive:list", "archive:import", "archive:detail"}

VIOLATIONS = (
    "kind,section,description,person,parcel,observed_on,state\n"
    "overdue_pumpout,§ 196-19 F(2),Grease trap not pumped,Olive Owner,100-03,2015-03-02,"
    "corrected\n"
)


def _batch(town: Town) -> RecordImport:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("violations.csv", VIOLATIONS)
    report = import_records(read_zip(buf.getvalue(), "v.zip"), town.u("clerk"), source="paper")
    assert report.batch is not None, report.rows
    return report.batch


def _pages(town: Town) -> list[str]:
    return ["/archive/", "/archive/import/", f"/archive/{_batch(town).pk}/"]


@pytest.mark.parametrize("username", ["clerk", "engineer", "superintendent"])
def test_importers_see_every_page(town: Town, login: Any, username: str) -> None:
    client = login(username)
    for url in _pages(town):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("username", ["inspector", "highway", "viewer", "owner", "other", "norole"])
def test_other_users_are_refused(town: Town, login: Any, username: str) -> None:
    client = login(username)
    for url in _pages(town):
        assert client.get(url).status_code == 403, url
    assert client.post("/archive/import/", {"sha256": "0" * 64}).status_code == 403
    assert RecordImport.objects.count() == 1


def test_anonymous_is_sent_to_sign_in(town: Town, login: Any) -> None:
    client = login(None)
    for url in _pages(town):
        r = client.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url


def test_a_missing_import_is_404(town: Town, login: Any) -> None:
    assert login("clerk").get("/archive/999999/").status_code == 404
