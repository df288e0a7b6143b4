"""What a person is told by e-mail of its bills: an invoice or credit note issued.

:func:`sewer_office.billing.invoices.issue_invoice` and ``credit_note`` announce the document
inside their transaction (:func:`sewer_office.registry.notify.announce`: sent once the issue
is committed, nothing if it is rolled back). The invoices of a billing run are not announced
one by one inside the clerk's request (thousands of messages at once): the daily
``sewer-use send-reminders`` announces them, as it does any invoice whose message could not
be sent at once, under the same key — each goes out once. The reminder of an overdue invoice
is the daily run's alone (:mod:`.reminders`).
"""

from __future__ import annotations

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due

from .choices import InvoiceKind
from .models import Invoice


def invoice_issued(inv: Invoice) -> Due:
    """An invoice (or credit note) issued by the clerk."""
    what = "Credit note" if inv.kind == InvoiceKind.CREDIT_NOTE else "Invoice"
    due = f", due on {inv.due_on:%Y-%m-%d}" if inv.due_on else ""
    return Due(
        Topic.INVOICE_ISSUED,
        f"invoice_issued:{inv.pk}",
        inv,
        (inv.person_id,),
        f"{what} {inv.number} issued: USD {inv.total}",
        f"The Town issued {what.lower()} {inv.number} on {inv.issued_on:%Y-%m-%d} for "
        f"USD {inv.total}{due}.",
    )
