"""Money from enforcement, in the Town's books: the Town's costs billed (§ 196-22 C) and the
fine the court imposed collected by the Town (§ 196-22 B).

Billing sits above enforcement: it reads the violation's costs and judgments and writes the
charges, invoices and payments; enforcement never imports billing (its page shows this
module's records through the ``violation_context`` hook of :mod:`.panels`).

- **Costs** (§ 196-22 C: the violator "shall become liable to the Town for any expense, loss or
  damage"): :func:`bill_costs` makes a charge of each cost not yet billed
  (:func:`.charges.cost_recovery`, with the cost's evidence) and issues one invoice to the
  person responsible. A cost is charged once: its charge's source key
  (``enforcement.cost:<id>``) is refused a second time unless the invoice was voided or
  credited, so clicking twice bills nothing more.
- **Fines** (§ 196-22 B: "on conviction thereof, shall be fined"): the court's judgment is
  recorded in enforcement (``enforcement.money.record_judgment``). Money the *court* receives
  is recorded on the violation only. Money the *Town* receives is the Town's: the clerk takes
  it with a receipt, so at the first Town collection the fine (less what the court had already
  received) becomes a charge of source ``fine_judgment`` citing § 196-22 B, invoiced to the
  person, and each collection is a payment through the ordinary payment service applied to
  that invoice — the statement then shows the fine and its payments.
  :func:`record_collection` records both kinds, since a court collection is refused once the
  Town is collecting (an invoice of the fine stands).

Every service checks the actor's role and writes its audit event in the same transaction.
Both are the Town's under § 196-22: a violation of a town whose law is its own is refused
(its law says what it recovers and how), before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden
from sewer_office.core.town_law import require_article_for
from sewer_office.enforcement.choices import CollectedBy
from sewer_office.enforcement.models import Collection, Cost, Judgment, Violation
from sewer_office.enforcement.money import (
    FINES_CITATION,
    check_collection,
    check_uncollected,
    require_judgment_recorder,
    write_collection,
)

from .charges import cost_recovery, fine_judgment
from .choices import InvoiceKind, InvoiceState
from .invoices import issue_invoice
from .ledger import already_charged, require_biller
from .models import Charge, Invoice
from .payments import Allocation, may_record_money, outstanding_of, record_payment

COSTS_CITATION = "§ 196-22 C"


def _today(at: datetime | None) -> date:
    return timezone.localdate(at) if at is not None else timezone.localdate()


def cost_key(cost: Cost) -> str:
    """The source key of a cost's charge (``charges._key``'s form)."""
    return f"{cost._meta.label_lower}:{cost.pk}"


def judgment_key(judgment: Judgment) -> str:
    """The source key of the charge of a fine the Town collects."""
    return f"{judgment._meta.label_lower}:{judgment.pk}"


# --- costs (§ 196-22 C) -------------------------------------------------------------------


def _uninvoiced_charge(key: str) -> Charge | None:
    """A charge of ``key`` written but never put on an invoice (to bill it, not charge again)."""
    return Charge.objects.filter(source_key=key, invoice_lines__isnull=True).order_by("id").first()


def unbilled_costs(violation: Violation) -> list[Cost]:
    """The violation's costs not yet billed (none charged, or charged and not yet invoiced,
    or billed on an invoice since voided or credited). A cost of nothing is never billed."""
    return [
        c
        for c in violation.costs.filter(amount__gt=0)
        if not already_charged(cost_key(c)) or _uninvoiced_charge(cost_key(c)) is not None
    ]


def bill_costs(violation: Violation, actor: Actor, *, at: datetime | None = None) -> Invoice:
    """§ 196-22 C: one invoice to the person responsible for the costs not yet billed, one line
    per cost with its evidence. Refused when every cost is billed (nothing is billed twice),
    and on a dismissed violation (no one was found violating)."""
    require_biller(actor)
    require_article_for(violation, f"Recovering the Town's costs ({COSTS_CITATION})")
    day = _today(at)
    with transaction.atomic():
        locked = Violation.objects.select_for_update().get(pk=violation.pk)
        if locked.state == "dismissed":
            raise Blocked(
                f"{locked.number} was dismissed: no one was found violating, so no cost is "
                "recoverable under § 196-22 C."
            )
        costs = unbilled_costs(locked)
        if not costs:
            raise Blocked(
                f"Every cost recorded on {locked.number} is already billed: nothing more to bill."
                if locked.costs.exists()
                else f"No cost is recorded on {locked.number}: record the Town's costs first."
            )
        charges = [_uninvoiced_charge(cost_key(c)) or cost_recovery(c, actor) for c in costs]
        invoice = issue_invoice(
            locked.person, charges, actor, day, establishment=locked.establishment
        )
        audit.record(
            actor=actor,
            action="bill_costs",
            obj=locked,
            after={
                "invoice": invoice.number,
                "costs": [c.pk for c in costs],
                "total": str(invoice.total),
            },
            citation=COSTS_CITATION,
            at=at,
        )
    return invoice


# --- the invoices of a violation -----------------------------------------------------------


@dataclass(frozen=True)
class Billed:
    """An invoice (or credit note) billing a violation's costs or fine, with where it stands."""

    invoice: Invoice
    what: str
    outstanding: Decimal

    @property
    def status(self) -> str:
        """issued, part paid, paid, void (credit notes: issued or void)."""
        inv = self.invoice
        if inv.state == InvoiceState.VOID:
            return "void"
        if inv.kind == InvoiceKind.CREDIT_NOTE:
            return "issued"
        if self.outstanding <= 0:
            return "paid"
        return "part paid" if self.outstanding < inv.total else "issued"


