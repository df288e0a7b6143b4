"""The engineer's written approval of an industrial or cooling water discharge, as a PDF.

§ 196-16 E requires "written approval by the engineer" of new industrial discharges and
§ 196-16 F "specific written approval" of cooling water: the letter states the decision, the
declared discharge, each condition with the subsection that authorises it, and that nothing
in it waives the National Categorical Pretreatment Standards (§ 196-19 J, K). It is rendered
from the stored decision, so the same record always yields the same letter. When the
Superintendent approved the wastes on conditions (§ 196-19 E(1) gives him that power), the
letter is his and says so.
"""

from __future__ import annotations

from typing import Any

from fpdf import FPDF

from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role

from . import rules


def _latin(text: str) -> str:
    """The core PDF fonts are Latin-1: write the section sign, degrees and dashes safely."""
    return (
        text.replace("—", "-")
        .replace("–", "-")
        .replace("’", "'")
        .replace("“", '"')
        .replace("”", '"')
        .replace("≈", "~")
        .encode("latin-1", "replace")
        .decode("latin-1")
    )


def approval_letter_pdf(approval: Any) -> bytes:
    pdf = FPDF(format="Letter")
    pdf.set_creation_date(approval.created_at)
    pdf.set_title(f"{approval.number} approval")
    pdf.add_page()
    pdf.set_margins(22, 20, 22)
    width = pdf.w - pdf.l_margin - pdf.r_margin

    def para(text: str, size: int = 11, style: str = "", gap: float = 2) -> None:
        pdf.set_font("Helvetica", style, size)
        pdf.multi_cell(width, 5.5, _latin(text), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(gap)

    params = rules.params()
    signer, office = _signer(approval)
    para(params.name, 13, "B", 0)
    para(
        f"Office of the {signer} "
        + ("to the Sewer Districts" if signer == "Engineer" else "(§ 196-19 E(1))"),
        10,
        "",
        6,
    )
    para(f"Date: {approval.decided_on:%B %d, %Y}", 10, "", 0)
    para(f"Reference: {approval.number}", 10, "", 6)
    para(approval.applicant.name, 11, "", 0)
    para(f"{approval.establishment.name}, {approval.property.address}", 11, "", 6)
    cooling = approval.discharge_kind == "cooling_water"
    title = (
        "Written approval of a discharge of industrial cooling water (Town Code § 196-16 F)"
        if cooling
        else "Written approval of a discharge of industrial waste (Town Code § 196-16 D, E)"
    )
    para(title, 12, "B", 4)
    declared = [f"kind: {approval.get_discharge_kind_display()}"]
    if approval.flow_gpd is not None:
        declared.append(f"flow {approval.flow_gpd} gallons per day")
    if approval.temperature_f is not None:
        declared.append(f"temperature {approval.temperature_f} °F")
    declared += [f"{k} {v}" for k, v in sorted(approval.concentrations.items())]
    para(
        f"Having reviewed the request filed on {approval.filed_on:%B %d, %Y} and the declared "
        f"characteristics of the discharge ({'; '.join(declared)}), the {signer.lower()} "
        + (
            "approves the discharge subject to the conditions below."
            if approval.conditions.exists()
            else "approves the discharge."
        )
    )
    conditions = list(approval.conditions.all())
    if conditions:
        para("Conditions", 11, "B", 1)
        for i, c in enumerate(conditions, start=1):
            para(f"{i}. {c.get_kind_display()} ({c.citation}): {c.text}")
    if approval.expires_on is not None:
        para(
            f"This approval is issued for a term of {approval.term_years} year(s) and is in force "
            f"through {approval.expires_on:%B %d, %Y} (40 CFR 403.8(f)(1)(iii)). Apply for its "
            "renewal before that day: a discharge after it without an approval in force is a "
            "violation of § 196-16 E."
        )
    findings = (approval.evaluation or {}).get("findings") or []
    if findings:
        para("Determinations on the declared characteristics", 11, "B", 1)
        for f in findings:
            para(f"- {f['parameter']}: {f['status']} ({f['citation']}) - {f['message']}", 9)
    para(
        "This approval does not circumvent or waive any National Categorical Pretreatment "
        "Standard (§ 196-19 J, K), nor the requirements of the health officials and the New York "
        "State Department of Environmental Conservation (§ 196-16 I). Any change in the quantity, "
        "temperature or chemical characteristics of the discharge requires a new written "
        "approval (§ 196-16 E).",
        10,
    )
    para(f"Determinations computed under parameters {params.version}.", 8, "I", 6)
    decided_by = approval.decided_by.get_full_name() if approval.decided_by else ""
    para(f"{decided_by or 'The ' + signer}", 11, "", 0)
    para(office, 10)
    return bytes(pdf.output())


def _signer(approval: Any) -> tuple[str, str]:
    """Who decided and signs: the engineer (§ 196-16 E), or the Superintendent who approved the
    wastes on conditions or rejected them (§ 196-19 E(1): "the Superintendent may ...")."""
    user = approval.decided_by
    if user is not None and has_role(user, SUPERINTENDENT) and not has_role(user, ENGINEER):
        return "Superintendent", "Superintendent (§ 196-15 SUPERINTENDENT), Town of Wappinger"
    return "Engineer", "Engineer to the Sewer Districts, Town of Wappinger"
