"""The documents of enforcement, on the letters engine (:mod:`sewer_office.core.letters`).

Four kinds, each a template the office may reword and the merge values the software computes:

- ``enforcement.notice`` — the written notice of § 196-22 A ("Notice is hereby given"), for a
  notice whose response rests on § 196-22 A (a notice of violation, a second notice);
- ``enforcement.order`` — an order (an administrative order with its compliance schedule…):
  its own terms and the authority it rests on (the response's citation), and the schedule's
  dated milestones when a :class:`~.models.ComplianceSchedule` is imposed by it;
- ``enforcement.certificate`` — the certificate of service of a notice or order, made when
  service is complete (personal or e-mail service recorded, or a certified mail's delivery):
  who served, how, when, the receipt number, the proof of delivery, and the deadline with the
  rule that computed it;
- ``enforcement.referral`` — the referral to the Town Attorney (§ 196-22 B, D) or to the police
  (§ 196-20): the fine computation of :func:`.services.fines` on the day of referral, the
  notices of record with their service, and the Town's costs recorded (§ 196-22 C).

What the law requires each to say is in *required* merge fields (the engine refuses a template
without them). Everything comes from the stored records, in plain words: dates written out,
amounts to the cent. A notice's document is issued (kept as bytes) when the notice is issued,
an order's when it is served or a schedule is imposed by it, a certificate at service and a
referral when made (:func:`issue_notice`, :func:`issue_certificate`, :func:`issue_referral`,
called by the services).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.core import letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.core.models import IssuedDocument
from sewer_office.registry.addresses import mailing_lines

from . import services
from .choices import ServiceMethod
from .models import Notice, Referral, Violation

NOTICE = "enforcement.notice"
ORDER = "enforcement.order"
CERTIFICATE = "enforcement.certificate"
REFERRAL = "enforcement.referral"

#: The citation of the written notice: a response resting on it is a notice, any other an order.
NOTICE_CITATION = "§ 196-22 A"

CENT = Decimal("0.01")


# --- plain words --------------------------------------------------------------------------


def usd(amount: Decimal | int | str | None) -> str:
    """An amount as a letter writes it: "USD 1,234.50" (to the cent, half up)."""
    if amount is None:
        return "not configured"
    return f"USD {Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP):,}"


def as_cited(text: str) -> str:
    """A citation as the letter writes it: the article's as "Town Code § …", a federal
    requirement (40 CFR …) as it stands — it is not part of the Town Code."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    return "; ".join(f"Town Code {p}" if p.startswith("§") else p for p in parts)


def premises_property(violation: Violation) -> Any:
    """The property the violation concerns (the facility's premises, or the property)."""
    if violation.establishment is not None:
        return violation.establishment.building.property
    return violation.property


def _subject(violation: Violation) -> str:
    """The facility or property concerned, with its address."""
    prop = premises_property(violation)
    if violation.establishment is not None:
        return f"{violation.establishment.name}, {prop.address}"
    return prop.address if prop is not None else ""


def _lines(*lines: str) -> str:
    """Several lines as one merge value (each keeps its own markup prefix)."""
    return "\n".join(ln for ln in lines if ln is not None)


# --- which kind a notice is -------------------------------------------------------------------


def is_order(notice: Notice) -> bool:
    """Whether ``notice`` is an order (its response rests on another authority than the written
    notice of § 196-22 A)."""
    return notice.citation.strip() != NOTICE_CITATION


def kind_of(notice: Notice) -> str:
    return ORDER if is_order(notice) else NOTICE


# --- shared parts -----------------------------------------------------------------------------


def _header(notice: Notice) -> dict[str, str]:
    v = notice.violation
    return {
        "date": long_date(notice.issued_on),
        "reference": f"{notice.number} (violation {v.number})",
        "recipient": _lines(*mailing_lines(v.person, premises_property(v))),
        "premises": _subject(v),
        "section": as_cited(notice.section),
        "nature": notice.nature,
        "title": notice.response_label,
        "supersedes": (
            f"This {'order' if is_order(notice) else 'notice'} supersedes "
            f"{notice.supersedes.number} of {long_date(notice.supersedes.issued_on)}: "
            f"{notice.supersede_reason}"
            if notice.supersedes is not None
            else ""
        ),
        "signature": _lines(signer(notice.issued_by), "Superintendent of the Sewer Districts"),
    }


