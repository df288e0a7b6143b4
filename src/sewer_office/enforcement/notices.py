"""Notices of violation and their service (§ 196-22 A): what the workflow's ``issue``,
``supersede``, ``serve`` and ``deliver`` transitions do.

The ``guard_*`` and ``effect_*`` functions run inside
:func:`sewer_office.core.services.perform`'s transaction (the declaration is in
:mod:`.workflow`): a refusal raised here (a served day before the issue, a period under 10
days) rolls everything back. The delivery starts the correction period that the fine count
(:mod:`.liability`) reads."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.town_law import town_of
from sewer_rules.enforcement_ladder import ClockStart
from sewer_rules.law_package import LawPackage
from sewer_rules.parameters import ParameterValue

from . import grounds, letters, plan, rules, town_ladder
from .choices import (
    RESPONSE_REFERRALS,
    ServiceMethod,
)
from .facts import DeliveryFacts, IssueFacts, ServiceFacts, SupersedeFacts
from .liability import notices_in_force
from .models import Notice, Violation


def current_notice(violation: Violation) -> Notice | None:
    """The latest notice in force (the one to serve, or whose clock runs)."""
    notices = notices_in_force(violation)
    return notices[-1] if notices else None


def _create_notice(
    violation: Violation,
    response: rules.Response,
    terms: IssueFacts,
    actor: Actor,
    at: datetime,
    supersedes: Notice | None = None,
    reason: str = "",
) -> Notice:
    """The notice of ``response`` on the ``terms`` a form gave (its nature and period, the
    facts of issuing, superseding and escalating alike), with its audit event and letter."""
    day = timezone.localdate(at)
    town = town_of(violation)
    own = town_ladder.own_law(town)
    step = None
    if own is not None:  # a step of the town's own ladder, whatever the plant's guide calls it
        step = town_ladder.ladder_step(own, response.code)
        response = town_ladder.step_response(step)
    period: int | None = None
    if response.correction_clock:
        period = terms["period_days"]
        if own is not None:  # its law's days, checked (or the order's own, stated)
            period = town_ladder.due(own, town, day, period, step).days
        else:
            if period is None:
                period = rules.least_period(day, town)
            rules.deadline(day, period, town)  # refuses a period under the article's 10 days
    amount = _daily_amount(day, town, own)
    notice = Notice.objects.create(
        violation=violation,
        response=response.code,
        response_label=response.label,
        citation=str(response.citation),
        nature=terms["nature"].strip() or violation.description,
        section=violation.section,
        correction_clock=response.correction_clock,
        period_days=period,
        issued_on=day,
        issued_at=at,
        issued_by=signed_in(actor),
        daily_amount=None if amount is None else amount.value,
        daily_amount_effective=None if amount is None else amount.effective,
        daily_amount_authority="" if amount is None else amount.authority,
        supersedes=supersedes,
        supersede_reason=reason,
    )
    audit.record(
        actor=actor,
        action="issue_notice",
        obj=notice,
        after=audit.snapshot(notice),
        citation=notice.citation,
        reason=reason,
        at=at,
    )
    letters.issue_notice(notice, actor)  # the document of record, kept as issued
    return notice


def _daily_amount(day: date, town: str, own: LawPackage | None) -> ParameterValue | None:
    """The daily fine in force on the day of issue: § 196-22 B's, or the one a town's own law
    names (none when its package states no daily amount)."""
    if own is None:
        return rules.daily_amount(day, town)
    parameter = own.ladder.fine.daily_amount_parameter
    return rules.params(town).get(parameter, day) if parameter else None


def guard_issue(violation: Violation, facts: IssueFacts) -> str | None:
    # a violation recorded before the rule of grounds is left as it was, but gets no notice
    if (refused := grounds.refusal_of(violation)) is not None:
        return f"No notice can be issued: {refused}"
    if town_ladder.own_law_of(violation) is None:  # its own law's notice has its own clock
        procedure = rules.procedure_for(violation.section)
        if not procedure.correction_clock:
            return procedure.message
    day = timezone.localdate(None)
    first = rules.first(
        violation.kind, violation.section, day, plan.severity(violation, day).severity
    )
    if first.code in RESPONSE_REFERRALS:
        return (
            f"The response guide names '{first.label}' ({first.citation}) first for this kind: "
            "refer the violation instead of issuing a notice."
        )
    return None


def effect_issue(violation: Violation, facts: IssueFacts, actor: Actor, at: datetime) -> None:
    """§ 196-22 A: the written notice stating the nature of the violation, the section and the
    correction period (at least 10 days) — the response the plan names first for the kind and
    the violation's severity (:func:`.plan.severity`)."""
    day = timezone.localdate(at)
    first = rules.first(
        violation.kind, violation.section, day, plan.severity(violation, day).severity
    )
    _create_notice(violation, first, facts, actor, at)


def effect_supersede(
    violation: Violation, facts: SupersedeFacts, actor: Actor, at: datetime
) -> None:
    old = current_notice(violation)
    if old is None:
        raise Blocked("There is no notice to supersede.")
    reason = facts["reason"].strip()
    # a town's own notice or order is superseded by the same step of its ladder, whatever
    # the plant's guide names its codes
    own = town_ladder.own_law_of(violation)
    response = (
        rules.response(old.response)
        if own is None
        else town_ladder.step_response(town_ladder.ladder_step(own[1], old.response))
    )
    _create_notice(violation, response, facts, actor, at, old, reason)


