"""The inspection report, on the letters engine (:mod:`sewer_office.core.letters`, kind
``inspections.report``), rendered from the stored inspection.

The merge values read stored answers (question and citation as asked), so a report printed
years later says what the inspector recorded. What § 196-21 makes the report show (the
credentials presented, a refusal of entry, the checklist with its citations, the findings, and
that the report is not the notice of § 196-22 A) is in required fields.

A completed inspection's report is a document of record: issued (kept as bytes) when the
inspection is completed (:func:`issue_report`, called by the service) and served from storage
after; addenda made later are their own records, on the inspection's page. A scheduled or
cancelled inspection's report is rendered as it stands (:func:`report_pdf`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import letters
from sewer_office.core.letter_pdf import Block
from sewer_office.core.letters import LetterKind, lines, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.core.statuses import status_label
from sewer_office.findings.services import findings_of

from .choices import InspectionState
from .models import Inspection

REPORT = "inspections.report"

DEFAULT_BODY = """\
## {{ title }}
# {{ heading }}
{{ particulars }}

{{ inspector }}
{{ credentials }}
{{ times }}
{{ entry }}
{{ purpose }}

{{ checklist }}

# Observations
{{ observations }}

# Samples taken
{{ samples }}

# Findings
{{ findings }}

# Photographs
{{ photographs }}

{{ addenda }}

