"""The engineer's written approval of an industrial or cooling water discharge, on the letters
engine (:mod:`sewer_office.core.letters`, kind ``permits.approval``).

§ 196-16 E requires "written approval by the engineer" of new industrial discharges and
§ 196-16 F "specific written approval" of cooling water: the letter states the decision, the
declared discharge, each condition with the subsection that authorises it, its term, and that
nothing in it waives the National Categorical Pretreatment Standards (§ 196-19 J, K). Those are
required merge fields: the office rewords the letter, not what the law makes it say. When the
Superintendent approved the wastes on conditions (§ 196-19 E(1) gives him that power), the
letter is his and says so.

The letter is a document of record: issued (kept as bytes) when the approval is decided
(:func:`issue_approval`, called by the workflow's effect), and served from storage after.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, time
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import letters, reading
from sewer_office.core.letters import LetterKind, lines, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.core.statuses import status_label
from sewer_office.core.town_law import town_of
from sewer_office.registry.addresses import mailing_lines

from . import rules
from .control_mechanism import CITATION, Standing, elements_of
from .forms import DECLARED_ANALYTES
from .models import IndustrialDischargeApproval
from .models.industrial import DECISION_CONDITIONS

APPROVAL = "permits.approval"

DEFAULT_BODY = """\
{{ date }}
Reference: {{ reference }}

{{ recipient }}

## {{ title }}
Premises: {{ premises }}

{{ decision }}

{{ conditions }}

{{ term }}

{{ determinations }}

{{ no_waiver }}

{{ signed_by }}
{{ signer_office }}

~ {{ parameters }}
"""

FIELDS = {
    "date": "The day of the decision, written out",
    "reference": "The approval's number",
    "recipient": "The applicant's name and complete mailing address (several lines)",
    "premises": "The facility and its address",
    "title": "What is approved and the subsection (§ 196-16 E or F)",
    "decision": "The decision on the request and the declared discharge",
    "conditions": "Each condition with the subsection that authorises it, then the elements "
    "of the individual control mechanism (40 CFR 403.8(f)(1)(iii)(B)) in order, each with its "
    "citation, when any is recorded (headings, lines and a table)",
    "term": "The term of the approval and its last day (40 CFR 403.8(f)(1)(iii))",
    "determinations": "The determinations on the declared characteristics (a heading and lines)",
    "no_waiver": "That the approval waives no categorical standard (§ 196-19 J, K; § 196-16 I)",
    "signed_by": "The name of the engineer or Superintendent who decided",
    "signer_office": "Their office (Engineer to the Sewer Districts, or the Superintendent)",
    "parameters": "The version of the parameters the determinations were computed under",
}
REQUIRED = ("title", "decision", "conditions", "term", "no_waiver", "signed_by", "signer_office")


def _signer(approval: Any) -> tuple[str, str]:
    """Who decided and signs: the engineer (§ 196-16 E), or the Superintendent who approved the
    wastes on conditions or rejected them (§ 196-19 E(1): "the Superintendent may ...")."""
    user = approval.decided_by
    if user is not None and has_role(user, SUPERINTENDENT) and not has_role(user, ENGINEER):
        return "Superintendent", "Superintendent of the Sewer Districts (§ 196-15)"
    return "Engineer", "Engineer to the Sewer Districts"


def analyte_name(key: str) -> str:
    """An analyte as the approval form names it ("BOD, 5-day"), never its key."""
    label = dict(DECLARED_ANALYTES).get(key)
    return label.rsplit(" (", 1)[0] if label else key.replace("_", " ")


def _plain(value: Any) -> str:
    """A stored decimal without its trailing zeros ("85.00" -> "85")."""
    return f"{Decimal(value).normalize():,f}"


def _declared(approval: Any) -> str:
    parts = [approval.get_discharge_kind_display().lower()]
    if approval.flow_gpd is not None:
        parts.append(f"flow {_plain(approval.flow_gpd)} gallons per day")
    if approval.temperature_f is not None:
        parts.append(f"temperature {_plain(approval.temperature_f)} °F")
    for name, value in sorted(approval.concentrations.items()):
        unit = "SU" if name.lower() == "ph" else "mg/l"
        parts.append(f"{analyte_name(name)} {reading.measured(value)} {unit}")
    return "; ".join(parts)


def as_cited(citation: str) -> str:
    """The article's citations as "Town Code § …"; a federal one as it stands."""
    return f"Town Code {citation}" if citation.startswith("§") else citation


def _element_lines(standing: Standing) -> list[str]:
    """One element of the control mechanism as the letter states it."""
    e = standing.element
    head = f"({e.number}) {e.title} ({e.citation})"
    if e.number == 1:
        return [f"{head}: {standing.recorded[0]}." if standing.recorded else f"{head}: none."]
    stated = standing.recorded or standing.rows
    out = [f"{head}:" if stated else f"{head}: not stated in this approval."]
    if standing.rows:
        out.append("|| Pollutant | Sampling location | Sample type | Frequency")
        out.extend("| " + " | ".join(c.replace("|", "/") for c in cells) for cells in standing.rows)
    # one paragraph per term: a line of the Town's text is never read as the letter's markup
    out.extend(" ".join(text.split()) for text in standing.recorded)
    return out


