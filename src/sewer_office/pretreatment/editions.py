"""Preparing the annual pretreatment report (40 CFR 403.12(i)) and keeping it as prepared.

Gathering the report reads every industrial user's year and counts the fine of every violation
with a served notice (:mod:`.annual`): seconds for a county of 2,000 users, too slow for a page
and pointless to repeat for every reader. So the coordinator (or, in an office of one town, the
Superintendent or the engineer) prepares it: :func:`prepare` gathers it once and keeps the
figures the page shows, the CSV and the PDF in an :class:`~.models.AnnualReportEdition`, with an
audit event. The year's page, CSV and PDF are served from its latest edition ever after; before
the first, the page shows a draft gathered from the records as they stand. The ICIS-NPDES XML
is built when it is downloaded, from the records, for the account that sends it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent

from . import icis, reports
from .models import AnnualReportEdition
from .services import DECIDERS

CITATION = "40 CFR 403.12(i)"
PREPARED = "prepare_annual_report"
#: The years an edition may be prepared for: the plant's records begin no earlier.
FIRST_YEAR = 1978


def may_prepare(user: Actor) -> bool:
    return has_role(user, *DECIDERS)


def latest(year: int) -> AnnualReportEdition | None:
    """The year's latest edition, or None before the first (one indexed row; its files are
    read only when downloaded, :func:`latest_file`)."""
    return (
        AnnualReportEdition.objects.filter(year=year)
        .defer("csv", "pdf")
        .select_related("prepared_by")
        .first()
    )


def latest_file(year: int, name: str) -> bytes | None:
    """The ``csv`` or ``pdf`` of the year's latest edition as prepared, None before the first."""
    stored = AnnualReportEdition.objects.filter(year=year).values_list(name, flat=True).first()
    return None if stored is None else bytes(stored)


def changed_since(edition: AnnualReportEdition) -> bool:
    """Whether anything was recorded after the edition was prepared (an audit event after its
    mark, preparing an edition aside: that changes no record): the reader is told, and may
    prepare it again."""
    # the newest event but an edition's, read backwards along the primary key (a few rows),
    # where "any event after the mark" made PostgreSQL scan the whole log to find none
    newest = (
        AuditEvent.objects.exclude(action=PREPARED)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return newest is not None and newest > edition.audit_mark


@dataclass(frozen=True)
class Shown:
    """What the year's page shows: the edition's figures, or a draft's gathered now."""

    totals: list[tuple[str, str]]
    added: list[str]
    header: list[str]
    rows: list[list[str]]
    icis_missing: list[str]


def shown(report: reports.AnnualReport) -> Shown:
    """The page's figures of a gathered report, as text (what an edition keeps)."""
    return Shown(
        totals=[(k, str(v)) for k, v in report.totals.items()],
        added=list(report.added),
        header=list(reports.ANNUAL_HEADER),
        rows=[[str(c) for c in row] for row in reports.annual_rows(report)],
        icis_missing=icis.missing(report),
    )


def shown_of(edition: AnnualReportEdition) -> Shown:
    f = edition.figures
    return Shown(
        totals=[(str(k), str(v)) for k, v in f["totals"]],
        added=list(f["added"]),
        header=list(f["header"]),
        rows=[list(r) for r in f["rows"]],
        icis_missing=list(f["icis_missing"]),
    )


def prepare(year: int, actor: Actor, *, at: datetime | None = None) -> AnnualReportEdition:
    """Gather the year's report and keep it as prepared: its figures, CSV and PDF, with an
    audit event citing 40 CFR 403.12(i). A year not yet ended is refused: the report covers a
    whole year."""
    if not may_prepare(actor):
        raise Forbidden(
            "Preparing the annual pretreatment report: reserved to the Control Authority "
            "(the coordinator, the Superintendent, the engineer)."
        )
    today = timezone.localdate(at)
    if not FIRST_YEAR <= year < today.year:
        raise InvalidInput(
            {"year": [f"{year}: the report covers a year that has ended (before {today.year})."]}
        )
    report = reports.annual_report(year)
    figures = shown(report)
    pdf = reports.annual_pdf_of(report)
    with transaction.atomic():
        edition = AnnualReportEdition(
            year=year,
            first=date(year, 1, 1),
            last=date(year, 12, 31),
            figures={
                "totals": figures.totals,
                "added": figures.added,
                "header": figures.header,
                "rows": figures.rows,
                "icis_missing": figures.icis_missing,
            },
            csv=reports.annual_csv_of(report),
            pdf=pdf,
            sha256=hashlib.sha256(pdf).hexdigest(),
            audit_mark=0,
            prepared_by=signed_in(actor),
            prepared_at=at or timezone.now(),
        )
        edition.audit_mark = (
            AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        )
        edition.save()
        audit.record(
            actor=actor,
            action=PREPARED,
            obj=edition,
            after={"year": year, "users": len(report.facilities), "sha256": edition.sha256},
            citation=CITATION,
            at=at,
        )
    return edition