def _period_rule() -> str:
    return (
        "The period is counted from the day after service; a last day falling on a Saturday, "
        "Sunday or New York public holiday moves to the next business day (N.Y. General "
        "Construction Law §§ 24, 25-a)."
    )


def _fine_text(notice: Notice) -> str:
    """§ 196-22 B: the daily fine on conviction, with the amount in force on the day of issue."""
    if notice.daily_amount is not None:
        effective = long_date(notice.daily_amount_effective)
        authority = notice.daily_amount_authority or "Town Board resolution"
        amount = (
            f"{usd(notice.daily_amount)} per day for each violation (Town Code § 122-20 Y; "
            f"{authority}, in force since {effective})"
        )
    else:
        amount = "the amount set in Town Code § 122-20 Y per day for each violation"
    return (
        "Any person who continues a violation beyond that time is guilty of a violation and, "
        f"on conviction, shall be fined {amount}; fines continue until the violation is "
        "corrected to the satisfaction of the Superintendent (Town Code § 196-22 B)."
    )


COSTS_TEXT = (
    "Any person violating the article is also liable to the Town for any expense, loss or "
    "damage occasioned by the violation (Town Code § 196-22 C)."
)
CORRECTION_TEXT = (
    "Report the correction to the office; it is verified by the Superintendent or an "
    "authorized inspector (Town Code § 196-21 A)."
)


# --- the notice of violation (§ 196-22 A) ------------------------------------------------------


def notice_context(notice: Notice) -> Mapping[str, str]:
    """What the written notice of § 196-22 A says: the violation found, the period to correct
    it and how it is counted, the fine of § 196-22 B and the liability of § 196-22 C."""
    values = _header(notice)
    values["notice_text"] = (
        "Notice is hereby given under Town Code § 196-22 A that you are found to be violating "
        f"{as_cited(notice.section)}."
    )
    if notice.correction_clock and notice.period_days:
        values["period"] = (
            f"You shall, within {notice.period_days} days of the service of this notice, "
            "satisfactorily correct the violation and permanently cease it (Town Code "
            f"§ 196-22 A). {_period_rule()} The deadline is stated on the certificate of "
            "service."
        )
    else:
        values["period"] = "This notice states no correction period."
    values["fine"] = _fine_text(notice)
    values["costs"] = COSTS_TEXT
    values["correction"] = CORRECTION_TEXT
    return values


NOTICE_BODY = """{{ date }}
Reference: {{ reference }}

{{ recipient }}

## {{ title }}
{% if supersedes %}{{ supersedes }}
{% endif %}{{ notice_text }}
Premises: {{ premises }}
Nature of the violation: {{ nature }}

{{ period }}

{{ fine }}

{{ costs }}

{{ correction }}

{{ signature }}
"""

COMMON_FIELDS: dict[str, str] = {
    "date": "the day of issue, written out",
    "reference": "the notice's number and the violation's",
    "recipient": "the person responsible and its complete mailing address (several lines)",
    "premises": "the facility or property concerned, with its address",
    "section": "the provision violated, as cited",
    "nature": "the nature of the violation, as the notice states it",
    "title": "what the document is (the response of the guide)",
    "supersedes": "the notice it supersedes and why (empty when none)",
    "signature": "the Superintendent who issued it",
    "fine": "§ 196-22 B: the daily fine on conviction, its amount and authority",
    "costs": "§ 196-22 C: liability for the Town's expense, loss or damage",
    "correction": "how the correction is reported and verified (§ 196-21 A)",
}


def _notices() -> QuerySet[Notice]:
    return Notice.objects.filter(citation=NOTICE_CITATION).order_by("-issued_at", "-id")


def _orders() -> QuerySet[Notice]:
    return Notice.objects.exclude(citation=NOTICE_CITATION).order_by("-issued_at", "-id")


