"""Money received: payments, their applications to invoices, the credit they leave.

The clerk records a payment (cash; a check with its number; a card or a transfer with its
reference — required), and it takes the next receipt number of the year, without gaps
(series ``receipt``). A payment is applied to invoices of the same person — partly, or in
full — never beyond an invoice's outstanding amount; what is not applied is the person's
credit, which the clerk may apply later to another invoice or refund with a reason (both in
:mod:`.credit`). The permits' fee invoices are issued by :mod:`.permit_fees`.

Every service here runs in one transaction, with the person's row locked FOR UPDATE (so two
clerks cannot spend the same credit, nor overpay the same invoice) and an audit event for
each record written. Payments, applications and refunds are written once: a mistake is
corrected by a refund (with its reason) or a credit note, never by an edit.

In an office of several member towns a payment is received into one town's books — the town
of the invoices it pays (a payment spanning two towns' invoices is refused), else the town the
clerk acts for — and pays that town's invoices only; a person's credit is held per town
(:mod:`.books`).

When a payment settles an invoice carrying a permit's fee (the building sewer permit's
permit and inspection fee, § 196-18 B; the subdivision sewer fee, § 196-23 C), billing makes
the permit's fee step (``record_fee_payment``) through :func:`core.services.perform`, with the
payment's date and receipt number, in the same transaction: the step is no longer a checkbox
on the permit (its transition is ``automatic`` in the permit's workflow).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, has_role
from sewer_office.core import audit
from sewer_office.core.amounts import CENT, dollars
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.services import perform
from sewer_office.registry.models import Person

from .balances import sums_by, unapplied_of
from .books import in_towns, payment_town, require_same_town
from .choices import (
    METHODS_NEEDING_REFERENCE,
    ChargeSource,
    InvoiceKind,
    InvoiceState,
    PaymentMethod,
    Series,
)
from .models import Invoice, InvoiceLine, Payment, PaymentApplication, Refund
from .numbers import next_number
from .receipts import issue_receipt

ZERO = Decimal("0.00")
#: Who records money (§ 196-18 B: fees "paid to the Town" — the clerk takes them).
MONEY_ROLES = frozenset({CLERK})
#: Charges whose settlement makes a permit's fee step, and the step it makes.
FEE_STEPS: dict[str, str] = {
    ChargeSource.BUILDING_SEWER_FEE: "record_fee_payment",
    ChargeSource.SUBDIVISION_FEE: "record_fee_payment",
}
PAYMENT_CITATION = "§ 196-15 PERSON"


def may_record_money(user: Actor) -> bool:
    return has_role(user, *MONEY_ROLES)


def require_money_role(actor: Actor, what: str) -> None:
    if not may_record_money(actor):
        raise Forbidden(f"{what}: reserved to the clerk, who takes the Town's money.")


def today_of(at: datetime | None) -> date:
    """The local day of ``at`` (today when None): the day a payment or refund is dated."""
    return timezone.localdate(at) if at is not None else timezone.localdate()


# --- reading balances ------------------------------------------------------------------------


def outstanding_of(invoices: Iterable[Invoice]) -> dict[int, Decimal]:
    """What is still owed on each invoice: its total, less its credit notes (issued, not void)
    and the payments applied to it. A void invoice or a credit note owes nothing."""
    rows = list(invoices)
    ids = [i.pk for i in rows]
    applied = sums_by(PaymentApplication.objects.filter(invoice_id__in=ids), "invoice_id")
    credited = sums_by(
        Invoice.objects.filter(
            credits_id__in=ids, kind=InvoiceKind.CREDIT_NOTE, state=InvoiceState.ISSUED
        ),
        "credits_id",
        "total",
    )
    out: dict[int, Decimal] = {}
    for inv in rows:
        if inv.kind != InvoiceKind.INVOICE or inv.state != InvoiceState.ISSUED:
            out[inv.pk] = ZERO
            continue
        left = Decimal(inv.total) - abs(Decimal(credited.get(inv.pk) or 0))
        left -= Decimal(applied.get(inv.pk) or 0)
        out[inv.pk] = max(left, ZERO).quantize(CENT)
    return out


def outstanding(invoice: Invoice) -> Decimal:
    return outstanding_of([invoice])[invoice.pk]


def credit_of(person: Person, towns: Collection[str] | None = None) -> Decimal:
    """The person's credit: payments received, less what was applied and what was refunded —
    in the books of ``towns`` (every town's when ``None``: each town holds its own)."""
    paid = in_towns(Payment.objects.filter(person=person), towns)
    applied = in_towns(
        PaymentApplication.objects.filter(payment__person=person), towns, "payment__jurisdiction"
    )
    refunded = in_towns(Refund.objects.filter(person=person), towns)
    return (
        Decimal(paid.aggregate(s=Sum("amount"))["s"] or ZERO)
        - Decimal(applied.aggregate(s=Sum("amount"))["s"] or ZERO)
        - Decimal(refunded.aggregate(s=Sum("amount"))["s"] or ZERO)
    ).quantize(CENT)


def open_invoices(
    person: Person, towns: Collection[str] | None = None
) -> list[tuple[Invoice, Decimal]]:
    """The person's invoices with something outstanding, oldest due first (those of ``towns``'
    books when given)."""
    invoices = list(
        in_towns(
            Invoice.objects.filter(
                person=person, kind=InvoiceKind.INVOICE, state=InvoiceState.ISSUED
            ),
            towns,
        ).order_by("due_on", "issued_on", "id")
    )
    left = outstanding_of(invoices)
    return [(i, left[i.pk]) for i in invoices if left[i.pk] > 0]


# --- receipt numbers -------------------------------------------------------------------------


def next_receipt_number(year: int) -> str:
    """The next receipt number of ``year`` (``R2026-0001``), without gaps: the sequence row is
    locked FOR UPDATE until the caller's transaction ends (call inside it)."""
    return next_number(Series.RECEIPT, year)[1]


# --- recording payments ----------------------------------------------------------------------


@dataclass(frozen=True)
class Allocation:
    """Part of a payment (or of credit) to apply to one invoice; ``amount`` None: as much as
    the invoice still owes (within what is left to apply)."""

    invoice: Invoice
    amount: Decimal | None = None


def check_reference(method: str, reference: str) -> None:
    """A check needs its number, a card or a transfer its reference (cash needs none)."""
    if method not in PaymentMethod.values:
        raise InvalidInput({"method": [f"{method!r} is not a method of payment."]})
    if method in METHODS_NEEDING_REFERENCE and not reference.strip():
        what = "check number" if method == PaymentMethod.CHECK else "reference"
        raise InvalidInput(
            {"reference": [f"A payment by {PaymentMethod(method).label.lower()} needs its {what}."]}
        )


def lock_person(person: Person) -> Person:
    """The person's row locked FOR UPDATE: two clerks never spend the same credit."""
    return Person.objects.select_for_update().get(pk=person.pk)


def plan_allocations(
    person: Person, allocations: Sequence[Allocation], available: Decimal
) -> list[tuple[Invoice, Decimal]]:
    """The amounts to apply, checked: the person's own issued invoices, each at most what it
    owes, all together at most ``available``. Invoices are locked FOR UPDATE."""
    ids = [a.invoice.pk for a in allocations]
    if len(set(ids)) != len(ids):
        raise InvalidInput({"invoices": ["An invoice is named twice."]})
    locked = {
        i.pk: i
        for i in Invoice.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk")
    }
    left = outstanding_of(locked.values())
    plan: list[tuple[Invoice, Decimal]] = []
    rest = available
    for a in allocations:
        inv = locked[a.invoice.pk]
        if inv.person_id != person.pk:
            raise InvalidInput({"invoices": [f"Invoice {inv.number} is billed to another person."]})
        if inv.kind != InvoiceKind.INVOICE or inv.state != InvoiceState.ISSUED:
            raise Blocked(f"{inv} is {inv.get_state_display().lower()}: nothing can be paid on it.")
        owed = left[inv.pk]
        if owed <= 0:
            raise Blocked(f"Invoice {inv.number} is paid in full: nothing is outstanding on it.")
        amount = min(owed, rest) if a.amount is None else dollars(a.amount, "amount")
        if amount > owed:
            raise InvalidInput(
                {
                    "amount": [
                        f"USD {amount:,} is more than the USD {owed:,} outstanding on invoice "
                        f"{inv.number}: an invoice is never paid beyond what it owes."
                    ]
                }
            )
        if amount > rest:
            raise InvalidInput(
                {"amount": [f"USD {amount:,} is more than the USD {rest:,} there is to apply."]}
            )
        if amount <= 0:
            continue
        rest -= amount
        plan.append((inv, amount))
    return plan


def apply_plan(
    actor: Actor,
    payments: Sequence[Payment],
    plan: list[tuple[Invoice, Decimal]],
    at: datetime,
) -> list[PaymentApplication]:
    """Write the applications of ``plan``, drawing on ``payments`` oldest first (each on
    invoices of its own town only)."""
    left = unapplied_of(payments)
    out: list[PaymentApplication] = []
    for inv, amount in plan:
        need = amount
        for p in payments:
            take = min(need, left[p.pk])
            if take <= 0:
                continue
            require_same_town(p, inv)
            out.append(
                audit.create_recorded(
                    PaymentApplication,
                    {
                        "payment": p,
                        "invoice": inv,
                        "amount": take,
                        "applied_by": actor,
                        "applied_at": at,
                    },
                    actor=actor,
                    action="apply_payment",
                    citation=_citation_of(inv),
                    at=at,
                )
            )
            left[p.pk] -= take
            need -= take
            if need == 0:
                break
    return out


def _citation_of(invoice: Invoice) -> str:
    cites = sorted(
        set(InvoiceLine.objects.filter(invoice=invoice).values_list("citation", flat=True)) - {""}
    )
    return "; ".join(cites) or PAYMENT_CITATION


def record_payment(
    actor: Actor,
    *,
    person: Person,
    amount: Any,
    method: str,
    received_on: date | None = None,
    reference: str = "",
    notes: str = "",
    allocations: Sequence[Allocation] = (),
    at: datetime | None = None,
    town: str = "",
) -> Payment:
    """Record money received from ``person`` and apply it to ``allocations`` (in order);
    what is left is the person's credit. A permit's fee invoice settled by it makes the
    permit's fee step. It is received into the books of its invoices' town (applied to none:
    ``town``, else the clerk's; :func:`.books.payment_town`)."""
    require_money_role(actor, "Recording a payment")
    books = payment_town(actor, [a.invoice for a in allocations], town)
    total = dollars(amount, "amount")
    reference = reference.strip()
    check_reference(method, reference)
    when = at or timezone.now()
    day = received_on or today_of(when)
    if day > today_of(when):
        raise InvalidInput({"received_on": ["A payment cannot be received in the future."]})
    with transaction.atomic():
        who = lock_person(person)
        plan = plan_allocations(who, allocations, total)
        payment = audit.create_recorded(
            Payment,
            {
                "receipt_number": next_receipt_number(day.year),
                "person": who,
                "received_on": day,
                "method": method,
                "reference": reference,
                "amount": total,
                "notes": notes.strip(),
                "recorded_by": actor,
                "recorded_at": when,
                "jurisdiction": books,
            },
            actor=actor,
            action="record_payment",
            citation=PAYMENT_CITATION,
            at=when,
        )
        apply_plan(actor, [payment], plan, when)
        settle_permit_fees(actor, [inv for inv, _ in plan], payment, when)
        issue_receipt(payment, actor)  # the receipt of record, as the money was applied
    return payment


# --- permit fees settled by payment ----------------------------------------------------------


def settle_permit_fees(
    actor: Actor, invoices: Iterable[Invoice], payment: Payment, at: datetime
) -> list[Any]:
    """For each invoice now paid in full that bills a permit's fee, make the permit's fee
    step with the payment's date and receipt (inside the caller's transaction)."""
    invoices = list(invoices)
    left = outstanding_of(invoices)
    done: list[Any] = []
    for inv in invoices:
        if left[inv.pk] > 0:
            continue
        for line in InvoiceLine.objects.filter(invoice=inv).select_related("charge"):
            charge = line.charge
            step = FEE_STEPS.get(charge.source)
            if step is None or charge.content_type_id is None:
                continue
            model = ContentType.objects.get_for_id(charge.content_type_id)
            record: Any = model.get_object_for_this_type(pk=charge.object_id)
            workflow = getattr(record, "WORKFLOW", None)
            if workflow is None or record.state not in workflow.get(step).sources:
                continue
            done.append(
                perform(
                    record,
                    step,
                    actor,
                    {"paid_on": payment.received_on, "receipt_number": payment.receipt_number},
                    automatic=True,
                    reason=f"paid in full by receipt {payment.receipt_number} "
                    f"(invoice {inv.number})",
                    at=at,
                )
            )
    return done
