"""Credit applied and refunded: what a person paid and was not yet applied to an invoice.

A payment's rest is the person's credit (:mod:`.payments`). The clerk applies it later to
another invoice of the same person — oldest payment first, never beyond what the invoice owes —
or returns it, with the reason: a refund, out of the credit as a whole or out of one payment's
rest. Like recording a payment, each runs in one transaction with the person's row locked FOR
UPDATE, so two clerks cannot spend the same credit; a permit's fee invoice settled by credit
makes the permit's fee step. Apart from :mod:`.payments` (money received) because this is money
already held.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.core.amounts import dollars
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.registry.models import Person

from .balances import unapplied_of
from .models import Payment, PaymentApplication, Refund
from .payments import (
    PAYMENT_CITATION,
    ZERO,
    Allocation,
    apply_plan,
    check_reference,
    credit_of,
    lock_person,
    plan_allocations,
    require_money_role,
    settle_permit_fees,
    today_of,
)


def apply_credit(
    actor: Actor,
    *,
    person: Person,
    allocations: Sequence[Allocation],
    at: datetime | None = None,
) -> list[PaymentApplication]:
    """Apply the person's credit (earlier payments not yet applied) to invoices, oldest
    payment first."""
    require_money_role(actor, "Applying credit")
    if not allocations:
        raise InvalidInput({"invoices": ["Name the invoice to apply the credit to."]})
    when = at or timezone.now()
    with transaction.atomic():
        who = lock_person(person)
        payments = list(Payment.objects.filter(person=who).order_by("received_on", "id"))
        left = unapplied_of(payments)
        # refunds not tied to a payment come out of the credit as a whole
        credit = min(sum((v for v in left.values() if v > 0), ZERO), credit_of(who))
        if credit <= 0:
            raise Blocked(f"{who.name} has no credit to apply.")
        plan = plan_allocations(who, allocations, credit)
        if not plan:
            raise InvalidInput({"amount": ["Nothing to apply."]})
        applications = apply_plan(actor, [p for p in payments if left[p.pk] > 0], plan, when)
        last = max((a.payment for a in applications), key=lambda p: (p.received_on, p.pk))
        settle_permit_fees(actor, [inv for inv, _ in plan], last, when)
    return applications


def refund(
    actor: Actor,
    *,
    person: Person,
    amount: Any,
    reason: str,
    method: str,
    reference: str = "",
    refunded_on: date | None = None,
    payment: Payment | None = None,
    at: datetime | None = None,
) -> Refund:
    """Return money to ``person`` out of its credit (out of one payment's unapplied rest when
    ``payment`` is named), with the reason."""
    require_money_role(actor, "Recording a refund")
    total = dollars(amount, "amount")
    if not reason.strip():
        raise InvalidInput({"reason": ["A refund needs its reason."]})
    reference = reference.strip()
    check_reference(method, reference)
    when = at or timezone.now()
    day = refunded_on or today_of(when)
    with transaction.atomic():
        who = lock_person(person)
        if payment is not None:
            if payment.person_id != who.pk:
                raise InvalidInput({"payment": ["That payment was made by another person."]})
            available = min(unapplied_of([payment])[payment.pk], credit_of(who))
            source = f"payment {payment.receipt_number}"
        else:
            available = credit_of(who)
            source = f"{who.name}'s credit"
        if total > available:
            raise Blocked(
                f"A refund of USD {total:,} is more than the USD {max(available, ZERO):,} of "
                f"{source}: only credit is refunded."
            )
        return audit.create_recorded(
            Refund,
            {
                "person": who,
                "payment": payment,
                "refunded_on": day,
                "method": method,
                "reference": reference,
                "amount": total,
                "reason": reason.strip(),
                "recorded_by": actor,
                "recorded_at": when,
            },
            actor=actor,
            action="refund",
            citation=PAYMENT_CITATION,
            at=when,
        )