def invoices_of(violation: Violation) -> list[Billed]:
    """The invoices and credit notes with a line for the violation's costs or fine judgments,
    oldest first."""
    keys = {cost_key(c): "costs" for c in violation.costs.all()}
    keys.update({judgment_key(j): "fine" for j in violation.judgments.all()})
    if not keys:
        return []
    lines = Charge.objects.filter(source_key__in=keys).values_list(
        "source_key", "invoice_lines__invoice"
    )
    what: dict[int, set[str]] = {}
    for key, invoice_id in lines:
        if invoice_id is not None:
            what.setdefault(invoice_id, set()).add(keys[key])
    invoices = list(Invoice.objects.filter(pk__in=what).order_by("issued_on", "id"))
    left = outstanding_of([i for i in invoices if i.kind == InvoiceKind.INVOICE])
    return [
        Billed(i, " and ".join(sorted(what[i.pk])), left.get(i.pk, Decimal(0))) for i in invoices
    ]


# --- the fine the Town collects (§ 196-22 B) -----------------------------------------------


def fine_invoice(judgment: Judgment) -> Invoice | None:
    """The issued invoice through which the Town collects the fine (None before the first
    Town collection)."""
    return (
        Invoice.objects.filter(
            kind=InvoiceKind.INVOICE,
            state=InvoiceState.ISSUED,
            lines__charge__source_key=judgment_key(judgment),
        )
        .order_by("id")
        .first()
    )


def record_collection(
    judgment: Judgment,
    actor: Actor,
    *,
    amount: Any,
    collected_on: date | None,
    collected_by: str,
    reference: str = "",
    method: str = "",
    note: str = "",
    at: datetime | None = None,
) -> Collection:
    """Money received on the fine the court imposed. By the court: recorded on the violation
    (refused once the Town is collecting it). By the Town: received by the clerk — the fine
    (less what the court had received) is invoiced once citing § 196-22 B, and the money is a
    payment, with its receipt, applied to that invoice. Never more than the fine still
    uncollected."""
    require_judgment_recorder(actor, "Recording a collection")
    if collected_by == CollectedBy.TOWN and not may_record_money(actor):
        raise Forbidden(
            "Money received by the Town is taken by the clerk, with a receipt: ask the clerk "
            "to record it."
        )
    if collected_by == CollectedBy.TOWN:
        what = f"Collecting a fine on conviction as the Town's charge ({FINES_CITATION})"
        require_article_for(judgment.violation, what)
    total = check_collection(
        judgment,
        actor,
        amount=amount,
        collected_on=collected_on,
        collected_by=collected_by,
        at=at,
    )
    assert collected_on is not None
    with transaction.atomic():
        locked = Judgment.objects.select_for_update().get(pk=judgment.pk)
        left = check_uncollected(locked, total)
        invoice = fine_invoice(locked)
        payment = None
        if collected_by == CollectedBy.COURT and invoice is not None:
            raise Blocked(
                f"The Town is collecting this fine (invoice {invoice.number}): money paid "
                "since is recorded as collected by the Town, or the invoice is credited first."
            )
        if collected_by == CollectedBy.TOWN:
            if invoice is None:
                charge = fine_judgment(locked, left, actor)
                invoice = issue_invoice(
                    locked.violation.person,
                    [charge],
                    actor,
                    collected_on,
                    establishment=locked.violation.establishment,
                )
            payment = record_payment(
                actor,
                person=locked.violation.person,
                amount=total,
                method=method,
                received_on=collected_on,
                reference=reference,
                notes=f"Fine, {locked.court} docket {locked.docket} ({FINES_CITATION})",
                allocations=[Allocation(invoice, total)],
                at=at,
            )
        return write_collection(
            locked,
            actor,
            amount=total,
            collected_on=collected_on,
            collected_by=collected_by,
            reference=reference,
            payment=payment,
            note=note,
            at=at,
        )
