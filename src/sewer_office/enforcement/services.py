"""Opening violations, costs, and the daily clock (§ 196-22); the other services of the
workflow stand beside them, one concept each: notices and their service (:mod:`.notices`),
corrections (:mod:`.corrections`), escalation and referral (:mod:`.referrals`); the one line
per violation that the list's download and ``sewer-use violations`` show is :mod:`.summary`.

What a violation owes (the fine count, the costs recorded) is computed in :mod:`.liability`
(the letters read it too, and these services issue the letters); the pages, the API and
other apps import it from there.

State changes go through :func:`sewer_office.core.services.perform` (the declaration is in
:mod:`.workflow`); the ``effect_*`` and ``guard_*`` functions of those modules are what the
transitions do, inside perform's transaction. Opening a violation and recording a cost are not
state changes; they check the actor's role and write their audit event in the same
transaction, like every service.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, person_or_none, signed_in
from sewer_office.accounts.jurisdictions import foreign_to
from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import town_of
from sewer_office.findings.words import describe

from . import grounds, rules, town_ladder
from .choices import (
    FINDING_KINDS,
    FINDING_SECTIONS,
    ReferralKind,
)
from .liability import verified_correction
from .models import Cost, Finding, Violation
from .notices import current_notice
from .referrals import _create_referral
from .states import COST_RECORDERS, OPEN_STATES, OPENERS


def visible_violations(qs: models.QuerySet[Violation], user: Actor) -> models.QuerySet[Violation]:
    """``qs`` narrowed to what ``user`` may see (outside users: their own, once noticed)."""
    return visible(qs, user)


def may_open(user: Actor) -> bool:
    return has_role(user, *OPENERS)


# --- opening ------------------------------------------------------------------------------


def open_violation(
    actor: Actor | None,
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
            "Building Inspector (§ 196-22 A), and the plant's pretreatment coordinator "
            "(40 CFR 403.8(f)(2)(viii))."
        )
    if (town := foreign_to(actor, establishment or property)) is not None:
        raise Forbidden(
            f"Opening a violation: the premises are {town}'s, a town you do not act for."
        )
    if finding is not None and (not_violation := grounds.finding_refusal(finding)) is not None:
        raise Blocked(not_violation)  # a finding that is no violation: nothing to open
    day = timezone.localdate(at)
    errors: dict[str, list[str]] = {}
    cited = ""
    # the provision violated is cited as the record's town's law cites it
    own = town_ladder.own_law(town_of(establishment if establishment is not None else property))
    try:
        cited = rules.section(section) if own is None else town_ladder.cite_violated(own, section)
    except InvalidInput as e:
        errors.update(e.errors)
    else:
        # only a provision that imposes a duty or prohibition can be violated (grounds)
        if own is None and (no_duty := grounds.section_refusal(cited)) is not None:
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
    damage = own is None and rules.is_damage(cited)
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
                opened_by=person_or_none(actor),
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
                if actor is None:  # the daily job opens missed milestones only, never § 196-20
                    raise Forbidden("A referral for arrest (§ 196-20) is made by a person.")
                _refer_at_once(violation, actor, at)
    except IntegrityError:
        raise Blocked(
            f"Finding #{finding.pk if finding else ''} already has an open violation: one finding "
            "leads to at most one open violation."
        ) from None
    return violation


def _refer_at_once(violation: Violation, actor: Actor, at: datetime | None) -> None:
    """§ 196-20: referred for immediate arrest, without notice or correction clock."""
    before = audit.snapshot(violation)
    procedure = rules.procedure_for(violation.section)
    referral = _create_referral(
        violation,
        ReferralKind.ARREST,
        actor,
        timezone.localdate(at),
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
    actor: Actor,
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


# --- costs --------------------------------------------------------------------------------


def may_record_cost(user: Actor) -> bool:
    return has_role(user, *COST_RECORDERS)


def require_cost_recorder(actor: Actor) -> None:
    if not may_record_cost(actor):
        raise Forbidden(
            "Recording the Town's costs: reserved to the Superintendent, the engineer and the "
            "clerk (§ 196-22 C)."
        )


def record_cost(
    violation: Violation,
    actor: Actor,
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
    if incurred_on > timezone.localdate(at):
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
            recorded_by=signed_in(actor),
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
                citation=Violation.WORKFLOW.citation_on(locked, transition),  # a town's own step's
                state_from="served",
                state_to=locked.state,
                at=at,
            )
            moved += 1
    return moved


def is_outside(user: Actor) -> bool:
    return not is_staff_member(user)
