"""Escalation and referral (§ 196-22 B, D): the next response of the guide when a notice goes
unanswered, and the referrals to the Town Attorney (the fine, as counted on the day) or for
prosecution. What the workflow's ``escalate``, ``refer_fine`` and ``refer`` transitions do,
inside :func:`sewer_office.core.services.perform`'s transaction."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked

from . import grounds, letters, rules
from .choices import (
    REFERRAL_CITATIONS,
    RESPONSE_REFERRALS,
    ReferralKind,
)
from .facts import EscalationFacts, FineReferralFacts, ReferralFacts
from .liability import fines, fines_as_referred
from .models import Referral, Violation
from .notices import _create_notice
from .town_ladder import current_step, next_ladder_step, own_law_of, step_response, taken


def responses_taken(violation: Violation) -> list[str]:
    codes = [n.response for n in violation.notices.all()]
    codes += [r.response for r in violation.referrals.all() if r.response]
    return codes


def next_step(violation: Violation, day: date | None = None) -> rules.Response | None:
    """The guide's next response for this violation, or None when it names no further step;
    for a violation of a town whose law is its own, the next step of its ladder (an order of
    that law), or None after its last."""
    if (own := own_law_of(violation)) is not None:
        later = next_ladder_step(own[1], taken(violation))
        return None if later is None else step_response(later)
    if not rules.procedure_for(violation.section).correction_clock:
        return None
    return rules.following(violation.kind, day or timezone.localdate(), responses_taken(violation))


def guard_escalate(violation: Violation, facts: EscalationFacts) -> str | None:
    if (refused := grounds.refusal_of(violation)) is not None:
        return f"No further notice or referral can be made: {refused}"
    if (own := own_law_of(violation)) is not None and next_step(violation) is None:
        law = own[1]
        return (
            f"{law.name}'s ladder names no further step after "
            f"{current_step(law, violation).label} ({current_step(law, violation).citation})."
        )
    if next_step(violation) is None:
        return (
            "The response guide names no further step for this violation: the matter rests "
            "with the Town Attorney and the court."
        )
    return None


def _create_referral(
    violation: Violation,
    kind: str,
    actor: Actor,
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
        referred_by=signed_in(actor),
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


def guard_refer_fine(violation: Violation, facts: FineReferralFacts) -> str | None:
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


def effect_refer_fine(
    violation: Violation, facts: FineReferralFacts, actor: Actor, at: datetime
) -> None:
    """The fine for the days late referred for prosecution (§ 196-22 B); the violation stays
    where it is (corrected, or its correction under review): only a court imposes the fine."""
    _create_referral(
        violation,
        ReferralKind.TOWN_ATTORNEY,
        actor,
        timezone.localdate(at),
        referred_to=facts["referred_to"],
        note=facts["note"],
        at=at,
    )


def effect_escalate(
    violation: Violation, facts: EscalationFacts, actor: Actor, at: datetime
) -> None:
    """The guide's next step after an uncorrected deadline: a second notice or an order
    (§ 196-22 A), a referral to the Town Attorney for prosecution (§ 196-22 B) or a request for
    an injunction (§ 196-22 D), recorded; the court's proceedings are not the office's."""
    step = next_step(violation, timezone.localdate(at))
    if step is None:  # guarded; kept for a concurrent change
        raise Blocked("The response guide names no further step for this violation.")
    if step.code in RESPONSE_REFERRALS:
        _create_referral(
            violation,
            RESPONSE_REFERRALS[step.code],
            actor,
            timezone.localdate(at),
            response=step.code,
            referred_to=facts["referred_to"] or "Town Attorney",
            at=at,
        )
        violation.state = "referred"
    else:
        _create_notice(violation, step, facts, actor, at)
        violation.state = "notice_issued"


def effect_refer(violation: Violation, facts: ReferralFacts, actor: Actor, at: datetime) -> None:
    """A referral recorded: to the police for arrest (§ 196-20; the chapter is enforced by the
    police and the Superintendent of Highways, § 196-21 D), to the Town Attorney for
    prosecution (§ 196-22 B) or for an injunction (§ 196-22 D)."""
    kind = facts["kind"]
    code = next((c for c, k in RESPONSE_REFERRALS.items() if k == kind), "")
    _create_referral(
        violation,
        kind,
        actor,
        timezone.localdate(at),
        response=code,
        referred_to=facts["referred_to"],
        note=facts["note"],
        at=at,
    )
