"""Issuing invoices for charges, credit notes against them, and voids.

An invoice bills charges to one person (§ 196-15 PERSON), numbered without gaps per year in
the invoice series (:mod:`.numbers`); its due date rests on the dated parameter
``invoice.due_days`` of its charges' town in force on the day of issue (not configured → issue
is refused with the resolution to record). Each town's resolutions set its own, so an invoice
bills the charges of one town: charges of several are refused, to be invoiced per town. The
invoice is in that town's books (``jurisdiction``; a credit note in its invoice's, :mod:`.books`),
issued, credited and voided by staff acting for that town. Its number is the installation's
one sequence of the year, whatever the town (:mod:`.numbers`).
Once issued it is never edited: a credit note (its own number in the same series, negative
lines, with a reason) corrects it, or it is voided with a reason while nothing is paid on it. A credit note for more than is still owed (the invoice was paid) gives
the paid excess back to the person's credit: the payments' applications to the invoice are
reversed by that much (negative applications, newest first), so the money can be applied to
the corrected invoice or refunded. Every change writes its audit event in the same transaction.
An invoice or credit note issued is told by e-mail to the person's representatives once the
issue is committed (:mod:`.notify`; a billing run's invoices by the daily send-reminders).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput, TransitionNotAllowed
from sewer_office.registry import notify
from sewer_office.registry.models import Person

from . import pdf
from .books import require_acting_for
from .choices import InvoiceKind, InvoiceState, Series
from .ledger import require_biller
from .models import Charge, Invoice, InvoiceLine, PaymentApplication
from .notify import invoice_issued
from .numbers import next_number
from .rules import StoredParameter, not_configured_message, one_town, parameter_dict, value_in

DUE_DAYS = "invoice.due_days"


def due_date(issued_on: date, town: str) -> tuple[date, StoredParameter]:
    """The due date of an invoice of ``town``'s charges issued on ``issued_on``, and the
    parameter it rests on (that town's resolution)."""
    pv = value_in(town, DUE_DAYS, issued_on, "Invoice due date")
    if pv.value is None:
        raise Blocked(not_configured_message(pv, issued_on, "Invoice due date", town))
    days = int(pv.value)
    return issued_on + timedelta(days=days), parameter_dict(pv)


def invoiced_amount(charge: Charge) -> Decimal:
    """What of ``charge`` stands invoiced: its lines on issued invoices, net of credit notes."""
    total = charge.invoice_lines.filter(invoice__state=InvoiceState.ISSUED).aggregate(
        s=Sum("amount")
    )["s"]
    return Decimal(total or 0)


def issue_invoice(
    person: Person,
    charges: Sequence[Charge],
    actor: Actor,
    issued_on: date | None = None,
    *,
    run: Any = None,
    establishment: Any = None,
    check_actor: bool = True,
) -> Invoice:
    """Issue one invoice to ``person`` for ``charges`` (each the person's, not yet invoiced, all
    of one town: its due date is that town's)."""
    if check_actor:
        require_biller(actor)
    day = issued_on or timezone.localdate()
    if not charges:
        raise InvalidInput({"charges": ["An invoice bills at least one charge."]})
    for c in charges:
        if c.person_id != person.pk:
            raise InvalidInput({"charges": [f"Charge {c.pk} is billed to another person."]})
    town = one_town(charges)
    if check_actor:  # a billing run checks its lines' towns itself
        require_acting_for(actor, town, "Issuing an invoice")
    due_on, basis = due_date(day, town)
    with transaction.atomic():
        ids = [c.pk for c in charges]
        if len(set(ids)) != len(ids):
            raise InvalidInput({"charges": ["A charge appears twice."]})
        taken = (
            InvoiceLine.objects.filter(
                charge_id__in=ids,
                invoice__kind=InvoiceKind.INVOICE,
                invoice__state=InvoiceState.ISSUED,
            )
            .values_list("charge_id", flat=True)
            .distinct()
        )
        taken_ids = set(taken)
        if taken_ids:
            raise Blocked(
                f"Charge(s) {', '.join(str(i) for i in sorted(taken_ids))} are already invoiced "
                "(a correction is a credit note plus a new invoice)."
            )
        sequence, number = next_number(Series.INVOICE, day.year)
        total = sum((c.amount for c in charges), Decimal(0))
        invoice = Invoice.objects.create(
            kind=InvoiceKind.INVOICE,
            number=number,
            year=day.year,
            sequence=sequence,
            person=person,
            establishment=establishment,
            issued_on=day,
            due_on=due_on,
            due_basis=basis,
            total=total,
            run=run,
            issued_by=person_or_none(actor),
            jurisdiction=town,
        )
        InvoiceLine.objects.bulk_create(
            InvoiceLine(
                invoice=invoice,
                position=i,
                charge=c,
                description=c.description,
                citation=c.citation,
                amount=c.amount,
                computation=c.computation,
            )
            for i, c in enumerate(charges, start=1)
        )
        audit.record(
            actor=actor,
            action="billing.invoice_issued",
            obj=invoice,
            after=audit.snapshot(invoice),
            citation=", ".join(sorted({c.citation for c in charges if c.citation})),
            state_to=InvoiceState.ISSUED,
        )
        pdf.issue_document(invoice, actor)  # the document of record, kept as issued
        if run is None:  # a run's invoices: announced by the daily send-reminders (.notify)
            notify.announce(invoice_issued(invoice))
    return invoice


def paid_on(invoice: Invoice) -> Decimal:
    """What payments applied to ``invoice`` sum to."""
    return Decimal(invoice.applications.aggregate(s=Sum("amount"))["s"] or 0)


def credit_note(
    invoice: Invoice,
    actor: Actor,
    reason: str,
    *,
    lines: Sequence[InvoiceLine] | None = None,
    issued_on: date | None = None,
) -> Invoice:
    """A credit note against ``invoice`` (all its lines, or ``lines``), with the reason."""
    require_biller(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the invoice is credited."]})
    if invoice.kind != InvoiceKind.INVOICE:
        raise TransitionNotAllowed("A credit note is issued against an invoice, not a credit note.")
    if invoice.state != InvoiceState.ISSUED:
        raise TransitionNotAllowed(f"Invoice {invoice.number} is void: nothing to credit.")
    require_acting_for(actor, invoice.jurisdiction, "A credit note")
    day = issued_on or timezone.localdate()
    with transaction.atomic():
        invoice = Invoice.objects.select_for_update().get(pk=invoice.pk)
        chosen = list(lines) if lines is not None else list(invoice.lines.all())
        if not chosen:
            raise InvalidInput({"lines": ["Credit at least one line."]})
        credited: dict[int, Decimal] = {}
        for note in invoice.credit_notes.filter(state=InvoiceState.ISSUED):
            for ln in note.lines.all():
                credited[ln.charge_id] = credited.get(ln.charge_id, Decimal(0)) + ln.amount
        for ln in chosen:
            if ln.invoice_id != invoice.pk:
                raise InvalidInput({"lines": [f"Line {ln.pk} is not on {invoice.number}."]})
            if ln.amount + credited.get(ln.charge_id, Decimal(0)) <= 0:
                raise Blocked(f"Line {ln.position} of {invoice.number} is already credited.")
        sequence, number = next_number(Series.INVOICE, day.year)
        total = -sum((ln.amount for ln in chosen), Decimal(0))
        note = Invoice.objects.create(
            kind=InvoiceKind.CREDIT_NOTE,
            number=number,
            year=day.year,
            sequence=sequence,
            person=invoice.person,
            establishment=invoice.establishment,
            issued_on=day,
            due_on=None,
            due_basis={},
            total=total,
            credits=invoice,
            reason=reason.strip(),
            issued_by=person_or_none(actor),
            jurisdiction=invoice.jurisdiction,
        )
        InvoiceLine.objects.bulk_create(
            InvoiceLine(
                invoice=note,
                position=i,
                charge=ln.charge,
                description=f"Credit: {ln.description}"[:300],
                citation=ln.citation,
                amount=-ln.amount,
                computation={"credits": invoice.number, "line": ln.position, "reason": reason},
            )
            for i, ln in enumerate(chosen, start=1)
        )
        audit.record(
            actor=actor,
            action="billing.credit_note_issued",
            obj=note,
            after=audit.snapshot(note),
            reason=reason.strip(),
            state_to=InvoiceState.ISSUED,
        )
        pdf.issue_document(note, actor)  # the credit note as issued, kept
        _release_paid_excess(invoice, note, actor)
        notify.announce(invoice_issued(note))
    return note


def _release_paid_excess(invoice: Invoice, note: Invoice, actor: Actor) -> None:
    """Give back to the person's credit what ``note`` credits beyond what was still owed.

    Owed before the note = total − earlier credit notes − payments applied. What the note
    credits beyond that was paid: the payments' applications to ``invoice`` are reversed by
    that amount (negative applications, newest payment first), each with its audit event.
    """
    earlier = Invoice.objects.filter(
        credits=invoice, kind=InvoiceKind.CREDIT_NOTE, state=InvoiceState.ISSUED
    ).exclude(pk=note.pk).aggregate(s=Sum("total"))["s"] or Decimal(0)
    applications = list(
        PaymentApplication.objects.filter(invoice=invoice).order_by("-applied_at", "-id")
    )
    applied = sum((Decimal(a.amount) for a in applications), Decimal(0))
    owed_before = max(Decimal(invoice.total) - abs(Decimal(earlier)) - applied, Decimal(0))
    excess = abs(Decimal(note.total)) - owed_before
    if excess <= 0:
        return
    by_payment: dict[int, Decimal] = {}
    for a in applications:
        by_payment[a.payment_id] = by_payment.get(a.payment_id, Decimal(0)) + Decimal(a.amount)
    for payment_id in dict.fromkeys(a.payment_id for a in applications):
        if excess <= 0:
            break
        take = min(excess, by_payment[payment_id])
        if take <= 0:
            continue
        PaymentApplication.objects.create(
            payment_id=payment_id, invoice=invoice, amount=-take, applied_by=signed_in(actor)
        )
        audit.record(
            actor=actor,
            action="billing.payment_released",
            obj=invoice,
            after={"payment": payment_id, "amount": str(-take), "credit_note": note.number},
            reason=f"credited by {note.number} after payment: back to the person's credit",
        )
        excess -= take


def void_invoice(invoice: Invoice, actor: Actor, reason: str) -> Invoice:
    """Void ``invoice`` with the reason — only while nothing is paid on it."""
    require_biller(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the invoice is voided."]})
    require_acting_for(actor, invoice.jurisdiction, "Voiding an invoice")
    with transaction.atomic():
        locked = Invoice.objects.select_for_update().get(pk=invoice.pk)
        if locked.state != InvoiceState.ISSUED:
            raise TransitionNotAllowed(f"{locked.number} is already void.")
        if paid_on(locked) != 0:
            raise Blocked(
                f"{locked.number} has payments applied: it cannot be voided; issue a credit "
                "note instead."
            )
        if (
            locked.kind == InvoiceKind.INVOICE
            and locked.credit_notes.filter(state=InvoiceState.ISSUED).exists()
        ):
            raise Blocked(f"{locked.number} has credit notes: void them first.")
        before = audit.snapshot(locked)
        locked.state = InvoiceState.VOID
        locked.void_reason = reason.strip()
        locked.voided_at = timezone.now()
        locked.voided_by = person_or_none(actor)
        locked.save(update_fields=["state", "void_reason", "voided_at", "voided_by"])
        audit.record(
            actor=actor,
            action="billing.invoice_voided",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            state_from=InvoiceState.ISSUED,
            state_to=InvoiceState.VOID,
        )
    return locked
