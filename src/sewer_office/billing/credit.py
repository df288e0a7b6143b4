"""Credit applied and refunded: what a person paid and was not yet applied to an invoice.

A payment's rest is the person's credit (:mod:`.payments`). The clerk applies it later to
another invoice of the same person — oldest payment first, never beyond what the invoice owes —
or returns it, with the reason: a refund, out of the credit as a whole or out of one payment's
rest. Like recording a payment, each runs in one transaction with the person's row locked FOR
UPDATE, so two clerks cannot spend the same credit; a permit's fee invoice settled by credit
makes the permit's fee step. Apart from :mod:`.payments` (money received) because this is money
already held.

A person's credit is held per town (:mod:`.books`): credit is applied to invoices of the town
whose books hold it, and a refund comes out of the credit of its payment's town (without a
payment: the town named, else the one the clerk acts for, else the one town holding credit).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import towns_of
from sewer_office.accounts.towns import installed, primary, several
from sewer_office.core import audit
from sewer_office.core.amounts import dollars
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.registry.models import Person

from .balances import unapplied_of
from .books import invoices_town, named_town, require_acting_for
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
    payment first: the credit held in the books of the invoices' town (one town at a time)."""
    require_money_role(actor, "Applying credit")
    if not allocations:
        raise InvalidInput({"invoices": ["Name the invoice to apply the credit to."]})
    town = invoices_town([a.invoice for a in allocations], "Applying credit") or primary()
    require_acting_for(actor, town, "Applying credit")
    when = at or timezone.now()
    with transaction.atomic():
        who = lock_person(person)
        payments = list(
            Payment.objects.filter(person=who, jurisdiction=town).order_by("received_on", "id")
        )
        left = unapplied_of(payments)
        # refunds not tied to a payment come out of the town's credit as a whole
        credit = min(sum((v for v in left.values() if v > 0), ZERO), credit_of(who, (town,)))
        if credit <= 0:
            _refuse_no_credit(who, town, allocations[0].invoice)
        plan = plan_allocations(who, allocations, credit)
        if not plan:
            raise InvalidInput({"amount": ["Nothing to apply."]})
        applications = apply_plan(actor, [p for p in payments if left[p.pk] > 0], plan, when)
        last = max((a.payment for a in applications), key=lambda p: (p.received_on, p.pk))
        settle_permit_fees(actor, [inv for inv, _ in plan], last, when)
    return applications


def _refuse_no_credit(who: Person, town: str, invoice: Any) -> None:
    """No credit in ``town``'s books: say where the person's credit is held, if anywhere."""
    elsewhere = [t for t in installed() if t != town and credit_of(who, (t,)) > 0]
    if elsewhere:
        raise Blocked(
            f"{who.name}'s credit is held in {', '.join(elsewhere)}'s books and invoice "
            f"{invoice.number} is {town}'s: a town's money pays that town's invoices only."
        )
    raise Blocked(f"{who.name} has no credit to apply.")


def refund_town(actor: Actor, person: Person, payment: Payment | None, town: str = "") -> str:
    """The books a refund comes out of: its payment's town; without one, ``town`` when named,
    else the one town the clerk acts for, else the one of theirs holding the person's credit,
    else the primary."""
    named = named_town(town) if town else ""
    if payment is not None:
        if named and named != payment.jurisdiction:
            raise InvalidInput(
                {"town": [f"Payment {payment.receipt_number} is {payment.jurisdiction}'s."]}
            )
        return str(payment.jurisdiction)
    if named:
        return named
    acting = towns_of(actor)
    holding = [t for t in acting if credit_of(person, (t,)) > 0]
    if len(acting) == 1 or len(holding) == 1:
        return (acting if len(acting) == 1 else holding)[0]
    return primary()


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
    town: str = "",
) -> Refund:
    """Return money to ``person`` out of its credit (out of one payment's unapplied rest when
    ``payment`` is named), with the reason: the credit held in one town's books
    (:func:`refund_town`)."""
    require_money_role(actor, "Recording a refund")
    books = refund_town(actor, person, payment, town)
    require_acting_for(actor, books, "Recording a refund")
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
            available = min(unapplied_of([payment])[payment.pk], credit_of(who, (books,)))
            source = f"payment {payment.receipt_number}"
        else:
            available = credit_of(who, (books,))
            source = f"{who.name}'s credit" + (f" in {books}'s books" if several() else "")
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
                "jurisdiction": books,
            },
            actor=actor,
            action="refund",
            citation=PAYMENT_CITATION,
            at=when,
        )
