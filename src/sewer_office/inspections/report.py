"""The printable inspection report (PDF), rendered from the stored inspection.

:func:`report_lines` decides what the report says (so tests can read it without a PDF text
extractor); :func:`report_pdf` only typesets those lines. Both read stored answers (question
and citation as asked), so a report printed years later says what the inspector recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils import timezone
from fpdf import FPDF

from sewer_office.findings.services import findings_of
from sewer_office.permits import rules

from .models import Inspection
from .services import photos_of

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser


def _latin(text: str) -> str:
    """The core PDF fonts are Latin-1 (as in the approval letters): replace what they lack."""
    for a, b in (("—", "-"), ("–", "-"), ("’", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(a, b)
    return text.encode("latin-1", "replace").decode("latin-1")


#: (style, text): "title", "heading", "text", "small".
Line = tuple[str, str]


def _who(user: AbstractUser | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _when(value: Any) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else "-"


def report_lines(inspection: Inspection) -> list[Line]:
    """Everything the report says, in order."""
    i = inspection
    lines: list[Line] = [
        ("title", rules.params().name),
        ("text", "Sewer-use inspection report (Town Code ch. 196, art. VII, § 196-21)"),
        ("heading", f"{i.number}: {i.get_kind_display()} inspection"),
        ("text", f"State: {i.get_state_display()}"),
        (
            "text",
            f"{'Unscheduled visit' if i.unscheduled else 'Scheduled for ' + _when(i.scheduled_for)}",
        ),
    ]
    if i.establishment is not None:
        est = i.establishment
        code = f" ({est.code})" if est.code else ""
        lines.append(("text", f"Facility: {est.name}{code}, operated by {est.operator.name}"))
        lines.append(("text", f"Premises: {est.building.property.address}"))
    if i.property is not None:
        lines.append(("text", f"Property: {i.property.address}, owner {i.property.owner.name}"))
    if i.location:
        lines.append(("text", f"Location: {i.location}"))
    if i.on_easement:
        lines.append(("text", "Works on a Town easement (§ 196-21 B)"))
    lines += [
        ("text", f"Inspector: {_who(i.inspector)}"),
        (
            "text",
            f"Credentials presented ({i.entry_citation}): "
            + (f"yes, {i.credential}" if i.credentials_presented else "not recorded"),
        ),
        ("text", f"Started: {_when(i.started_at)}   Ended: {_when(i.ended_at)}"),
    ]
    lines += [
        (
            "text",
            f"With: {a.name}, {a.get_agency_display()}, credential {a.credential} (§ 196-21 A)",
        )
        for a in i.agency_inspectors.all()
    ]
    lines += [
        (
            "text",
            f"Entry refused ({r.citation}) by {r.refused_by} at {_when(r.refused_at)}: asked "
            f"{r.asked}; credentials shown: {r.credentials_shown}",
        )
        for r in i.refusals.all()
    ]
    if i.notes:
        lines.append(("text", f"Purpose: {i.notes}"))
    if i.state == "cancelled":
        lines.append(("text", f"Cancelled: {i.cancel_reason}"))
    answers = list(i.answers.all())
    if answers:
        lines.append(("heading", "Checklist"))
        for a in answers:
            note = f" - {a.note}" if a.note else ""
            lines.append(("text", f"[{a.get_result_display()}] {a.question} ({a.citation}){note}"))
    lines.append(("heading", "Observations"))
    lines.append(("text", i.observations or "None recorded."))
    samples = [str(s) for s in i.samples.all()] + [
        s.strip() for s in i.samples_text.splitlines() if s.strip()
    ]
    lines.append(("heading", "Samples taken"))
    lines += [("text", f"- {s}") for s in samples] or [("text", "None.")]
    findings = list(findings_of(i).order_by("id"))
    lines.append(("heading", "Findings"))
    lines += [("text", f"- {f.status} ({f.citation}): {f.message}") for f in findings] or [
        ("text", "No findings.")
    ]
    photos = list(photos_of(i))
    lines.append(("heading", "Photographs"))
    lines += [("text", f"- {p.title} ({p.filename}, sha256 {p.sha256[:12]})") for p in photos] or [
        ("text", "None.")
    ]
    addenda = list(i.addenda.select_related("by"))
    if addenda:
        lines.append(("heading", "Addenda"))
        lines += [("text", f"{_when(a.at)} {_who(a.by)}: {a.text}") for a in addenda]
    lines.append(
        (
            "small",
            "Each failed item is recorded as a finding citing its section. This report is not "
            "a notice of violation: if the Town opens a violation from a finding, it serves "
            "a written notice stating its nature and the period for its correction, at least "
            "10 days counted from service (§ 196-22 A).",
        )
    )
    return lines


STYLES = {"title": ("B", 13), "heading": ("B", 11), "text": ("", 10), "small": ("I", 8)}


def report_pdf(inspection: Inspection) -> bytes:
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(inspection.completed_at or inspection.created_at)
    pdf.set_title(f"{inspection.number} inspection report")
    pdf.add_page()
    pdf.set_margins(20, 18, 20)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for style, text in report_lines(inspection):
        font_style, size = STYLES[style]
        if style == "heading":
            pdf.ln(3)
        pdf.set_font("Helvetica", font_style, size)
        pdf.multi_cell(width, 5.2, _latin(text), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
