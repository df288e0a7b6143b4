"""The invoice (or credit note) as a PDF, with each line's citation and computation.

:func:`invoice_lines` decides what the document says (tests read it without a PDF extractor);
:func:`invoice_pdf` typesets it with fpdf2 like the letters (enforcement, inspections). Every
word comes from the stored invoice and its lines, so a copy printed later says what was issued.
"""

from __future__ import annotations

from fpdf import FPDF

from sewer_office.inspections.report import _latin

from .models import Invoice
from .rules import params

Line = tuple[str, str]
STYLES: dict[str, tuple[str, float]] = {
    "title": ("B", 15),
    "heading": ("B", 12),
    "text": ("", 10.5),
    "small": ("", 8.5),
    "gap": ("", 4),
}


def invoice_lines(invoice: Invoice) -> list[Line]:
    kind = invoice.get_kind_display()
    lines: list[Line] = [
        ("title", params().name),
        ("text", "Office of the Superintendent of the Sewer Districts — Town Clerk"),
        ("gap", ""),
        ("heading", f"{kind} {invoice.number}"),
        ("text", f"Date of issue: {invoice.issued_on:%B %d, %Y}"),
    ]
    if invoice.due_on is not None:
        basis = invoice.due_basis or {}
        lines.append(
            (
                "text",
                f"Due: {invoice.due_on:%B %d, %Y} ({basis.get('name', '')} = "
                f"{basis.get('value', '')} days, {basis.get('authority', '')})",
            )
        )
    if invoice.credits is not None:
        lines.append(("text", f"Credits invoice {invoice.credits.number}: {invoice.reason}"))
    if invoice.state == "void":
        lines.append(("heading", f"VOID — {invoice.void_reason}"))
    lines += [("gap", ""), ("text", f"Billed to: {invoice.person.name}")]
    if invoice.establishment is not None:
        lines.append(("text", f"Facility: {invoice.establishment.name}"))
    lines.append(("gap", ""))
    for ln in invoice.lines.all():
        lines.append(("heading", f"{ln.position}. {ln.description} — USD {ln.amount:,}"))
        if ln.citation:
            lines.append(("small", f"Town Code {ln.citation}"))
        comp = ln.computation or {}
        for p in comp.get("parameters", []):
            lines.append(
                (
                    "small",
                    f"{p.get('name')} = {p.get('value')} {p.get('unit', '')} since "
                    f"{p.get('effective')} ({p.get('authority') or 'no authority recorded'})",
                )
            )
        for step in comp.get("steps", []):
            lines.append(("small", f"- {step}"))
    lines += [("gap", ""), ("heading", f"Total: USD {invoice.total:,}")]
    return lines


def invoice_pdf(invoice: Invoice) -> bytes:
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(invoice.issued_at)
    pdf.set_title(f"{invoice.get_kind_display()} {invoice.number}")
    pdf.add_page()
    pdf.set_margins(22, 20, 22)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for style, text in invoice_lines(invoice):
        font_style, size = STYLES[style]
        if style == "gap":
            pdf.ln(size)
            continue
        pdf.set_font("Helvetica", font_style, size)
        pdf.multi_cell(width, 5, _latin(text), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
    return bytes(pdf.output())
