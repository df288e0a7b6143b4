"""The notice of violation (or order) as a PDF letter, rendered from the stored notice.

:func:`notice_lines` decides what the letter says (tests read it without a PDF extractor);
:func:`notice_pdf` typesets it with fpdf2 like the approval letters and the inspection
report. Everything comes from the stored notice — the nature, the section, the period, the
deadline computed at service and the daily amount in force on the day of issue — so a letter
printed years later says what was served.
"""

from __future__ import annotations

from fpdf import FPDF

from sewer_office.inspections.report import _latin, _who

from . import rules
from .models import Notice

Line = tuple[str, str]


def _as_cited(text: str) -> str:
    """A citation as the letter writes it: the article's as "Town Code § …", a federal
    requirement (40 CFR …) as it stands — it is not part of the Town Code."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    return "; ".join(f"Town Code {p}" if p.startswith("§") else p for p in parts)


def notice_lines(notice: Notice) -> list[Line]:
    v = notice.violation
    lines: list[Line] = [
        ("title", rules.params().name),
        ("text", "Office of the Superintendent of the Sewer Districts"),
        ("gap", ""),
        ("text", f"Date of issue: {notice.issued_on:%B %d, %Y}"),
        ("text", f"Reference: {notice.number} (violation {v.number})"),
        ("gap", ""),
        ("text", v.person.name),
    ]
    if v.establishment is not None:
        est = v.establishment
        lines.append(("text", f"{est.name}, {est.building.property.address}"))
    elif v.property is not None:
        lines.append(("text", v.property.address))
    lines += [
        ("gap", ""),
        ("heading", f"{notice.response_label} ({_as_cited(notice.citation)})"),
    ]
    if notice.supersedes is not None:
        lines.append(
            (
                "text",
                f"This notice supersedes {notice.supersedes.number} of "
                f"{notice.supersedes.issued_on:%B %d, %Y}: {notice.supersede_reason}",
            )
        )
    lines += [
        (
            "text",
            "Notice is hereby given under Town Code § 196-22 A that you are found to be "
            f"violating {_as_cited(notice.section)}.",
        ),
        ("text", f"Nature of the violation: {notice.nature}"),
    ]
    if notice.correction_clock and notice.period_days:
        lines.append(
            (
                "text",
                f"You shall, within {notice.period_days} days of the service of this notice, "
                "satisfactorily correct the violation and permanently cease it (§ 196-22 A). The "
                "period is counted from the day after service; a last day falling on a "
                "Saturday, Sunday or New York public holiday moves to the next business day "
                "(N.Y. General Construction Law §§ 24, 25-a).",
            )
        )
        if notice.served_on and notice.deadline:
            lines.append(
                (
                    "text",
                    f"Service: {_service(notice)}. Deadline: end of "
                    f"{notice.deadline:%A, %B %d, %Y}.",
                )
            )
        elif notice.awaiting_delivery:
            lines.append(
                (
                    "text",
                    f"Service: {_service(notice)}. The period runs from the day of delivery "
                    "shown by the return receipt.",
                )
            )
        else:
            lines.append(("text", "Deadline: the period runs from the day of service."))
    if notice.daily_amount is not None:
        amount = (
            f"USD {notice.daily_amount:,} per day for each violation (Town Code "
            f"§ 122-20 Y; {notice.daily_amount_authority}, in force since "
            f"{notice.daily_amount_effective:%B %d, %Y})"
        )
    else:
        amount = "the amount set in Town Code § 122-20 Y per day for each violation"
    lines += [
        (
            "text",
            "Any person who continues a violation beyond that time is guilty of a violation "
            f"and, on conviction, shall be fined {amount}; fines continue until the violation "
            "is corrected to the satisfaction of the Superintendent (§ 196-22 B).",
        ),
        (
            "text",
            "Any person violating the article is also liable to the Town for any expense, loss "
            "or damage occasioned by the violation (§ 196-22 C).",
        ),
        (
            "text",
            "Report the correction to the office; it is verified by the Superintendent or "
            "an authorized inspector (§ 196-21 A).",
        ),
        ("gap", ""),
        ("text", _who(notice.issued_by)),
        ("text", "Superintendent"),
    ]
    return lines


def _service(notice: Notice) -> str:
    """How the notice was served, in the letter's words (dates written out)."""
    receipt = f" no. {notice.receipt_number}" if notice.receipt_number else ""
    if notice.mailed_on is not None:
        mailed = f"mailed by certified mail{receipt} on {notice.mailed_on:%B %d, %Y}"
        if notice.served_on is None:
            return f"{mailed}, not yet delivered"
        proof = notice.get_delivery_proof_display().lower() or "the carrier's record"
        return f"{mailed}; delivered on {notice.served_on:%B %d, %Y} per {proof}"
    assert notice.served_on is not None
    if notice.service_method == "personal":
        return f"served by personal delivery on {notice.served_on:%B %d, %Y}"
    if notice.service_method == "email":
        return (
            f"served by e-mail on {notice.served_on:%B %d, %Y}, with your written agreement "
            "to e-mail service"
        )
    return (
        f"served on {notice.served_on:%B %d, %Y} ({notice.get_service_method_display()}{receipt})"
    )


STYLES = {"title": ("B", 13), "heading": ("B", 11), "text": ("", 10.5), "gap": ("", 4)}


def notice_pdf(notice: Notice) -> bytes:
    """The written notice of § 196-22 A as a PDF letter (the lines of :func:`notice_lines`)."""
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(notice.issued_at)
    pdf.set_title(f"{notice.number} {notice.response_label}")
    pdf.add_page()
    pdf.set_margins(22, 20, 22)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    for style, text in notice_lines(notice):
        font_style, size = STYLES[style]
        if style == "gap":
            pdf.ln(size)
            continue
        pdf.set_font("Helvetica", font_style, size)
        pdf.multi_cell(width, 5.5, _latin(text), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1.5)
    return bytes(pdf.output())
