"""The referral to the Town Attorney (§ 196-22 B, D) or the police (§ 196-20): the fine
computation on the day of referral (:func:`~sewer_office.enforcement.liability.fines`), the
notices of record with their service, the Town's costs recorded (§ 196-22 C); its merge values
and template, registered with the letters engine when the app is ready."""

from __future__ import annotations

from collections.abc import Mapping

from sewer_office.core import letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.enforcement import liability
from sewer_office.enforcement.letters import (
    CERTIFICATE,
    REFERRAL,
    as_cited,
    lines,
    premises_property,
    subject,
    usd,
)
from sewer_office.enforcement.models import Referral, Violation
from sewer_office.enforcement.notice_letters import service_text
from sewer_office.registry.addresses import mailing_lines

# --- the referral -------------------------------------------------------------------------


def computation_text(referral: Referral) -> str:
    """The fine count of :func:`.liability.fines` on the day of referral, in words: the notice
    that started it, the days each later notice suspended, the days counted, each segment at
    the daily amount in force with its authority, the total (accrued, subject to conviction)."""
    v = referral.violation
    day = referral.referred_on
    f = liability.fines(v, day)
    heading = f"# Fine accrued as of {long_date(day)} (Town Code § 196-22 B)"
    c = f.computation
    if c is None or f.notice is None:
        return lines(heading, f.message)
    out = [
        heading,
        f"{f.notice.response_label} {f.notice.number} served on {long_date(c.served)}; "
        f"correction period {c.clock.period_days} days; deadline the end of "
        f"{long_date(c.deadline)}.",
    ]
    for later, span in c.suspensions:
        out.append(
            f"A later notice or order served on {long_date(later.served)} gave "
            f"{later.period_days} days: {long_date(span.first)} to {long_date(span.last)} "
            f"({span.days} days) are not counted."
        )
    if c.corrected is not None:
        out.append(
            f"The violation ceased on {long_date(c.corrected)}"
            + (f" (verified on {long_date(c.verified)})" if c.verified else "")
            + "."
        )
    else:
        out.append(f"Not corrected as of {long_date(day)}.")
    if c.spans:
        spans = " and ".join(
            f"{long_date(s.first)} to {long_date(s.last)} ({s.days} days)" for s in c.spans
        )
        out.append(f"Days of continuing violation counted: {spans}; {c.days} days in all.")
    else:
        out.append("No day of continuing violation is counted.")
    if c.segments:
        out.append("|| Period | Days counted | Daily amount | Authority | Amount")
        for s in c.segments:
            pv = s.daily_amount
            authority = f"Town Code § 122-20 Y; {pv.authority or 'not recorded'}, in force " + (
                f"since {long_date(pv.effective)}"
            )
            out.append(
                f"| {long_date(s.first_day)} to {long_date(s.last_day)} | {s.days} | "
                f"{usd(pv.value) if pv.value is not None else 'not configured'} | {authority} | "
                f"{usd(s.amount) if s.amount is not None else 'not configured'}"
            )
    if c.total is not None:
        out.append(
            f"Total: {usd(c.total)} for {c.days} days, accrued, subject to conviction "
            "(Town Code § 196-22 B)."
        )
    else:
        out.append(f.unconfigured or "The daily amount is not configured: no total is stated.")
    return lines(*out)


def notices_text(violation: Violation) -> str:
    """The notices and orders of record, each with its service and its certificate."""
    notices = list(violation.notices.order_by("issued_at", "id"))
    if not notices:
        return "No notice or order was issued on this violation."
    out = ["|| Notice | Issued | Service | Deadline"]
    for n in notices:
        deadline = long_date(n.deadline) if n.deadline else "none"
        superseded = " (superseded)" if hasattr(n, "superseded_by") else ""
        out.append(
            f"| {n.number} {n.response_label}{superseded} | {long_date(n.issued_on)} | "
            f"{service_text(n)} | {deadline}"
        )
    certified = [n for n in notices if letters.issued(CERTIFICATE, n) is not None]
    if certified:
        out.append(
            "Proof of service: the certificates of service of "
            + ", ".join(n.number for n in certified)
            + " are enclosed."
        )
    return lines(*out)


def costs_text(violation: Violation) -> str:
    costs = list(violation.costs.order_by("incurred_on", "id"))
    if not costs:
        return "No cost of the Town is recorded on this violation (Town Code § 196-22 C)."
    out = ["|| Incurred | Cost | Amount"]
    for cost in costs:
        hours = f", {cost.hours} hours" if cost.hours else ""
        out.append(
            f"| {long_date(cost.incurred_on)} | {cost.get_category_display()}: "
            f"{cost.description}{hours} | {usd(cost.amount)}"
        )
    out.append(
        f"The Town's expense, loss or damage recorded: {usd(liability.costs_total(violation))} "
        "(Town Code § 196-22 C)."
    )
    return lines(*out)


#: To whom each kind of referral goes when none is recorded, and what for.
REFERRED_TO = {
    "arrest": ("the police", "for immediate arrest"),
    "town_attorney": ("the Town Attorney", "for prosecution"),
    "injunction": ("the Town Attorney", "for an injunction in Supreme Court"),
}


def referral_context(referral: Referral) -> Mapping[str, str]:
    v = referral.violation
    default_to, purpose = REFERRED_TO.get(referral.kind, ("", ""))
    to = referral.referred_to or default_to
    return {
        "date": long_date(referral.referred_on),
        "reference": f"violation {v.number}",
        "referral": (
            f"The violation named below is referred to {to}, {purpose}, under "
            f"{as_cited(referral.citation)}, on {long_date(referral.referred_on)}."
        ),
        "violation": (
            f"{v.person.name}, responsible for {subject(v)}, found on "
            f"{long_date(v.observed_on)} to be violating {as_cited(v.section)}: {v.description}"
        ),
        "person": lines(*mailing_lines(v.person, premises_property(v))),
        "computation": computation_text(referral),
        "notices": notices_text(v),
        "costs": costs_text(v),
        "note": referral.note,
        "signature": lines(
            signer(referral.referred_by), "Office of the Superintendent of the Sewer Districts"
        ),
    }


REFERRAL_BODY = """{{ date }}
Reference: {{ reference }}

## Referral
{{ referral }}

# The violation
{{ violation }}
Person responsible:
{{ person }}

{{ computation }}

# Notices of record and proof of service
{{ notices }}

# The Town's costs
{{ costs }}
{% if note %}
Note: {{ note }}
{% endif %}
{{ signature }}
"""


REFERRAL_KIND = letters.register(
    LetterKind(
        key=REFERRAL,
        name="Referral (Town Attorney, police)",
        fields={
            "date": "the day of referral, written out",
            "reference": "the violation's number",
            "referral": "to whom, under which provision, on what day",
            "violation": "the violation: person, premises, section, description",
            "person": "the person responsible and its complete mailing address",
            "computation": "§ 196-22 B: the fine count (days, suspensions, daily amount, total)",
            "notices": "the notices of record with their service and deadlines",
            "costs": "§ 196-22 C: the Town's costs recorded",
            "note": "the note recorded with the referral",
            "signature": "who made the referral",
        },
        required=("referral", "violation", "computation", "notices", "costs"),
        default_body=REFERRAL_BODY,
        context=referral_context,
        records=lambda: Referral.objects.order_by("-referred_at", "-id"),
        title=lambda r: f"Referral of {r.violation.number}: {r.get_kind_display()}",
        filename=lambda r: f"referral-{r.violation.number}-{r.pk}.pdf",
        created=lambda r: r.referred_at,
    )
)
