"""Fines through the court (§ 196-22 B): the court's judgment and what was collected on it.

The office never bills its own count of a fine. The referral for prosecution keeps the count as
it stood (``liability.fines_as_referred``); the court's :class:`~.models.Judgment` states the
fine imposed (:func:`record_judgment`); each :class:`~.models.Collection` records money
received on it. This module holds what enforcement knows alone: who may record them, the
checks of a collection's date and amount against the judgment (:func:`check_collection`,
:func:`check_uncollected`) and the writing of its record (:func:`write_collection`).

Money the *Town* receives is the Town's books: the charge, the invoice and the payment with
its receipt are billing's, so recording a collection — by the court or by the Town — goes
through ``billing.enforcement.record_collection`` (billing sits above enforcement and uses
these checks; enforcement never imports billing). The Town's costs (§ 196-22 C) are billed
there too (``billing.enforcement.bill_costs``).

Every service checks the actor's role and writes its audit event in the same transaction.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.amounts import CENT, dollars
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput

from .choices import CollectedBy, ReferralKind
from .models import Collection, Judgment, Referral, Violation

FINES_CITATION = "§ 196-22 B"
#: Who records the court's judgment and what was collected on it: the Superintendent (who
#: referred the matter) and the clerk (who keeps the Town's books). Money the Town itself
#: receives is taken by the clerk alone, with a receipt (as every payment).
JUDGMENT_RECORDERS = frozenset({SUPERINTENDENT, CLERK})


def _today(at: datetime | None) -> date:
    return timezone.localdate(at) if at is not None else timezone.localdate()


# --- fines: judgment and collections (§ 196-22 B) ------------------------------------------


def may_record_judgment(user: Actor) -> bool:
    return has_role(user, *JUDGMENT_RECORDERS)


def require_judgment_recorder(actor: Actor, what: str) -> None:
    if not may_record_judgment(actor):
        raise Forbidden(f"{what}: reserved to the Superintendent and the clerk (§ 196-22 B).")


def judgeable_referrals(violation: Violation) -> list[Referral]:
    """Referrals for prosecution (§ 196-22 B) with no judgment recorded yet."""
    return [
        r
        for r in violation.referrals.filter(kind=ReferralKind.TOWN_ATTORNEY)
        if not hasattr(r, "judgment")
    ]


def record_judgment(
    violation: Violation,
    actor: Actor,
    *,
    court: str,
    docket: str,
    judgment_on: date | None,
    fine_amount: Any,
    note: str = "",
    referral: Referral | None = None,
    at: datetime | None = None,
) -> Judgment:
    """The court's judgment on the referral for prosecution: the fine imposed on conviction
    (§ 196-22 B), as the court's papers state it. Written once, audited."""
    require_judgment_recorder(actor, "Recording a judgment")
    errors: dict[str, list[str]] = {}
    open_referrals = judgeable_referrals(violation)
    if referral is None:
        referral = open_referrals[-1] if open_referrals else None
    if referral is None or referral.violation_id != violation.pk:
        raise Blocked(
            f"{violation.number} has no referral to the Town Attorney for prosecution awaiting "
            "a judgment (§ 196-22 B: a fine is imposed by the court on conviction)."
        )
    if referral not in open_referrals:
        raise Blocked(f"A judgment is already recorded on the referral of {referral.referred_on}.")
    if not court.strip():
        errors["court"] = ["Name the court (e.g. the Town Justice Court)."]
    if not docket.strip():
        errors["docket"] = ["Give the court's docket or index number."]
    problem = _day_problem(
        judgment_on,
        "Give the date of the judgment.",
        _today(at),
        referral.referred_on,
        "the matter was referred",
    )
    if problem:
        errors["judgment_on"] = [problem]
    amount = Decimal(0)
    try:
        # a conviction without a fine (e.g. a conditional discharge) is recorded at zero
        if str(fine_amount).strip() not in ("0", "0.0", "0.00"):
            amount = dollars(fine_amount, "fine_amount")
    except InvalidInput as e:
        errors.update(e.errors)
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        return audit.create_recorded(
            Judgment,
            {
                "violation": violation,
                "referral": referral,
                "court": court.strip(),
                "docket": docket.strip(),
                "judgment_on": judgment_on,
                "fine_amount": amount,
                "note": note.strip(),
                "recorded_by": actor,
                "recorded_at": at or timezone.now(),
            },
            actor=actor,
            action="record_judgment",
            citation=FINES_CITATION,
            at=at,
        )


