"""The permission battery of the plain-words pages: the header's search and the bulk
acknowledgement of findings.

- the search answers anonymous users with the login page and users without a role with 403;
  staff find every record, an outside user only their own (another's never appears);
- bulk acknowledge is the Superintendent's and the engineer's (403 for everyone else) and
  never touches a finding the user may not see.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from sewer_office.findings.choices import ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.services import record_finding

from .factories import Town, new_record
from .monitoring_factories import facilities

COVERED_URL_NAMES = {"search", "monitoring:finding-acknowledge", "api-redoc"}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")


def _finding(est: Any, status: str = "prohibited", day: int = 2) -> Finding:
    return record_finding(
        source=None,
        establishment=est,
        kind="lab_result",
        status=status,
        citation="§ 196-19 C(3)",
        message=f"{status} finding",
        observed_at=datetime(2026, 3, day, 15, tzinfo=UTC),
    )


def test_search_anonymous_and_without_role(town: Town, login: Any) -> None:
    assert login(None).get("/search/?q=Main").status_code == 302
    assert login("norole").get("/search/?q=Main").status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_find_everyones_records(town: Town, login: Any, username: str) -> None:
    facilities(town)
    mine, theirs = (
        new_record("building-sewer", town),
        new_record("building-sewer", town, mine=False),
    )
    body = login(username).get("/search/?q=100-0").content.decode()
    for text in ("100-01 Main St", "100-02 Main St", mine.number, theirs.number):
        assert text in body
    body = login(username).get("/search/?q=plating").content.decode()
    assert "Otto Plating" in body
    assert "OTHER-PLANT" in login(username).get("/search/?q=other-pl").content.decode()
    assert "Otto Other" in login(username).get("/search/?q=otto").content.decode()


def test_outside_user_finds_only_their_own(town: Town, login: Any) -> None:
    facilities(town)
    mine, theirs = (
        new_record("building-sewer", town),
        new_record("building-sewer", town, mine=False),
    )
    c = login("owner")
    body = c.get("/search/?q=100-0").content.decode()
    assert "100-01 Main St" in body and mine.number in body
    assert "100-02 Main St" not in body and theirs.number not in body
    for q in ("Otto", "OTHER-PLANT", theirs.number):
        r = c.get("/search/", {"q": q})
        assert r.status_code == 200
        page = r.content.decode()
        assert "Otto Plating" not in page and "Otto Other" not in page
        assert f"/permits/building-sewer/{theirs.pk}/" not in page
        assert 'id="no-results"' in page
    assert "Olive&#x27;s Diner" in c.get("/search/?q=diner").content.decode()


def test_bulk_acknowledge_is_for_officers(town: Town, login: Any) -> None:
    fac = facilities(town)
    f = _finding(fac.mine)
    for username in ("inspector", "clerk", "highway", "viewer", "owner", "other", "norole"):
        r = login(username).post("/monitoring/findings/acknowledge/", {"finding": [f.pk]})
        assert r.status_code == 403, username
    assert (
        login(None).post("/monitoring/findings/acknowledge/", {"finding": [f.pk]}).status_code
        == 302
    )
    f.refresh_from_db()
    assert f.review == ReviewState.NEW
    for username in ("superintendent", "engineer"):
        g = _finding(fac.theirs)
        r = login(username).post("/monitoring/findings/acknowledge/", {"finding": [g.pk]})
        assert r.status_code == 302
        g.refresh_from_db()
        assert g.review == ReviewState.ACKNOWLEDGED and g.reviewed_by == town.u(username)


@pytest.mark.parametrize("username", [*STAFF, "owner"])
def test_api_reference_in_redoc_from_our_static_files(
    town: Town, login: Any, username: str
) -> None:
    r = login(username).get("/api/docs/redoc/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/" in page and "/api/schema/" in page
    assert "https://" not in page  # nothing fetched from a CDN or a font service
    docs = login(username).get("/api/docs/").content.decode()
    assert 'nav class="toc"' in docs and "/api/docs/redoc/" in docs


def test_api_reference_refused_without_sign_in_or_role(town: Town, login: Any) -> None:
    assert login(None).get("/api/docs/redoc/").status_code == 302
    assert login("norole").get("/api/docs/redoc/").status_code == 403
