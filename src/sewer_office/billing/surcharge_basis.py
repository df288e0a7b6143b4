"""Recording what a surcharge rests on: § 196-19 E(1)(d) decisions and § 196-19 J agreements.

Who records them:

- a decision only the Superintendent: § 196-19 E(1) gives the power ("the Superintendent may
  ... (d) Require payment") to the Superintendent and to no one else;
- an agreement the Superintendent or the clerk: the agreement is the Town's (approved by the
  Town Board, signed for the Town); the office records it as a document of the Town, as the
  clerk records the Board's other acts, and the Superintendent who administers it may too.

A decision requires payment from its own date at the earliest (``first_day`` not before
``decided_on``): a decision does not reach back to days the user discharged without one. An
agreement's days are what the parties signed, earlier or later.

Both are determinations of Article VII (§ 196-19 E(1)(d), J): refused for a facility of a town
whose law is its own, before anything is written.

Nothing recorded here is edited or deleted: an end before the record's own last day is a
:class:`~sewer_office.billing.models.SurchargeEnding` with its reason; a change of terms is a
new record that supersedes the old one with its reason. Each act writes an audit event in the
same transaction.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import Q

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.town_law import require_article_for
from sewer_office.registry.models import Establishment
from sewer_rules.billing.authority import AGREEMENT, DECISION, Basis

from .choices import DecisionBasis
from .models import SurchargeAgreement, SurchargeDecision, SurchargeEnding

DECISION_CITATION = "§ 196-19 E(1)(d)"
AGREEMENT_CITATION = "§ 196-19 J"
DECISION_ROLES = (SUPERINTENDENT,)
AGREEMENT_ROLES = (SUPERINTENDENT, CLERK)

SurchargeRecord = SurchargeDecision | SurchargeAgreement


def may_decide(actor: Actor) -> bool:
    return has_role(actor, *DECISION_ROLES)


def may_record_agreement(actor: Actor) -> bool:
    return has_role(actor, *AGREEMENT_ROLES)


def _require(actor: Actor, kind: str) -> None:
    if kind == DECISION and not may_decide(actor):
        raise Forbidden(
            "A surcharge decision is the Superintendent's alone (§ 196-19 E(1): "
            '"the Superintendent may ... (d) Require payment").'
        )
    if kind == AGREEMENT and not may_record_agreement(actor):
        raise Forbidden("A § 196-19 J agreement is recorded by the Superintendent or the clerk.")


def _text(value: Any) -> str:
    return str(value or "").strip()


def _check_days(
    errors: dict[str, list[str]], first_day: date | None, last_day: date | None
) -> None:
    if first_day is None:
        errors.setdefault("first_day", []).append("Give the first day payment is required.")
    elif last_day is not None and last_day < first_day:
        errors.setdefault("last_day", []).append(
            f"The last day ({last_day}) is before the first day ({first_day})."
        )


def _check_supersedes(
    errors: dict[str, list[str]],
    old: SurchargeRecord | None,
    establishment: Establishment,
    first_day: date | None,
    reason: str,
) -> None:
    if old is None:
        return
    if old.establishment_id != establishment.pk:
        errors.setdefault("supersedes", []).append(
            f"{old} is another facility's: a record supersedes one of its own facility."
        )
    elif old.successors.exists():
        errors.setdefault("supersedes", []).append(f"{old} is already superseded.")
    elif first_day is not None and first_day <= old.first_day:
        errors.setdefault("first_day", []).append(
            f"A superseding record starts after the one it supersedes ({old.first_day})."
        )
    if not reason:
        errors.setdefault("supersede_reason", []).append(
            "Say why the earlier record is superseded."
        )


def record_decision(
    establishment: Establishment,
    actor: Actor,
    *,
    basis: str,
    first_day: date | None,
    decided_on: date | None,
    reasons: str,
    last_day: date | None = None,
    reference: str = "",
    supersedes: SurchargeDecision | None = None,
    supersede_reason: str = "",
) -> SurchargeDecision:
    """Record the Superintendent's decision requiring payment for the facility's wastes
    (§ 196-19 E(1)(d)): what a billing run bills, for its days only."""
    _require(actor, DECISION)
    require_article_for(establishment, f"A surcharge decision ({DECISION_CITATION})")
    errors: dict[str, list[str]] = {}
    if basis not in DecisionBasis.values:
        errors["basis"] = [
            "Say whether payment is required instead of pretreatment or beside it "
            f"({', '.join(DecisionBasis.values)})."
        ]
    if decided_on is None:
        errors["decided_on"] = ["Give the date of the decision."]
    if not _text(reasons):
        errors["reasons"] = ["State the reasons of the decision (the wastes, the added cost)."]
    _check_days(errors, first_day, last_day)
    if first_day is not None and decided_on is not None and first_day < decided_on:
        errors.setdefault("first_day", []).append(
            f"Payment is required from the decision's date ({decided_on}) at the earliest: "
            "a decision does not reach back."
        )
    _check_supersedes(errors, supersedes, establishment, first_day, _text(supersede_reason))
    if errors:
        raise InvalidInput(errors)
    assert first_day is not None and decided_on is not None
    return audit.create_recorded(
        SurchargeDecision,
        {
            "establishment": establishment,
            "basis": basis,
            "first_day": first_day,
            "last_day": last_day,
            "decided_on": decided_on,
            "reasons": _text(reasons),
            "reference": _text(reference),
            "supersedes": supersedes,
            "supersede_reason": _text(supersede_reason),
            "recorded_by": actor,
        },
        actor=actor,
        action="billing.surcharge_decision_recorded",
        reason=_text(supersede_reason),
        citation=DECISION_CITATION,
    )


def _rate(errors: dict[str, list[str]], name: str, value: object) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        rate = Decimal(str(value).strip())
    except ArithmeticError:
        errors[name] = [f"{value!r} is not a rate in USD per pound."]
        return None
    if not rate.is_finite() or rate < 0:
        errors[name] = [f"{value!r}: a rate is a number of USD per pound, not negative."]
        return None
    return rate


class AgreedRates(TypedDict, total=False):
    """The rates of an agreement (§ 196-19 J), USD per pound of each strength above normal, as
    the page's form (decimals) or the API (text) gives them; one left out or empty is not
    agreed (stored empty)."""

    bod: Decimal | str | None
    suspended_solids: Decimal | str | None
    grease_oil: Decimal | str | None


def record_agreement(
    establishment: Establishment,
    actor: Actor,
    *,
    parties: str,
    terms: str,
    first_day: date | None,
    signed_on: date | None,
    signed_by: str,
    board_approval: str,
    last_day: date | None = None,
    rates: AgreedRates | None = None,
    supersedes: SurchargeAgreement | None = None,
    supersede_reason: str = "",
) -> SurchargeAgreement:
    """Record a special agreement of the Town with the facility's concern, with its terms
    (§ 196-19 J): what a billing run bills, for its days and at its rates."""
    _require(actor, AGREEMENT)
    require_article_for(establishment, f"A surcharge agreement ({AGREEMENT_CITATION})")
    errors: dict[str, list[str]] = {}
    for name, value, why in (
        ("parties", parties, "Name the parties (the Town and the industrial concern)."),
        ("terms", terms, "State the terms agreed."),
        ("signed_by", signed_by, "Say who signed, for each party."),
        (
            "board_approval",
            board_approval,
            "Give the Town Board's approval (resolution number and date).",
        ),
    ):
        if not _text(value):
            errors[name] = [why]
    if signed_on is None:
        errors["signed_on"] = ["Give the date the agreement was signed."]
    _check_days(errors, first_day, last_day)
    given: AgreedRates = rates or {}
    agreed = {
        "bod": _rate(errors, "rate_bod", given.get("bod")),
        "suspended_solids": _rate(errors, "rate_suspended_solids", given.get("suspended_solids")),
        "grease_oil": _rate(errors, "rate_grease_oil", given.get("grease_oil")),
    }
    _check_supersedes(errors, supersedes, establishment, first_day, _text(supersede_reason))
    if errors:
        raise InvalidInput(errors)
    assert first_day is not None and signed_on is not None
    return audit.create_recorded(
        SurchargeAgreement,
        {
            "establishment": establishment,
            "parties": _text(parties),
            "terms": _text(terms),
            "first_day": first_day,
            "last_day": last_day,
            "signed_on": signed_on,
            "signed_by": _text(signed_by),
            "board_approval": _text(board_approval),
            "rate_bod": agreed["bod"],
            "rate_suspended_solids": agreed["suspended_solids"],
            "rate_grease_oil": agreed["grease_oil"],
            "supersedes": supersedes,
            "supersede_reason": _text(supersede_reason),
            "recorded_by": actor,
        },
        actor=actor,
        action="billing.surcharge_agreement_recorded",
        reason=_text(supersede_reason),
        citation=AGREEMENT_CITATION,
    )


def end_record(
    record: SurchargeRecord, actor: Actor, *, last_day: date | None, reason: str
) -> SurchargeEnding:
    """End a decision or agreement after ``last_day`` (a new record, with its reason)."""
    decision = record if isinstance(record, SurchargeDecision) else None
    agreement = record if isinstance(record, SurchargeAgreement) else None
    kind = DECISION if decision is not None else AGREEMENT
    _require(actor, kind)
    errors: dict[str, list[str]] = {}
    current = record.effective_last_day()
    if last_day is None:
        errors["last_day"] = ["Give the last day it is in force."]
    elif last_day < record.first_day - timedelta(days=1):
        errors["last_day"] = [
            f"{last_day} is more than a day before it starts ({record.first_day}); the day "
            "before its first day means it was never in force."
        ]
    elif current is not None and last_day >= current:
        errors["last_day"] = [f"It already ends on {current}: an ending shortens, never extends."]
    if not _text(reason):
        errors["reason"] = ["Say why it ends."]
    if errors:
        raise InvalidInput(errors)
    assert last_day is not None
    with transaction.atomic():
        ending = SurchargeEnding.objects.create(
            decision=decision,
            agreement=agreement,
            last_day=last_day,
            reason=_text(reason),
            recorded_by=signed_in(actor),
        )
        audit.record(
            actor=actor,
            action=f"billing.surcharge_{kind}_ended",
            obj=record,
            after=audit.snapshot(ending),
            reason=_text(reason),
            citation=DECISION_CITATION if kind == DECISION else AGREEMENT_CITATION,
        )
    return ending


def as_basis(record: SurchargeRecord) -> Basis:
    """The rule's view of a record: its kind, days and agreed rates."""
    if isinstance(record, SurchargeDecision):
        return Basis(
            DECISION,
            f"decision-{record.pk}",
            record.first_day,
            record.effective_last_day(),
            f"§ 196-19 E(1)(d) decision of {record.decided_on}",
        )
    return Basis(
        AGREEMENT,
        f"agreement-{record.pk}",
        record.first_day,
        record.effective_last_day(),
        f"§ 196-19 J agreement signed {record.signed_on} ({record.board_approval})",
        {k: Decimal(str(v)) for k, v in record.rates().items()},
    )


def bases_by_facility(start: date, end: date) -> dict[int, list[Basis]]:
    """Every facility's decisions and agreements that may touch ``start``..``end`` (bulk)."""
    found: dict[int, list[Basis]] = defaultdict(list)
    near = Q(first_day__lte=end) & (Q(last_day__isnull=True) | Q(last_day__gte=start))
    for model in (SurchargeDecision, SurchargeAgreement):
        qs = model.objects.filter(near).prefetch_related("endings", "successors")
        for rec in qs:
            found[rec.establishment_id].append(as_basis(rec))
    return found


def records_of(establishment: Establishment) -> list[SurchargeRecord]:
    """A facility's decisions and agreements, latest first."""
    recs: list[SurchargeRecord] = [
        *SurchargeDecision.objects.filter(establishment=establishment).prefetch_related(
            "endings", "successors"
        ),
        *SurchargeAgreement.objects.filter(establishment=establishment).prefetch_related(
            "endings", "successors"
        ),
    ]
    return sorted(recs, key=lambda r: (r.first_day, r.recorded_at), reverse=True)