def _day_problem(
    day: date | None, missing: str, today: date, earliest: date, earliest_what: str
) -> str:
    """Why ``day`` cannot be a step's date (none given, in the future, before the step it
    follows), or "" when it can: a judgment follows its referral, a collection its judgment."""
    if day is None:
        return missing
    if day > today:
        return f"{day} is in the future."
    if day < earliest:
        return f"{day} is before {earliest_what} ({earliest})."
    return ""


def collected(judgment: Judgment, by: str | None = None) -> Decimal:
    """What was collected on ``judgment`` (by the Town or the court, or both)."""
    qs = judgment.collections.all()
    if by is not None:
        qs = qs.filter(collected_by=by)
    return Decimal(qs.aggregate(s=Sum("amount"))["s"] or 0).quantize(CENT)


def check_collection(
    judgment: Judgment,
    actor: Actor,
    *,
    amount: Any,
    collected_on: date | None,
    collected_by: str,
    at: datetime | None = None,
) -> Decimal:
    """What a collection on the fine the court imposed (§ 196-22 B) must be before anything is
    written: recorded by the Superintendent or
    the clerk, by the Town or the court, dated between the judgment and today, of a positive
    amount (returned). Each refusal names its field."""
    require_judgment_recorder(actor, "Recording a collection")
    errors: dict[str, list[str]] = {}
    if collected_by not in CollectedBy.values:
        errors["collected_by"] = ["Say who collected it: the Town or the court."]
    problem = _day_problem(
        collected_on,
        "Give the date the money was received.",
        _today(at),
        judgment.judgment_on,
        "the judgment",
    )
    if problem:
        errors["collected_on"] = [problem]
    total = Decimal(0)
    try:
        total = dollars(amount, "amount")
    except InvalidInput as e:
        errors.update(e.errors)
    if errors:
        raise InvalidInput(errors)
    return total


def check_uncollected(locked: Judgment, total: Decimal) -> Decimal:
    """What of the fine is still uncollected (``locked`` held for update); refused when
    ``total`` is more: never more is collected than the court imposed."""
    left = locked.fine_amount - collected(locked)
    if total > left:
        raise InvalidInput(
            {
                "amount": [
                    f"USD {total:,} is more than the USD {left:,} of the fine still "
                    f"uncollected (fine USD {locked.fine_amount:,})."
                ]
            }
        )
    return left


def write_collection(
    locked: Judgment,
    actor: Actor,
    *,
    amount: Decimal,
    collected_on: date,
    collected_by: str,
    reference: str = "",
    payment: Any = None,
    note: str = "",
    at: datetime | None = None,
) -> Collection:
    """The collection's record, written once and audited (``payment``: the Town's payment
    with its receipt, when the Town collected). Called inside the caller's transaction, after
    :func:`check_collection` and :func:`check_uncollected`."""
    return audit.create_recorded(
        Collection,
        {
            "judgment": locked,
            "amount": amount,
            "collected_on": collected_on,
            "collected_by": collected_by,
            "reference": reference.strip(),
            "payment": payment,
            "note": note.strip(),
            "recorded_by": actor,
            "recorded_at": at or timezone.now(),
        },
        actor=actor,
        action="record_collection",
        citation=FINES_CITATION,
        at=at,
    )