~ {{ not_a_notice }}
"""

FIELDS = {
    "title": "What the report is and the section of law (§ 196-21)",
    "heading": "The inspection's number and kind",
    "particulars": "State, date, facility or property and location (several lines)",
    "inspector": "Who inspected",
    "credentials": "The credentials presented on entry (§ 196-21 A, B)",
    "times": "When the inspection started and ended",
    "entry": "The agencies' inspectors present and any refusal of entry (§ 196-21 A)",
    "purpose": "The purpose recorded, or why it was cancelled",
    "checklist": "Each question asked, its answer and citation (a heading and lines)",
    "observations": "The inspector's observations",
    "samples": "The samples taken (lines)",
    "findings": "The findings recorded, each with its citation (lines)",
    "photographs": "The photographs with their SHA-256 (lines)",
    "addenda": "Addenda recorded so far (a heading and lines)",
    "not_a_notice": "That the report is not the written notice of § 196-22 A",
}
REQUIRED = (
    "title",
    "heading",
    "inspector",
    "credentials",
    "entry",
    "checklist",
    "observations",
    "findings",
    "not_a_notice",
)


def when(value: datetime | None) -> str:
    """A moment written out in town time ("March 4, 2026 at 10:15"); "-" if none."""
    if value is None:
        return "-"
    local = timezone.localtime(value)
    return f"{long_date(local)} at {local:%H:%M}"


def context(inspection: Inspection) -> Mapping[str, str]:
    i = inspection
    particulars = [
        f"State: {i.get_state_display()}",
        "Unscheduled visit" if i.unscheduled else f"Scheduled for {when(i.scheduled_for)}",
    ]
    if i.establishment is not None:
        est = i.establishment
        code = f" ({est.code})" if est.code else ""
        particulars.append(f"Facility: {est.name}{code}, operated by {est.operator.name}")
        particulars.append(f"Premises: {est.building.property.address}")
    if i.property is not None:
        particulars.append(f"Property: {i.property.address}, owner {i.property.owner.name}")
    if i.location:
        particulars.append(f"Location: {i.location}")
    if i.on_easement:
        particulars.append("Works on a Town easement (§ 196-21 B)")
    entry = [
        f"With: {a.name}, {a.get_agency_display()}, credential {a.credential} (§ 196-21 A)"
        for a in i.agency_inspectors.all()
    ] + [
        f"Entry refused ({r.citation}) by {r.refused_by} on {when(r.refused_at)}: asked "
        f"{r.asked}; credentials shown: {r.credentials_shown}"
        for r in i.refusals.all()
    ]
    purpose = f"Purpose: {i.notes}" if i.notes else ""
    if i.state == InspectionState.CANCELLED:
        purpose = lines(purpose, f"Cancelled: {i.cancel_reason}")
    answers = list(i.answers.all())
    checklist = lines(
        "# Checklist" if answers else "",
        *(
            f"[{a.get_result_display()}] {a.question} ({a.citation})"
            + (f" - {a.note}" if a.note else "")
            for a in answers
        ),
    )
    samples = [str(s) for s in i.samples.all()] + [
        s.strip() for s in i.samples_text.splitlines() if s.strip()
    ]
    findings = list(findings_of(i).order_by("id"))
    photos = list(i.photos())
    addenda = list(i.addenda.select_related("by"))
    return {
        "title": "Sewer-use inspection report (Town Code ch. 196, art. VII, § 196-21)",
        "heading": f"{i.number}: {i.get_kind_display()} inspection",
        "particulars": lines(*particulars),
        "inspector": f"Inspector: {signer(i.inspector) or 'not recorded'}",
        "credentials": f"Credentials presented ({i.entry_citation}): "
        + (f"yes, {i.credential}" if i.credentials_presented else "not recorded"),
        "times": f"Started: {when(i.started_at)}; ended: {when(i.ended_at)}",
        "entry": lines(*entry),
        "purpose": purpose,
        "checklist": checklist,
        "observations": i.observations or "None recorded.",
        "samples": lines(*(f"- {s}" for s in samples)) or "None.",
        "findings": lines(
            *(f"- {status_label(f.status)} ({f.citation}): {f.message}" for f in findings)
        )
        or "No findings.",
        "photographs": lines(
            *(f"- {p.title} ({p.filename}, SHA-256 {p.sha256[:12]})" for p in photos)
        )
        or "None.",
        "addenda": lines(
            "# Addenda" if addenda else "",
            *(f"{when(a.at)}, {signer(a.by)}: {a.text}" for a in addenda),
        ),
        "not_a_notice": (
            "Each failed item is recorded as a finding citing its section. This report is not "
            "a notice of violation: if the Town opens a violation from a finding, it serves a "
            "written notice stating its nature and the period for its correction, at least 10 "
            "days counted from service (§ 196-22 A)."
        ),
    }


def _records() -> QuerySet[Any]:
    return Inspection.objects.select_related("establishment", "property", "inspector").order_by(
        "-completed_at", "-id"
    )


def _created(inspection: Inspection) -> datetime:
    return inspection.completed_at or inspection.created_at


KIND = letters.register(
    LetterKind(
        key=REPORT,
        name="Inspection report",
        fields=FIELDS,
        required=REQUIRED,
        default_body=DEFAULT_BODY,
        context=context,
        records=_records,
        title=lambda i: f"{i.number} inspection report",
        filename=lambda i: f"{i.number}-report.pdf",
        created=_created,
    )
)


def report_lines(inspection: Inspection) -> list[Block]:
    """Everything the report says, in order, as the current template composes it."""
    return letters.compose(REPORT, inspection)


def report_pdf(inspection: Inspection) -> bytes:
    """The report as the templates stand now (a scheduled or cancelled inspection's)."""
    return letters.render(REPORT, inspection)


def issue_report(
    inspection: Inspection, actor: Actor, at: datetime | None = None
) -> IssuedDocument:
    """Keep the completed inspection's report as issued (called at completion)."""
    return letters.issue(REPORT, inspection, actor=actor, at=at)


def report_document(inspection: Inspection, actor: Actor) -> bytes | IssuedDocument:
    """What the report's download serves: the report of record of a completed inspection (one
    completed before documents were kept is issued on this first request), else the report as
    it stands."""
    if inspection.state == InspectionState.COMPLETED:
        return letters.issued_or_issue(REPORT, inspection, actor=actor)
    return report_pdf(inspection)


def report_response(inspection: Inspection, actor: Actor) -> HttpResponse:
    """The download's response (inline PDF)."""
    doc = report_document(inspection, actor)
    if isinstance(doc, IssuedDocument):
        return letters.pdf_response(doc)
    return letters.bytes_response(doc, f"{inspection.number}-report.pdf")