NOTICE_KIND = letters.register(
    LetterKind(
        key=NOTICE,
        name="Notice of violation (§ 196-22 A)",
        fields={
            **COMMON_FIELDS,
            "notice_text": "§ 196-22 A: notice is hereby given, with the provision violated",
            "period": "§ 196-22 A: the correction period and how it is counted",
        },
        required=("notice_text", "nature", "period", "fine", "costs", "recipient"),
        default_body=NOTICE_BODY,
        context=notice_context,
        records=_notices,
        title=lambda n: f"{n.number} {n.response_label}",
        filename=lambda n: f"notice-{n.number}.pdf",
    )
)


# --- an order (its own authority and terms, its schedule) -----------------------------------


def _schedule_lines(notice: Notice) -> str:
    """The compliance schedule(s) the order imposes, milestone by milestone, as a table."""
    schedules = list(notice.compliance_schedules.order_by("id"))
    if not schedules:
        return "No compliance schedule is imposed by this order."
    out: list[str] = []
    for s in schedules:
        out.append(f"# Compliance schedule {s.number} ({as_cited(s.citation)})")
        out.append(f"Requirement: {s.requirement}")
        out.append("|| Milestone | Due on")
        for m in s.milestones.order_by("due_on", "id"):
            out.append(f"| {m.description} | {long_date(m.due_on)}")
        out.append(
            "Report the completion of each milestone, or that it was not met and why, within "
            "14 days of its date (40 CFR 403.12(c))."
        )
    return _lines(*out)


def order_context(notice: Notice) -> Mapping[str, str]:
    values = _header(notice)
    v = notice.violation
    values["authority"] = (
        f"By authority of {as_cited(notice.citation)}, the Superintendent of the Sewer "
        f"Districts orders {v.person.name}, found to be violating {as_cited(notice.section)}, "
        "as follows."
    )
    if notice.correction_clock and notice.period_days:
        values["terms"] = (
            f"Within {notice.period_days} days of the service of this order, correct the "
            "violation and permanently cease it, and meet every milestone of the compliance "
            f"schedule below by its date. {_period_rule()} The deadline is stated on the "
            "certificate of service."
        )
    else:
        values["terms"] = "Meet every milestone of the compliance schedule below by its date."
    values["schedule"] = _schedule_lines(notice)
    values["fine"] = _fine_text(notice)
    values["costs"] = COSTS_TEXT
    values["correction"] = CORRECTION_TEXT
    return values


ORDER_BODY = """{{ date }}
Reference: {{ reference }}

{{ recipient }}

## {{ title }}
{% if supersedes %}{{ supersedes }}
{% endif %}{{ authority }}
Premises: {{ premises }}
Nature of the violation: {{ nature }}

# Terms of the order
{{ terms }}

{{ schedule }}

{{ fine }}

{{ costs }}

{{ correction }}

{{ signature }}
"""

ORDER_KIND = letters.register(
    LetterKind(
        key=ORDER,
        name="Order (administrative order, compliance schedule)",
        fields={
            **COMMON_FIELDS,
            "authority": "the provision the order rests on, and whom it orders",
            "terms": "what the order requires and within what period",
            "schedule": "the compliance schedule's milestones with their dates",
        },
        required=("authority", "nature", "terms", "schedule", "fine", "costs", "recipient"),
        default_body=ORDER_BODY,
        context=order_context,
        records=_orders,
        title=lambda n: f"{n.number} {n.response_label}",
        filename=lambda n: f"order-{n.number}.pdf",
    )
)


# --- the certificate of service ---------------------------------------------------------------


def service_text(notice: Notice) -> str:
    """How and when the notice was served, in the certificate's words (dates written out)."""
    receipt = f" no. {notice.receipt_number}" if notice.receipt_number else ""
    if notice.mailed_on is not None:
        mailed = f"mailed by certified mail, return receipt requested{receipt}, on " + long_date(
            notice.mailed_on
        )
        if notice.served_on is None:
            return f"{mailed}; not yet delivered"
        proof = notice.get_delivery_proof_display().lower() or "the carrier's record"
        return f"{mailed}; delivered on {long_date(notice.served_on)}, as shown by the {proof}"
    if notice.served_on is None:
        return "not served"
    if notice.service_method == ServiceMethod.PERSONAL:
        return f"served by personal delivery on {long_date(notice.served_on)}"
    if notice.service_method == ServiceMethod.EMAIL:
        to = f" to {notice.email_address}" if notice.email_address else ""
        return (
            f"served by e-mail{to} on {long_date(notice.served_on)}, with the person's written "
            "agreement to e-mail service"
        )
    return (
        f"served on {long_date(notice.served_on)} ({notice.get_service_method_display()}{receipt})"
    )


