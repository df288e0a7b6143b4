"""The notice of violation (§ 196-22 A), an order (its own authority and terms, and the dated
milestones of the compliance schedule it imposes) and the certificate of service of either:
their merge values and the templates the office may reword, registered with the letters
engine (:mod:`sewer_office.core.letters`) when the app is ready. The words they share and the
documents of record are :mod:`sewer_office.enforcement.letters`."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time

from django.db.models import QuerySet
from django.utils import timezone

from sewer_office.core import letters
from sewer_office.core.letters import LetterKind, long_date, signer
from sewer_office.enforcement.choices import ServiceMethod
from sewer_office.enforcement.letters import (
    CERTIFICATE,
    CORRECTION_TEXT,
    COSTS_TEXT,
    NOTICE,
    NOTICE_CITATION,
    ORDER,
    as_cited,
    fine_text,
    header,
    is_order,
    lines,
    period_rule,
    premises_property,
    subject,
)
from sewer_office.enforcement.models import Notice
from sewer_office.enforcement.town_ladder import is_ladder_notice, own_law_of
from sewer_office.enforcement.town_words import deadline_words, notice_words
from sewer_office.registry.addresses import mailing_lines

# --- the notice of violation (§ 196-22 A) ------------------------------------------------------


def notice_context(notice: Notice) -> Mapping[str, str]:
    """What the written notice of § 196-22 A says: the violation found, the period to correct
    it and how it is counted, the fine of § 196-22 B and the liability of § 196-22 C."""
    values = header(notice)
    values["notice_text"] = (
        "Notice is hereby given under Town Code § 196-22 A that you are found to be violating "
        f"{as_cited(notice.section)}."
    )
    if notice.correction_clock and notice.period_days:
        values["period"] = (
            f"You shall, within {notice.period_days} days of the service of this notice, "
            "satisfactorily correct the violation and permanently cease it (Town Code "
            f"§ 196-22 A). {period_rule()} The deadline is stated on the certificate of "
            "service."
        )
    else:
        values["period"] = "This notice states no correction period."
    values["fine"] = fine_text(notice)
    values["costs"] = COSTS_TEXT
    values["correction"] = CORRECTION_TEXT
    if (own := own_law_of(notice.violation)) is not None and is_ladder_notice(notice):
        values.update(notice_words(notice, own[1]))  # the town's own notice, as its law says
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
    return lines(*out)


def order_context(notice: Notice) -> Mapping[str, str]:
    values = header(notice)
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
            f"schedule below by its date. {period_rule()} The deadline is stated on the "
            "certificate of service."
        )
    else:
        values["terms"] = "Meet every milestone of the compliance schedule below by its date."
    values["schedule"] = _schedule_lines(notice)
    values["fine"] = fine_text(notice)
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
        if notice.delivered_on is None:  # a law whose period runs from the mailing
            return f"{mailed}; the period runs from the mailing"
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
    if "step" in basis:  # computed by the town's own ladder (:mod:`.town_ladder`)
        return deadline_words(notice)
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
            f"{as_cited(notice.citation)}, about {subject(v)}"
        ),
        "recipient": lines(*mailing_lines(v.person, premises_property(v))),
        "certification": (
            f"I certify that the {what} named above was served on {v.person.name}{to}: "
            f"{service_text(notice)}. Service was recorded by {served_by}."
        ),
        "receipt": notice.receipt_number or "none (not served by mail)",
        "deadline": deadline_text(notice),
        "signature": lines(served_by, "Office of the Superintendent of the Sewer Districts"),
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
