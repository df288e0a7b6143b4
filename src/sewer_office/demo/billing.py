"""The demo town's billing: permit fees invoiced and paid at the clerk's desk, and the money
side of the town's invoices — paid, partly paid and overdue — with a credit held and refunded.

The building sewer and subdivision permits take their fee step from the payment of their fee
invoice (:func:`pay_permit_fee`, called by the permit builders at the day of the fee step):
cash, checks with their numbers, cards and transfers with their references, in turn. Then
:func:`load_demo_billing` leaves part of the permits still waiting on their fee invoiced and
overdue, one of them partly paid, one credited in full by a credit note (its applicant
withdrew), and the homeowner ``owner`` an overpayment held as credit,
part of it refunded.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sewer_office.billing.invoices import credit_note
from sewer_office.billing.payments import (
    Allocation,
    issue_permit_fee_invoice,
    outstanding,
    record_payment,
    refund,
)
from sewer_office.core.services import perform
from sewer_office.permits.models import BuildingSewerPermit

if TYPE_CHECKING:
    from .build import Town

#: Methods of payment in turn, with how a reference is written for each.
METHODS = (
    ("check", "{n:04d}"),
    ("cash", ""),
    ("card", "AUTH {n:06d}"),
    ("transfer", "ACH {n:07d}"),
)


def pay_permit_fee(clerk: Any, permit: Any, at: datetime, paid_on: Any) -> Any:
    """Invoice the permit's fee and take its payment in full (the permit's fee step follows);
    the permit, reloaded."""
    invoice = issue_permit_fee_invoice(clerk, permit, at=at)
    method, ref = METHODS[permit.pk % len(METHODS)]
    record_payment(
        clerk,
        person=invoice.person,
        amount=invoice.total,
        method=method,
        reference=ref.format(n=1000 + permit.pk) if ref else "",
        received_on=paid_on,
        allocations=[Allocation(invoice)],
        at=at,
    )
    permit.refresh_from_db()
    return permit


def load_demo_billing(town: Town) -> None:
    """Fee invoices of the permits still waiting on their fee: overdue (the fee is due at
    filing), one partly paid; an overpayment held as credit and partly refunded."""
    clerk = town.users["clerk"]
    anchor_at = town.moment(0, 30)
    waiting = list(BuildingSewerPermit.objects.filter(state="submitted").order_by("filed_on", "id"))
    issued = []
    for permit in waiting[:3]:  # invoiced when filed: now past due
        filed = (town.anchor - permit.filed_on).days
        issued.append(issue_permit_fee_invoice(clerk, permit, at=town.moment(filed)))
    if issued:
        first = issued[0]
        record_payment(
            clerk,
            person=first.person,
            amount=(first.total / 2).quantize(Decimal("0.01")),
            method="check",
            reference="2291",
            received_on=town.anchor - timedelta(days=1),
            allocations=[Allocation(first)],
            notes="Half now, the rest with the next check.",
            at=town.moment(1),
        )
        assert outstanding(first) > 0
    if len(issued) == 3:  # the third applicant withdrew: its fee invoice credited in full
        withdrawn = waiting[2]
        credit_note(issued[2], clerk, "Application withdrawn before review; fee not due.",
                    issued_on=town.anchor - timedelta(days=1))  # fmt: skip
        perform(withdrawn, "withdraw", clerk, reason="Owner's written request.", at=town.moment(1))
    owner = town.owner_person
    assert owner is not None, "the homeowner is built before billing"
    record_payment(
        clerk,
        person=owner,
        amount="75.00",
        method="cash",
        received_on=town.anchor,
        notes="Paid at the counter before an invoice was issued: held as credit.",
        at=anchor_at,
    )
    refund(
        clerk,
        person=owner,
        amount="25.00",
        reason="Overpaid at the counter; part returned at the owner's request.",
        method="check",
        reference="5012",
        refunded_on=town.anchor,
        at=anchor_at + timedelta(minutes=5),
    )