def deadline_text(notice: Notice) -> str:
    """The deadline and the rule that computed it, from the basis stored at service."""
    if notice.deadline is None or not notice.period_days:
        return "No correction period runs from this service: the document states none."
    basis = notice.deadline_basis or {}
    served = long_date(notice.served_on)
    parts = [
        f"The correction period of {notice.period_days} days stated runs from the day after "
        f"service ({served}); the nominal last day is "
        f"{long_date(notice.nominal_deadline)}."
    ]
    moved = basis.get("moved_over") or []
    if moved:
        days = "; ".join(f"{_iso_long(d['day'])} ({d['reason']})" for d in moved)
        parts.append(
            f"It falls on a day that is not a business day and moves over {days} to the next "
            "business day (N.Y. General Construction Law §§ 24, 25-a)."
        )
    minimum = basis.get("minimum") or {}
    if minimum.get("value"):
        parts.append(
            f"The article's least period is {minimum['value']} days (Town Code § 196-22 A"
            + (f"; {minimum['authority']}" if minimum.get("authority") else "")
            + ")."
        )
    parts.append(
        f"Deadline: the end of {notice.deadline:%A}, {long_date(notice.deadline)} (Town Code "
        "§ 196-22 A)."
    )
    return " ".join(parts)


def _iso_long(text: str) -> str:
    return long_date(date.fromisoformat(text))


def certificate_context(notice: Notice) -> Mapping[str, str]:
    """The certificate of service: who served the written notice of § 196-22 A, how and when
    (for certified mail, the delivery the return receipt shows), and the deadline that service
    set, with the rule that computed it."""
    v = notice.violation
    what = "order" if is_order(notice) else "notice"
    address = ", ".join(mailing_lines(v.person, premises_property(v))[1:])
    to = f" at {address}" if address else ""
    served_by = signer(notice.served_by) or "the office"
    return {
        "date": long_date(notice.served_on),
        "reference": f"{notice.number} (violation {v.number})",
        "document": (
            f"{notice.response_label} {notice.number} of {long_date(notice.issued_on)}, under "
            f"{as_cited(notice.citation)}, about {_subject(v)}"
        ),
        "recipient": _lines(*mailing_lines(v.person, premises_property(v))),
        "certification": (
            f"I certify that the {what} named above was served on {v.person.name}{to}: "
            f"{service_text(notice)}. Service was recorded by {served_by}."
        ),
        "receipt": notice.receipt_number or "none (not served by mail)",
        "deadline": deadline_text(notice),
        "signature": _lines(served_by, "Office of the Superintendent of the Sewer Districts"),
    }


CERTIFICATE_BODY = """{{ date }}
Reference: {{ reference }}

## Certificate of service
Document served: {{ document }}

{{ recipient }}

{{ certification }}
Certified mail receipt number: {{ receipt }}

# Deadline for correction
{{ deadline }}

{{ signature }}
"""


def _certified() -> QuerySet[Notice]:
    return Notice.objects.filter(served_on__isnull=False).order_by("-served_on", "-id")


CERTIFICATE_KIND = letters.register(
    LetterKind(
        key=CERTIFICATE,
        name="Certificate of service",
        fields={
            "date": "the day service was complete, written out",
            "reference": "the notice's number and the violation's",
            "document": "the notice or order served (what, number, date, authority, premises)",
            "recipient": "the person served and its complete mailing address (several lines)",
            "certification": "who served whom, how and when, the proof of delivery",
            "receipt": "the certified mail receipt number",
            "deadline": "§ 196-22 A: the deadline and the rule that computed it",
            "signature": "who recorded the service",
        },
        required=("document", "certification", "receipt", "deadline"),
        default_body=CERTIFICATE_BODY,
        context=certificate_context,
        records=_certified,
        title=lambda n: f"{n.number} Certificate of service",
        filename=lambda n: f"certificate-of-service-{n.number}.pdf",
        # the certificate's moment is the day service was complete, not the notice's issue
        created=lambda n: datetime.combine(
            n.served_on or n.issued_on, time(12), tzinfo=timezone.get_current_timezone()
        ),
    )
)


