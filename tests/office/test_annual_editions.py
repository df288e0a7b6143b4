"""The annual pretreatment report prepared and kept (40 CFR 403.12(i)): before the first
edition the page shows a draft of the records as they stand; preparing keeps its figures, CSV
and PDF with an audit event; the page, CSV and PDF are then the edition's, even after the
records change (the page says they changed), until it is prepared again — the earlier edition
stays as it was. Only the Control Authority prepares, and only a year that has ended."""

from __future__ import annotations

from datetime import date
from html import escape
from typing import Any

import pytest

from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.pretreatment import annual_views, editions, services
from sewer_office.pretreatment.models import AnnualReportEdition

from .factories import Town
from .monitoring_factories import Facilities, facilities
from .pretreatment_factories import at, sup

pytestmark = pytest.mark.django_db

YEAR = 2025


def _designated(town: Town, f: Facilities, mine: bool, on: str) -> None:
    services.designate(
        sup(town), f.mine if mine else f.theirs, basis="designated", reason="plating line",
        on=date.fromisoformat(on), at=at(on),
    )  # fmt: skip


def test_a_draft_until_prepared_then_the_edition_as_kept(town: Town, login: Any) -> None:
    f = facilities(town)
    _designated(town, f, True, "2025-03-03")
    c = login("superintendent")
    draft = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert 'id="edition-draft"' in draft and "Prepare the report" in draft
    r = c.post(f"/pretreatment/annual/{YEAR}/prepare/")
    assert r.status_code == 302
    edition = AnnualReportEdition.objects.get(year=YEAR)
    event = AuditEvent.objects.get(action="prepare_annual_report")
    assert (event.citation, event.after["year"]) == ("40 CFR 403.12(i)", YEAR)
    page = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert 'id="edition"' in page and 'id="edition-draft"' not in page
    assert 'id="edition-changed"' not in page and "Prepare again" in page
    names = [row[0] for row in edition.figures["rows"]]
    assert names and all(escape(n) in page for n in names)
    assert c.get(f"/pretreatment/annual/{YEAR}.pdf").content == bytes(edition.pdf)
    assert bytes(edition.pdf).startswith(b"%PDF")
    assert c.get(f"/pretreatment/annual/{YEAR}.csv").content == bytes(edition.csv)
    # a record changed after: the page keeps the edition and says the records changed
    _designated(town, f, False, "2025-06-02")
    page = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert 'id="edition-changed"' in page
    assert c.get(f"/pretreatment/annual/{YEAR}.csv").content == bytes(edition.csv)
    # prepared again: a new edition with the change, the first as it was
    assert c.post(f"/pretreatment/annual/{YEAR}/prepare/").status_code == 302
    first, second = AnnualReportEdition.objects.order_by("id")
    assert bytes(first.csv) == bytes(edition.csv) and bytes(second.csv) != bytes(first.csv)
    assert c.get(f"/pretreatment/annual/{YEAR}.csv").content == bytes(second.csv)
    assert 'id="edition-changed"' not in c.get(f"/pretreatment/annual/{YEAR}/").content.decode()


def test_only_a_year_that_has_ended_is_prepared(town: Town) -> None:
    with pytest.raises(InvalidInput, match="a year that has ended"):
        editions.prepare(2026, sup(town), at=at("2026-12-31", 23))
    edition = editions.prepare(2026, sup(town), at=at("2027-01-04"))
    assert (edition.first, edition.last) == (date(2026, 1, 1), date(2026, 12, 31))
    with pytest.raises(InvalidInput):
        editions.prepare(2030, sup(town), at=at("2027-01-04"))


def test_only_the_control_authority_prepares_and_an_edition_is_never_edited(
    town: Town, login: Any
) -> None:
    with pytest.raises(Forbidden):
        editions.prepare(YEAR, town.u("clerk"))
    body = login("clerk").get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert "Prepare the report" not in body  # the clerk reads the draft, cannot prepare it
    edition = editions.prepare(YEAR, town.u("engineer"))
    edition.figures = {}
    with pytest.raises(ImmutableRecord):
        edition.save()
    with pytest.raises(ImmutableRecord):
        AnnualReportEdition.objects.get(pk=edition.pk).delete()


def test_the_page_lists_the_users_a_hundred_at_a_time(
    town: Town, login: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A county's edition lists thousands of users: the page shows them a page at a time (the
    CSV and the PDF list them all)."""
    monkeypatch.setattr(annual_views, "USERS_SHOWN", 1)
    f = facilities(town)
    _designated(town, f, True, "2025-03-03")
    edition = editions.prepare(YEAR, sup(town))
    first, second = (row[0] for row in edition.figures["rows"][:2])
    c = login("viewer")
    one = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    two = c.get(f"/pretreatment/annual/{YEAR}/?page=2").content.decode()
    assert escape(first) in one and escape(second) not in one and "Page 1 of" in one
    assert escape(second) in two