def effect_serve(violation: Violation, facts: ServiceFacts, actor: Actor, at: datetime) -> None:
    """§ 196-22 A: the notice served on a recorded day by a recorded method.

    Personal service is complete on the day of delivery, e-mail service (only with the
    person's written agreement) on the day sent: the deadline is computed from that day (the
    period stated, the next business day) and stored with its basis, and the violation is
    ``served``. Certified mail is complete only on delivery: the day given is the mailing day,
    the notice is "mailed, not yet delivered" (state ``mailed``), no deadline is set and no
    clock runs until :func:`effect_deliver` records the return receipt's day."""
    notice = current_notice(violation)
    if notice is None or notice.served or notice.mailed_on is not None:
        raise Blocked("There is no issued notice awaiting service.")
    day = facts["served_on"]
    if day < notice.issued_on:
        raise InvalidInput(
            {
                "served_on": [
                    f"{notice.number} was issued on {notice.issued_on}: it cannot have been "
                    f"served on {day}, before it existed."
                ]
            }
        )
    if day > timezone.localdate(at):
        raise InvalidInput({"served_on": [f"{day} is in the future: record service once made."]})
    before = audit.snapshot(Notice.objects.get(pk=notice.pk))
    notice.served_by = signed_in(actor)
    notice.service_method = facts["service_method"]
    notice.receipt_number = facts["receipt_number"].strip()
    notice.email_address = facts["email_address"].strip()
    notice.email_consent = facts["email_consent"]
    own = town_ladder.own_law_of(violation)
    step = None if own is None else town_ladder.ladder_step(own[1], notice.response)
    if own is not None and town_ladder.clock_start(own[1], step) is ClockStart.MAILING:
        _serve_by_mailing(notice, day, own[1])
        violation.state = "served"
    elif notice.service_method == ServiceMethod.CERTIFIED_MAIL:
        notice.mailed_on = day
        violation.state = "mailed"
    else:
        _complete_service(notice, day)
        violation.state = "served"
    notice.save()
    audit.record(
        actor=actor,
        action="serve",
        obj=notice,
        before=before,
        after=audit.snapshot(notice),
        citation=notice.citation,
        at=at,
    )
    if letters.is_order(notice):
        letters.issue_order(notice, actor)  # the order as served, kept
    if notice.served_on is not None:
        letters.issue_certificate(notice, actor)  # service complete: its certificate


def _serve_by_mailing(notice: Notice, day: date, law: LawPackage) -> None:
    """A notice whose town's law counts its period from the day it is mailed: it is given by
    mail, and recording the mailing starts the clock (its delivery changes nothing)."""
    if notice.service_method != ServiceMethod.CERTIFIED_MAIL:
        step = town_ladder.notice_step(law)
        raise InvalidInput(
            {
                "service_method": [
                    f"{law.name}'s notice runs from the date it is mailed ({step.citation}): "
                    "record its mailing (certified mail)."
                ]
            }
        )
    notice.mailed_on = day
    # its delivery is not known, and changes nothing
    _complete_service(notice, day, delivered=False)


def _complete_service(notice: Notice, day: date, *, delivered: bool = True) -> None:
    """Service complete on ``day``: the period runs from it (§ 196-22 A), or from the event
    the town's own law counts it from (:mod:`.town_ladder`)."""
    notice.served_on = day
    notice.delivered_on = day if delivered else None
    town = town_of(notice.violation)
    own = town_ladder.own_law(town)
    if own is not None and notice.correction_clock:
        step = town_ladder.ladder_step(own, notice.response)
        due = town_ladder.due(own, town, day, notice.period_days, step)
        notice.nominal_deadline, notice.deadline = due.nominal, due.due
        notice.deadline_basis = due.as_dict()
        return
    if notice.correction_clock and notice.period_days is not None:
        clock = rules.deadline(day, notice.period_days, town)
        notice.nominal_deadline = clock.nominal
        notice.deadline = clock.deadline
        notice.deadline_basis = {
            **clock.as_dict(),
            "minimum": rules.parameter_dict(clock.minimum),
            "rollover": rules.parameter_dict(clock.rollover),
        }


def effect_deliver(violation: Violation, facts: DeliveryFacts, actor: Actor, at: datetime) -> None:
    """§ 196-22 A: a notice mailed by certified mail is served on the day of delivery shown by
    the return receipt (or the carrier's record), recorded by the clerk; the period runs from
    that day, never from the mailing. Recorded once, like every fact of service."""
    notice = current_notice(violation)
    if notice is None or not notice.awaiting_delivery or notice.mailed_on is None:
        raise Blocked("There is no mailed notice awaiting its delivery.")
    delivered = facts["delivered_on"]
    if delivered < notice.mailed_on:
        raise InvalidInput(
            {
                "delivered_on": [
                    f"{notice.number} was mailed on {notice.mailed_on}: it cannot have been "
                    f"delivered on {delivered}, before it was mailed."
                ]
            }
        )
    if delivered > timezone.localdate(at):
        raise InvalidInput(
            {"delivered_on": [f"{delivered} is in the future: record delivery once made."]}
        )
    before = audit.snapshot(Notice.objects.get(pk=notice.pk))
    notice.delivery_proof = facts["delivery_proof"]
    _complete_service(notice, delivered)
    notice.save()
    audit.record(
        actor=actor,
        action="record_delivery",
        obj=notice,
        before=before,
        after=audit.snapshot(notice),
        citation=notice.citation,
        at=at,
    )
    letters.issue_certificate(notice, actor)  # delivered: service complete, its certificate
