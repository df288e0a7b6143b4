"""Opening violations, the effects of their workflow, costs, fines, and the daily clock.

State changes go through :func:`sewer_office.core.services.perform` (the declaration is in
:mod:`.workflow`); the ``effect_*`` and ``guard_*`` functions below are what those transitions
do, inside perform's transaction: a refusal raised here (a served day before the issue, a
verification before the report, a period under 10 days) rolls everything back, so nothing is
written. Opening a violation and recording a cost are not state changes; they check the
actor's role and write their audit event in the same transaction, like every service.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.findings.words import describe
from sewer_office.inspections.models import Inspection

from . import grounds, letters, plan, rules
from .choices import (
    FINDING_KINDS,
    FINDING_SECTIONS,
    REFERRAL_CITATIONS,
    RESPONSE_REFERRALS,
    ReferralKind,
    ServiceMethod,
)
from .models import Correction, Cost, Finding, Notice, Referral, Violation
from .states import COST_RECORDERS, OPEN_STATES, OPENERS


def visible_violations(qs: models.QuerySet[Violation], user: Any) -> models.QuerySet[Violation]:
    """``qs`` narrowed to what ``user`` may see (outside users: their own, once noticed)."""
    return visible(qs, user)


def may_open(user: Any) -> bool:
    return has_role(user, *OPENERS)


def _day(at: datetime | None) -> date:
    return timezone.localdate(at) if at is not None else timezone.localdate()


# --- opening ------------------------------------------------------------------------------


def open_violation(
    actor: Any,
    *,
    kind: str,
    section: str,
    description: str,
    person: Any,
    establishment: Any = None,
    property: Any = None,
    observed_on: date | None = None,
    finding: Finding | None = None,
    evidence: Iterable[Finding] = (),
    at: datetime | None = None,
    by_daily_job: bool = False,
) -> Violation:
    """Open a violation (by hand, or from ``finding``); § 196-20 is referred for arrest at once.

    The person "found to be violating" (§ 196-22 A), whom the notice will be served on.
    Only under a provision that imposes a duty or prohibition, and from a finding only when it
    is a violation (:mod:`.grounds`): anything else is refused, naming the section and why.

    One finding → at most one open violation: a second is refused with the first's number.
    ``by_daily_job`` (with no actor) is the daily run's: a milestone 90 days late becomes a
    violation by itself (40 CFR 403.8(f)(2)(viii)(E)).
    """
    if by_daily_job:
        if actor is not None or finding is None:
            raise Forbidden("The daily job opens violations only from a finding, as nobody.")
    elif not has_role(actor, *OPENERS):
        raise Forbidden(
            "Opening a violation: reserved to the Superintendent, the engineer and the "
            "Building Inspector (§ 196-22 A)."
        )
    if finding is not None and (not_violation := grounds.finding_refusal(finding)) is not None:
        raise Blocked(not_violation)  # a finding that is no violation: nothing to open
    day = _day(at)
    errors: dict[str, list[str]] = {}
    cited = ""
    try:
        cited = rules.section(section)
    except InvalidInput as e:
        errors.update(e.errors)
    else:
        # only a provision that imposes a duty or prohibition can be violated (grounds)
        if (no_duty := grounds.section_refusal(cited)) is not None:
            errors["section"] = [no_duty]
    kinds = dict(rules.kind_choices(day))
    if kind not in kinds:
        errors["kind"] = [
            f"'{kind}' is not a kind of the response guide (known: {', '.join(kinds)})"
        ]
    if person is None:
        errors["person"] = ["Name the person responsible (§ 196-15 PERSON)."]
    if establishment is None and property is None:
        errors["establishment"] = ["Name the facility or the property concerned."]
    if not description.strip():
        errors["description"] = ["Describe the violation."]
    observed = observed_on or day
    if observed > day:
        errors["observed_on"] = ["A violation cannot be found in the future."]
    if errors:
        raise InvalidInput(errors)
    if finding is not None:
        existing = Violation.objects.filter(finding=finding, state__in=OPEN_STATES).first()
        if existing is not None:
            raise Blocked(
                f"Finding #{finding.pk} already has an open violation, {existing.number}: one "
                "finding leads to at most one open violation."
            )
    damage = rules.is_damage(cited)
    try:
        with transaction.atomic():
            violation = Violation.objects.create(
                kind="damage" if damage else kind,
                section=cited,
                description=description.strip(),
                person=person,
                establishment=establishment,
                property=property,
                finding=finding,
                observed_on=observed,
                opened_by=actor,
                opened_at=at or timezone.now(),
                state="open",
            )
            linked = {f.pk: f for f in evidence}
            if finding is not None:
                linked[finding.pk] = finding
            violation.evidence.set(linked.values())
            audit.record(
                actor=actor,
                action="open_violation",
                obj=violation,
                after=audit.snapshot(violation),
                citation=cited,
                state_to="open",
                at=at,
            )
            if damage:
                _refer_at_once(violation, actor, at)
    except IntegrityError:
        raise Blocked(
            f"Finding #{finding.pk if finding else ''} already has an open violation: one finding "
            "leads to at most one open violation."
        ) from None
    return violation


def _refer_at_once(violation: Violation, actor: Any, at: datetime | None) -> None:
    """§ 196-20: referred for immediate arrest, without notice or correction clock."""
    before = audit.snapshot(violation)
    procedure = rules.procedure_for(violation.section)
    referral = _create_referral(
        violation,
        ReferralKind.ARREST,
        actor,
        _day(at),
        response="referral_for_arrest",
        referred_to=rules.response("referral_for_arrest").referred_to,
        note=procedure.message,
        at=at,
    )
    violation.state = "referred"
    violation.save(update_fields=["state", "updated_at"])
    audit.record(
        actor=actor,
        action="refer",
        obj=violation,
        before=before,
        after=audit.snapshot(violation),
        reason=procedure.message,
        citation=referral.citation,
        state_from="open",
        state_to="referred",
        at=at,
    )


def open_from_finding(
    actor: Any,
    finding: Finding,
    *,
    person: Any = None,
    kind: str = "",
    section: str = "",
    description: str = "",
    at: datetime | None = None,
) -> Violation:
    """Open the violation a finding shows: its section, facility and kind by default, the
    facility's operator as the person responsible unless another is named, and the nature in
    the plain words a notice states (:func:`sewer_office.findings.words.describe`)."""
    establishment = finding.establishment
    if person is None and establishment is not None:
        person = establishment.operator.current()
    return open_violation(
        actor,
        kind=kind or FINDING_KINDS.get(finding.kind, ""),
        section=section or _violated_section(finding),
        description=description or describe(finding),
        person=person,
        establishment=establishment,
        observed_on=timezone.localdate(finding.observed_at),
        finding=finding,
        at=at,
    )


def _violated_section(finding: Finding) -> str:
    """The article's section ``finding`` shows violated: its own citation when it cites the
    article, else the section its federal kind rests on (:data:`FINDING_SECTIONS`). A compound
    citation (a slug's "§ 196-15 SLUG; § 196-19 D(9)(d)") keeps the provisions that impose a
    duty, not the definition beside them."""
    parts = [p.strip() for p in finding.citation.split(";") if p.strip()]
    duties = [p for p in parts if grounds.section_refusal(p) is None]
    if len(parts) > 1 and duties and len(duties) < len(parts):
        return "; ".join(duties)
    if finding.citation.startswith("§") or finding.kind not in FINDING_SECTIONS:
        return finding.citation
    rests_on = FINDING_SECTIONS[finding.kind]
    if rules.lies_within(finding.citation, rests_on):
        return finding.citation  # e.g. the report's own 40 CFR 403.12(e), or SNC with its grounds
    return rests_on


# --- notices ------------------------------------------------------------------------------


def notices_in_force(violation: Violation) -> list[Notice]:
    """The violation's notices that no later notice superseded, oldest first."""
    return [n for n in violation.notices.all() if not hasattr(n, "superseded_by")]


def current_notice(violation: Violation) -> Notice | None:
    """The latest notice in force (the one to serve, or whose clock runs)."""
    notices = notices_in_force(violation)
    return notices[-1] if notices else None


def _create_notice(
    violation: Violation,
    response: rules.Response,
    data: dict[str, Any],
    actor: Any,
    at: datetime,
    supersedes: Notice | None = None,
    reason: str = "",
) -> Notice:
    day = _day(at)
    period: int | None = None
    if response.correction_clock:
        period = data.get("period_days")
        if period is None:
            period = rules.least_period(day)
        rules.deadline(day, period)  # refuses a period under the article's 10 days
    amount = rules.daily_amount(day)
    notice = Notice.objects.create(
        violation=violation,
        response=response.code,
        response_label=response.label,
        citation=str(response.citation),
        nature=(data.get("nature") or "").strip() or violation.description,
        section=violation.section,
        correction_clock=response.correction_clock,
        period_days=period,
        issued_on=day,
        issued_at=at,
        issued_by=actor,
        daily_amount=amount.value,
        daily_amount_effective=amount.effective,
        daily_amount_authority=amount.authority,
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


def guard_issue(violation: Violation, data: dict[str, Any]) -> str | None:
    # a violation recorded before the rule of grounds is left as it was, but gets no notice
    if (refused := grounds.refusal(violation.section, violation.finding)) is not None:
        return f"No notice can be issued: {refused}"
    procedure = rules.procedure_for(violation.section)
    if not procedure.correction_clock:
        return procedure.message
    day = _day(None)
    first = rules.first(
        violation.kind, violation.section, day, plan.severity(violation, day).severity
    )
    if first.code in RESPONSE_REFERRALS:
        return (
            f"The response guide names '{first.label}' ({first.citation}) first for this kind: "
            "refer the violation instead of issuing a notice."
        )
    return None


def effect_issue(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """§ 196-22 A: the written notice stating the nature of the violation, the section and the
    correction period (at least 10 days) — the response the plan names first for the kind and
    the violation's severity (:func:`.plan.severity`)."""
    day = _day(at)
    first = rules.first(
        violation.kind, violation.section, day, plan.severity(violation, day).severity
    )
    _create_notice(violation, first, data, actor, at)


def effect_supersede(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    old = current_notice(violation)
    if old is None:
        raise Blocked("There is no notice to supersede.")
    reason = (data.get("reason") or "").strip()
    _create_notice(violation, rules.response(old.response), data, actor, at, old, reason)


def effect_serve(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
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
    day = data["served_on"]
    if day < notice.issued_on:
        raise InvalidInput(
            {
                "served_on": [
                    f"{notice.number} was issued on {notice.issued_on}: it cannot have been "
                    f"served on {day}, before it existed."
                ]
            }
        )
    if day > _day(at):
        raise InvalidInput({"served_on": [f"{day} is in the future: record service once made."]})
    before = audit.snapshot(Notice.objects.get(pk=notice.pk))
    notice.served_by = actor
    notice.service_method = data["service_method"]
    notice.receipt_number = (data.get("receipt_number") or "").strip()
    notice.email_address = (data.get("email_address") or "").strip()
    notice.email_consent = bool(data.get("email_consent"))
    if notice.service_method == ServiceMethod.CERTIFIED_MAIL:
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


def _complete_service(notice: Notice, day: date) -> None:
    """Service complete on ``day``: the period runs from it (§ 196-22 A)."""
    notice.served_on = day
    notice.delivered_on = day
    if notice.correction_clock and notice.period_days is not None:
        clock = rules.deadline(day, notice.period_days)
        notice.nominal_deadline = clock.nominal
        notice.deadline = clock.deadline
        notice.deadline_basis = {
            **clock.as_dict(),
            "minimum": rules.parameter_dict(clock.minimum),
            "rollover": rules.parameter_dict(clock.rollover),
        }


def effect_deliver(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """§ 196-22 A: a notice mailed by certified mail is served on the day of delivery shown by
    the return receipt (or the carrier's record), recorded by the clerk; the period runs from
    that day, never from the mailing. Recorded once, like every fact of service."""
    notice = current_notice(violation)
    if notice is None or not notice.awaiting_delivery or notice.mailed_on is None:
        raise Blocked("There is no mailed notice awaiting its delivery.")
    delivered = data["delivered_on"]
    if delivered < notice.mailed_on:
        raise InvalidInput(
            {
                "delivered_on": [
                    f"{notice.number} was mailed on {notice.mailed_on}: it cannot have been "
                    f"delivered on {delivered}, before it was mailed."
                ]
            }
        )
    if delivered > _day(at):
        raise InvalidInput(
            {"delivered_on": [f"{delivered} is in the future: record delivery once made."]}
        )
    before = audit.snapshot(Notice.objects.get(pk=notice.pk))
    notice.delivery_proof = data["delivery_proof"]
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


# --- corrections --------------------------------------------------------------------------


def pending_correction(violation: Violation) -> Correction | None:
    return next((c for c in violation.corrections.order_by("-id") if c.pending), None)


def verified_correction(violation: Violation) -> Correction | None:
    """The first verified correction (from ``prefetch_related("corrections")`` when the
    caller prefetched them, so that a list of violations costs no query per row)."""
    verified = [c for c in violation.corrections.all() if c.verified_on is not None]
    return min(verified, key=lambda c: c.pk) if verified else None


def effect_report(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """§ 196-22 A: the person's report that it corrected the violation (by page, API or staff)."""
    reported = data["reported_on"]
    if reported > _day(at):
        raise InvalidInput({"reported_on": [f"{reported} is in the future."]})
    if reported < violation.observed_on:
        raise InvalidInput(
            {
                "reported_on": [
                    f"{reported} is before the violation was found ({violation.observed_on})."
                ]
            }
        )
    correction = Correction.objects.create(
        violation=violation,
        notice=current_notice(violation),
        reported_on=reported,
        reported_by=actor,
        reported_at=at,
        description=data["description"].strip(),
        returns_to=violation.state,
    )
    audit.record(
        actor=actor,
        action="report_correction",
        obj=correction,
        after=audit.snapshot(correction),
        citation="§ 196-22 A",
        at=at,
    )


def _decide(
    violation: Violation, actor: Any, at: datetime, fields: dict[str, Any], action: str
) -> Correction:
    correction = pending_correction(violation)
    if correction is None:
        raise Blocked("No reported correction awaits a decision.")
    return audit.change_recorded(
        correction, fields, actor=actor, action=action, citation="§ 196-22 B", at=at
    )


def effect_verify(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """§ 196-22 B: the correction verified "to the satisfaction of the Superintendent and/or
    other authorized personnel as cited in § 196-21A". The verification finds the day the
    violation ceased (``ceased_on``: the reported day, the default, when borne out, or another
    day found on inspection — never after the verification, never before the violation was
    found); the fine runs to that day, not to the verification."""
    correction = pending_correction(violation)
    if correction is None:
        raise Blocked("No reported correction awaits verification.")
    if correction.reported_by_id is not None and correction.reported_by_id == actor.pk:
        # the verification ends the fine count: one person never both reports and verifies
        raise Blocked(
            "A correction is verified by someone other than who reported it (the office's "
            f"separation of duties): {correction.reported_by} reported this one on "
            f"{correction.reported_on:%Y-%m-%d}."
        )
    verified = data["verified_on"]
    if verified < correction.reported_on:
        raise InvalidInput(
            {
                "verified_on": [
                    f"The correction was reported on {correction.reported_on}: it cannot be "
                    f"verified on {verified}, before it was reported."
                ]
            }
        )
    if verified > _day(at):
        raise InvalidInput({"verified_on": [f"{verified} is in the future."]})
    ceased = data.get("ceased_on") or correction.reported_on
    if ceased > verified:
        raise InvalidInput(
            {
                "ceased_on": [
                    f"{ceased} is after the verification ({verified}): a verification finds "
                    "only a correction already made."
                ]
            }
        )
    if ceased < violation.observed_on:
        raise InvalidInput(
            {
                "ceased_on": [
                    f"{ceased} is before the violation was found ({violation.observed_on})."
                ]
            }
        )
    inspection = None
    if data.get("inspection"):
        inspection = Inspection.objects.filter(
            pk=data["inspection"], state="completed", establishment=violation.establishment_id
        ).first()
        if inspection is None:
            raise InvalidInput(
                {"inspection": ["No completed inspection of this facility with that id."]}
            )
    _decide(
        violation,
        actor,
        at,
        {
            "verified_on": verified,
            "ceased_on": ceased,
            "verified_by": actor,
            "inspection": inspection,
            "decision_note": (data.get("note") or "").strip(),
        },
        "verify",
    )


def effect_reject(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    pending = pending_correction(violation)
    rejected = data["rejected_on"]
    if pending is not None and rejected < pending.reported_on:
        raise InvalidInput(
            {
                "rejected_on": [
                    f"The correction was reported on {pending.reported_on}: it cannot be "
                    f"rejected on {rejected}, before it was reported."
                ]
            }
        )
    if rejected > _day(at):
        raise InvalidInput({"rejected_on": [f"{rejected} is in the future."]})
    correction = _decide(
        violation,
        actor,
        at,
        {"rejected_on": data["rejected_on"], "rejected_by": actor},
        "reject_correction",
    )
    violation.state = correction.returns_to


# --- escalation and referral --------------------------------------------------------------


def responses_taken(violation: Violation) -> list[str]:
    codes = [n.response for n in violation.notices.all()]
    codes += [r.response for r in violation.referrals.all() if r.response]
    return codes


def next_step(violation: Violation, day: date | None = None) -> rules.Response | None:
    """The guide's next response for this violation, or None when it names no further step."""
    if not rules.procedure_for(violation.section).correction_clock:
        return None
    return rules.following(violation.kind, day or timezone.localdate(), responses_taken(violation))


def guard_escalate(violation: Violation, data: dict[str, Any]) -> str | None:
    if (refused := grounds.refusal(violation.section, violation.finding)) is not None:
        return f"No further notice or referral can be made: {refused}"
    if next_step(violation) is None:
        return (
            "The response guide names no further step for this violation: the matter rests "
            "with the Town Attorney and the court."
        )
    return None


def _create_referral(
    violation: Violation,
    kind: str,
    actor: Any,
    day: date,
    *,
    response: str = "",
    referred_to: str = "",
    note: str = "",
    at: datetime | None = None,
) -> Referral:
    referral = Referral.objects.create(
        violation=violation,
        kind=kind,
        response=response,
        citation=REFERRAL_CITATIONS[kind],
        referred_on=day,
        referred_to=referred_to.strip(),
        note=note.strip(),
        referred_by=actor,
        referred_at=at or timezone.now(),
        computation=fines_as_referred(violation, day),
    )
    audit.record(
        actor=actor,
        action="refer",
        obj=referral,
        after=audit.snapshot(referral),
        citation=referral.citation,
        at=at,
    )
    letters.issue_referral(referral, actor)  # the referral's document of record
    return referral


def guard_refer_fine(violation: Violation, data: dict[str, Any]) -> str | None:
    """A violation corrected after its deadline still owes the fine for the days it continued
    (§ 196-22 B: "shall be fined ... for each violation" continued beyond the time limit); the
    correction ends the count, not the liability. Refused when nothing is owed or the fine is
    already with the Town Attorney."""
    owed = fines(violation)
    if owed.total is None or owed.total <= 0:
        return "No fine to refer: the violation did not continue beyond its correction period."
    if violation.referrals.filter(kind=ReferralKind.TOWN_ATTORNEY).exists():
        return "The fine is already referred to the Town Attorney for prosecution."
    return None


def effect_refer_fine(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """The fine for the days late referred for prosecution (§ 196-22 B); the violation stays
    where it is (corrected, or its correction under review): only a court imposes the fine."""
    _create_referral(
        violation,
        ReferralKind.TOWN_ATTORNEY,
        actor,
        _day(at),
        referred_to=data.get("referred_to") or "",
        note=data.get("note") or "",
        at=at,
    )


def effect_escalate(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """The guide's next step after an uncorrected deadline: a second notice or an order
    (§ 196-22 A), a referral to the Town Attorney for prosecution (§ 196-22 B) or a request for
    an injunction (§ 196-22 D), recorded; the court's proceedings are not the office's."""
    step = next_step(violation, _day(at))
    if step is None:  # guarded; kept for a concurrent change
        raise Blocked("The response guide names no further step for this violation.")
    if step.code in RESPONSE_REFERRALS:
        _create_referral(
            violation,
            RESPONSE_REFERRALS[step.code],
            actor,
            _day(at),
            response=step.code,
            referred_to=data.get("referred_to") or "Town Attorney",
            at=at,
        )
        violation.state = "referred"
    else:
        _create_notice(violation, step, data, actor, at)
        violation.state = "notice_issued"


def effect_refer(violation: Violation, data: dict[str, Any], actor: Any, at: datetime) -> None:
    """A referral recorded: to the police for arrest (§ 196-20; the chapter is enforced by the
    police and the Superintendent of Highways, § 196-21 D), to the Town Attorney for
    prosecution (§ 196-22 B) or for an injunction (§ 196-22 D)."""
    kind = data["kind"]
    code = next((c for c, k in RESPONSE_REFERRALS.items() if k == kind), "")
    _create_referral(
        violation,
        kind,
        actor,
        _day(at),
        response=code,
        referred_to=data.get("referred_to") or "",
        note=data.get("note") or "",
        at=at,
    )


# --- costs --------------------------------------------------------------------------------


def may_record_cost(user: Any) -> bool:
    return has_role(user, *COST_RECORDERS)


def require_cost_recorder(actor: Any) -> None:
    if not may_record_cost(actor):
        raise Forbidden(
            "Recording the Town's costs: reserved to the Superintendent, the engineer and the "
            "clerk (§ 196-22 C)."
        )


def record_cost(
    violation: Violation,
    actor: Any,
    *,
    category: str,
    description: str,
    amount: Decimal,
    incurred_on: date,
    hours: Decimal | None = None,
    at: datetime | None = None,
) -> Cost:
    """Record an item of the Town's expense, loss or damage for recovery (§ 196-22 C)."""
    require_cost_recorder(actor)
    errors: dict[str, list[str]] = {}
    if amount < 0:
        errors["amount"] = ["A cost is not negative."]
    if category == "staff_hours" and not hours:
        errors["hours"] = ["Staff hours: give the number of hours."]
    if incurred_on > _day(at):
        errors["incurred_on"] = [f"{incurred_on} is in the future."]
    if incurred_on < violation.observed_on:
        errors["incurred_on"] = [
            f"{incurred_on} is before the violation was found ({violation.observed_on})."
        ]
    if not description.strip():
        errors["description"] = ["Say what the cost is."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        cost = Cost.objects.create(
            violation=violation,
            category=category,
            description=description.strip(),
            hours=hours,
            amount=amount,
            incurred_on=incurred_on,
            recorded_by=actor,
            recorded_at=at or timezone.now(),
        )
        audit.record(
            actor=actor,
            action="record_cost",
            obj=violation,
            after=audit.snapshot(cost),
            citation="§ 196-22 C",
            at=at,
        )
    return cost


def costs_total(violation: Violation) -> Decimal:
    """The Town's recorded expense, loss or damage on the violation, for recovery (§ 196-22 C)."""
    total = violation.costs.aggregate(t=models.Sum("amount"))["t"] or Decimal(0)
    return Decimal(total).quantize(Decimal("0.01"))  # a sum of cents is cents (no "195.5")


# --- fines --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fines:
    """The fine accrued on a violation as of a day, or why none can be stated."""

    computation: rules.FineComputation | None
    notice: Notice | None
    message: str
    unconfigured: str = ""

    @property
    def total(self) -> Decimal | None:
        return self.computation.total if self.computation else None

    @property
    def accruing(self) -> bool:
        return self.computation is not None and self.computation.days > 0


def clock_notice(violation: Violation) -> Notice | None:
    """The notice whose deadline starts the fine: the first served notice in force with a
    correction clock (a superseded notice is replaced by the one that supersedes it)."""
    return next(iter(_clock_notices(violation)), None)


def _clock_notices(violation: Violation) -> list[Notice]:
    """The served notices in force with a correction period, in the order served."""
    served = [
        n
        for n in notices_in_force(violation)
        if n.served_on is not None and n.correction_clock and n.period_days is not None
    ]
    return sorted(served, key=lambda n: (n.served_on, n.pk))


def fines(violation: Violation, as_of: date | None = None) -> Fines:
    """Accrued per violation, day by day at the amount in force each day (§ 196-22 B) —
    subject to conviction — by the rule :func:`~sewer_rules.ordinance.s196_22_penalties.
    accrued_fines`: from the first served notice's deadline to the day the violation ceased as
    its verification found it (or ``as_of`` while not verified by then), less the period each
    later notice or order (a second notice, an administrative order) gives from the day after
    its service through its own deadline. A notice mailed and not yet delivered is not served:
    it starts nothing and suspends nothing."""
    as_of = as_of or timezone.localdate()
    procedure = rules.procedure_for(violation.section)
    if not procedure.correction_clock:
        return Fines(None, None, procedure.message)
    notices = _clock_notices(violation)
    if not notices:
        mailed = any(n.awaiting_delivery for n in notices_in_force(violation))
        return Fines(
            None,
            None,
            "The notice was mailed and its delivery is not yet recorded: the correction "
            "period has not started (§ 196-22 A)."
            if mailed
            else "No notice served yet: the correction period has not started.",
        )
    notice, later = notices[0], notices[1:]
    assert notice.served_on is not None
    day = max(as_of, notice.served_on)
    verified = verified_correction(violation)
    corrected = verified_on = None
    if verified is not None and verified.verified_on is not None and verified.verified_on <= day:
        corrected, verified_on = verified.ceased_day, verified.verified_on
    computation = rules.accrued_fines(
        notice.served_on,
        corrected,
        day,
        rules.params(),
        violation=violation.section,
        period_days=notice.period_days,
        verified=verified_on,
        later_notices=[
            (n.served_on, n.period_days)
            for n in later
            if n.served_on is not None and n.served_on <= day
        ],
    )
    unconfigured = ""
    if computation.total is None:
        unconfigured = rules.unconfigured_message(computation.jurisdiction)
    return Fines(computation, notice, computation.summary, unconfigured)


def fines_as_referred(violation: Violation, day: date) -> dict[str, Any]:
    """The fine count as it stood on the day of a referral (§ 196-22 B), kept on the referral:
    the court imposes the fine on conviction, and the Town Attorney needs the count the office
    made — the days, the spans later notices suspended, the daily amount and its authority, the
    total — as it was, whatever is recorded later. :func:`fines` of that day, as data."""
    f = fines(violation, day)
    return {
        "as_of": day.isoformat(),
        "message": f.message,
        "unconfigured": f.unconfigured,
        "notice": f.notice.number if f.notice is not None else None,
        "fine": f.computation.as_dict() if f.computation is not None else None,
    }


# --- the daily clock ----------------------------------------------------------------------


def advance_clocks(day: date | None = None, *, at: datetime | None = None) -> int:
    """Move every served violation whose deadline passed uncorrected to ``fines_accruing``.

    Run daily by ``sewer-use flag-overdue``: a notice's deadline runs to the end of its last
    day, so a violation moves on the first day after it; each move writes its audit event
    (§ 196-22 B), and a violation moved once is no longer ``served``, so later runs add
    nothing. A notice mailed by certified mail and not yet delivered has no deadline (the
    violation is ``mailed``, not ``served``): it is never moved. Returns how many moved. ``at``
    back-dates the events (loading a history, as
    :func:`~sewer_office.core.services.perform` does); never taken from a request.
    """
    day = day or timezone.localdate()
    transition = Violation.WORKFLOW.get("deadline_passed")
    candidates = Violation.objects.filter(
        state="served", notices__deadline__lt=day, notices__superseded_by__isnull=True
    ).distinct()
    moved = 0
    for violation in candidates:
        with transaction.atomic():
            locked = Violation.objects.select_for_update().get(pk=violation.pk)
            notice = current_notice(locked)
            if locked.state != "served" or notice is None or notice.deadline is None:
                continue
            if notice.deadline >= day or verified_correction(locked) is not None:
                continue
            before = audit.snapshot(locked)
            locked.state = transition.target or "fines_accruing"
            locked.save(update_fields=["state", "updated_at"])
            audit.record(
                actor=None,
                action=transition.name,
                obj=locked,
                before=before,
                after=audit.snapshot(locked),
                reason=(
                    f"{notice.number} served {notice.served_on}, deadline {notice.deadline} "
                    f"passed on {day} without a verified correction"
                ),
                citation=transition.citation,
                state_from="served",
                state_to=locked.state,
                at=at,
            )
            moved += 1
    return moved


def is_outside(user: Any) -> bool:
    return not is_staff_member(user)


# --- one line per violation (the CLI, the exports) ------------------------------------------

#: What the office shows in place of an amount (§ 196-22 B: a fine is imposed on conviction).
SUBJECT_TO_CONVICTION = "accrued, subject to conviction"
NOT_CONFIGURED = "not configured"


def violation_summary(violation: Violation, today: date | None = None) -> dict[str, Any]:
    """The violation as the list and ``sewer-use violations`` show it, with plain field names:
    the deadline of the notice in force, the days of continuing violation past it, the fine
    accrued ("accrued, subject to conviction", or "not configured" with the resolution to
    record), as of ``today``."""
    today = today or timezone.localdate()
    f = fines(violation, today)
    notice = current_notice(violation)
    if f.total is not None:
        fines_status = SUBJECT_TO_CONVICTION
    elif f.unconfigured:
        fines_status = NOT_CONFIGURED
    else:
        fines_status = f.message
    # days of continuing violation past the deadline (to the verified correction, if any)
    days_late = f.computation.days if f.computation is not None else None
    return {
        "id": violation.pk,
        "number": violation.number,
        "facility": violation.subject,
        "person": violation.person.name,
        "section": violation.section,
        "kind": violation.kind,
        "state": violation.state,
        "stage": violation.state_label,
        "observed_on": violation.observed_on.isoformat(),
        "notice_deadline": notice.deadline.isoformat() if notice and notice.deadline else None,
        "days_late": days_late,
        "fines_accrued": None if f.total is None else str(f.total),
        "fines_status": fines_status,
        "fines_note": f.unconfigured,
        # recorded before the rule of grounds and refused by it now (the record is unchanged)
        "would_now_be_refused": grounds.refusal(violation.section, violation.finding),
    }