# --- the referral -------------------------------------------------------------------------


def computation_text(referral: Referral) -> str:
    """The fine count of :func:`.services.fines` on the day of referral, in words: the notice
    that started it, the days each later notice suspended, the days counted, each segment at
    the daily amount in force with its authority, the total (accrued, subject to conviction)."""
    v = referral.violation
    day = referral.referred_on
    f = services.fines(v, day)
    heading = f"# Fine accrued as of {long_date(day)} (Town Code § 196-22 B)"
    c = f.computation
    if c is None or f.notice is None:
        return _lines(heading, f.message)
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
    return _lines(*out)


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
    return _lines(*out)


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
        f"The Town's expense, loss or damage recorded: {usd(services.costs_total(violation))} "
        "(Town Code § 196-22 C)."
    )
    return _lines(*out)


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
            f"{v.person.name}, responsible for {_subject(v)}, found on "
            f"{long_date(v.observed_on)} to be violating {as_cited(v.section)}: {v.description}"
        ),
        "person": _lines(*mailing_lines(v.person, premises_property(v))),
        "computation": computation_text(referral),
        "notices": notices_text(v),
        "costs": costs_text(v),
        "note": referral.note,
        "signature": _lines(
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


# --- documents of record (called by the services) --------------------------------------------


def issue_notice(notice: Notice, actor: Any) -> IssuedDocument | None:
    """The notice's document of record, when it is issued. An order is kept once its terms are
    complete: when a compliance schedule is imposed by it, or when it is served
    (:func:`issue_order`); until then its page shows it as it stands."""
    if is_order(notice):
        return None
    return letters.issue(NOTICE, notice, actor=actor)


def issue_order(notice: Notice, actor: Any) -> IssuedDocument:
    """The order's document of record (idempotent: the first call keeps it)."""
    return letters.issue(kind_of(notice), notice, actor=actor)


def issue_certificate(notice: Notice, actor: Any) -> IssuedDocument:
    """The certificate of service, when service is complete; the order served is kept first."""
    if is_order(notice):
        issue_order(notice, actor)
    return letters.issue(CERTIFICATE, notice, actor=actor)


def issue_referral(referral: Referral, actor: Any) -> IssuedDocument:
    return letters.issue(REFERRAL, referral, actor=actor)


def notice_document(notice: Notice, actor: Any) -> tuple[IssuedDocument | None, bytes]:
    """What the notice's URL serves: the document of record (one issued before documents were
    kept is kept on first request); an order not yet served and with no schedule yet is shown
    as it stands (its terms are not complete)."""
    key = kind_of(notice)
    complete = notice.mailed_on is not None or notice.served_on is not None
    if is_order(notice) and not complete and not notice.compliance_schedules.exists():
        stored = letters.issued(key, notice)
        if stored is None:
            return None, letters.render(key, notice)
        return stored, bytes(stored.content)
    stored = letters.issued_or_issue(key, notice, actor=notice.issued_by)
    return stored, bytes(stored.content)


def certificate(notice: Notice) -> IssuedDocument | None:
    """The notice's certificate of service, if its service is complete (and recorded since
    certificates were kept; one recorded before is kept on first request)."""
    if notice.served_on is None:
        return None
    return letters.issued(CERTIFICATE, notice) or letters.issued_or_issue(
        CERTIFICATE, notice, actor=notice.served_by
    )


def referral_document(referral: Referral) -> IssuedDocument:
    """The referral's document of record (a referral made before documents were kept is kept
    on first request)."""
    return letters.issued_or_issue(REFERRAL, referral, actor=referral.referred_by)


def kind(key: str) -> LetterKind:
    return letters.kind(key)
