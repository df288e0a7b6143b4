"""Billing's reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): invoices issued, invoices overdue."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import EVENT_DAYS, Source

from .choices import InvoiceKind, InvoiceState
from .models import Invoice
from .notify import invoice_issued
from .payments import outstanding_of


def invoices_issued(on: date) -> Iterator[Due]:
    """An invoice (or credit note) issued by the clerk."""
    since = on - timedelta(days=EVENT_DAYS)
    for inv in Invoice.objects.filter(issued_on__gte=since, issued_on__lte=on):
        yield invoice_issued(inv)


def invoices_overdue(on: date) -> Iterator[Due]:
    """An issued invoice still owed after its due date (one message per invoice)."""
    rows = list(
        Invoice.objects.filter(
            state=InvoiceState.ISSUED, kind=InvoiceKind.INVOICE, due_on__lt=on
        ).order_by("id")
    )
    owed = outstanding_of(rows)
    for inv in rows:
        if owed.get(inv.pk, 0) <= 0 or inv.due_on is None:
            continue
        yield Due(
            Topic.INVOICE_OVERDUE,
            f"invoice_overdue:{inv.pk}",
            inv,
            (inv.person_id,),
            f"Invoice {inv.number} is overdue: USD {owed[inv.pk]} owed",
            f"Invoice {inv.number}, due on {inv.due_on:%Y-%m-%d}, still has USD {owed[inv.pk]} "
            "owed. Please pay the Town Clerk.",
        )


SOURCES: Mapping[str, Source] = {
    Topic.INVOICE_ISSUED: invoices_issued,
    Topic.INVOICE_OVERDUE: invoices_overdue,
}