def control_mechanism_lines(approval: Any) -> str:
    """The elements of the control mechanism (40 CFR 403.8(f)(1)(iii)(B)) in order, as
    recorded, when any of (2) to (6) is: the letter of an approval issued to a Significant
    Industrial User carries them all (the workflow refuses it otherwise)."""
    standings = elements_of(approval)
    if not any(s.recorded or s.rows for s in standings[1:]):
        return ""
    return lines(
        f"# Individual control mechanism ({CITATION})",
        *(line for s in standings for line in _element_lines(s)),
    )


def context(approval: Any) -> Mapping[str, str]:
    role, office = _signer(approval)
    cooling = approval.discharge_kind == "cooling_water"
    conditions = [c for c in approval.conditions.all() if c.kind in DECISION_CONDITIONS]
    mechanism = control_mechanism_lines(approval)
    decided = approval.decided_on
    findings = (approval.evaluation or {}).get("findings") or []
    values = rules.params(town_of(approval))  # the approval's town's, not the primary's
    term = ""
    if approval.expires_on is not None:
        term = (
            f"This approval is issued for a term of {approval.term_years} "
            f"year{'s' if approval.term_years != 1 else ''} and is in force through "
            f"{long_date(approval.expires_on)} (40 CFR 403.8(f)(1)(iii)). Apply for its renewal "
            "before that day: a discharge after it without an approval in force is a violation "
            "of § 196-16 E."
        )
    else:
        term = "This approval states no term."
    return {
        "date": long_date(decided),
        "reference": approval.number,
        "recipient": lines(*mailing_lines(approval.applicant, approval.property)),
        "premises": f"{approval.establishment.name}, {approval.property.address}",
        "title": (
            "Written approval of a discharge of industrial cooling water (Town Code § 196-16 F)"
            if cooling
            else "Written approval of a discharge of industrial waste (Town Code § 196-16 D, E)"
        ),
        "decision": (
            f"Having reviewed the request filed on {long_date(approval.filed_on)} and the "
            f"declared characteristics of the discharge ({_declared(approval)}), the "
            f"{role.lower()} approves the discharge"
            + (" subject to the conditions below." if conditions or mechanism else ".")
        ),
        "conditions": lines(
            "# Conditions" if conditions else "",
            *(
                f"{i}. {c.get_kind_display()} ({as_cited(c.citation)}): {c.text}"
                for i, c in enumerate(conditions, start=1)
            ),
            mechanism,
        )
        or "No conditions are attached.",
        "term": term,
        "determinations": lines(
            "# Determinations on the declared characteristics" if findings else "",
            *(
                f"~ {analyte_name(str(f['parameter']))}: {status_label(str(f['status'])).lower()} "
                f"(Town Code {f['citation']}). {reading.readable(f['message'])}"
                for f in findings
            ),
        ),
        "no_waiver": (
            "This approval does not circumvent or waive any National Categorical Pretreatment "
            "Standard (§ 196-19 J, K), nor the requirements of the health officials and the New "
            "York State Department of Environmental Conservation (§ 196-16 I). Any change in the "
            "quantity, temperature or chemical characteristics of the discharge requires a new "
            "written approval (§ 196-16 E)."
        ),
        "signed_by": signer(approval.decided_by) or f"The {role}",
        "signer_office": office,
        "parameters": f"Determinations computed under the parameters of {values.name}, "
        f"version {values.version}.",
    }


def _records() -> QuerySet[Any]:
    return (
        IndustrialDischargeApproval.objects.filter(
            state__in=("approved", "approved_with_conditions")
        )
        .select_related("applicant", "establishment", "property", "decided_by")
        .order_by("-decided_on", "-id")
    )


def _created(approval: Any) -> datetime:
    day = approval.decided_on or timezone.localdate(approval.created_at)
    return timezone.make_aware(datetime.combine(day, time(12)))


KIND = letters.register(
    LetterKind(
        key=APPROVAL,
        name="Written approval of a discharge",
        fields=FIELDS,
        required=REQUIRED,
        default_body=DEFAULT_BODY,
        context=context,
        records=_records,
        title=lambda a: f"{a.number} written approval",
        filename=lambda a: f"{a.number}-approval.pdf",
        created=_created,
    )
)


def issue_approval(approval: Any, actor: Actor, at: datetime | None = None) -> IssuedDocument:
    """Keep the approval letter as issued (called when the approval is decided)."""
    return letters.issue(APPROVAL, approval, actor=actor, at=at)


def approval_letter_pdf(approval: Any) -> bytes:
    """The approval letter as it stands with the current templates (not the document of record:
    see :func:`issue_approval`)."""
    return letters.render(APPROVAL, approval)
