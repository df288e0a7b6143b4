"""The accounting export: every invoice line and every payment (and refund) of a span of
days, one row each, in the layout documented in ``docs/billing-export.md`` — for the Town's
accounting system. Written through :mod:`sewer_office.core.exports` (CSV or Excel; text
cells escaped against formula injection by its ``escape()``).

Amounts are exact decimals with two places: positive for what is owed (an invoice line, a
refund paid out), negative for a credit note's line and for money received (a payment), so
that the column sums to the change in what the Town is owed. A staff member of some member
towns exports the books of those towns (:func:`~sewer_office.accounts.access.visible`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.core import reading
from sewer_office.core.exports import Amount, Column

from .choices import InvoiceKind, InvoiceState
from .models import InvoiceLine, Payment, Refund
from .statements import BUCKET_LABELS, BUCKETS

#: The columns, in order (docs/billing-export.md describes each).
HEADERS = (
    "record_type",
    "document_number",
    "document_date",
    "due_date",
    "line",
    "person_id",
    "person_name",
    "facility",
    "source",
    "citation",
    "description",
    "amount",
    "method",
    "reference",
    "applied_to",
    "credits_document",
    "status",
)


def _field(name: str) -> Column:
    def value(row: dict[str, Any]) -> Any:
        return row[name]

    return Column(name, value)


COLUMNS = tuple(_field(h) for h in HEADERS)


def _span(field: str, start: date | None, end: date | None) -> Q:
    q = Q()
    if start is not None:
        q &= Q(**{f"{field}__gte": start})
    if end is not None:
        q &= Q(**{f"{field}__lte": end})
    return q


def _seen(qs: QuerySet[Any], user: Actor | None) -> QuerySet[Any]:
    return qs if user is None else visible(qs, user)


def rows(
    start: date | None = None, end: date | None = None, user: Actor | None = None
) -> Iterator[dict[str, Any]]:
    """The export's rows: invoice lines (by document date, number, line), then payments, then
    refunds, each in date order — those ``user`` sees (every one when ``None``)."""
    lines = (
        _seen(InvoiceLine.objects.filter(_span("invoice__issued_on", start, end)), user)
        .select_related("invoice__person", "invoice__establishment", "invoice__credits", "charge")
        .order_by("invoice__issued_on", "invoice__year", "invoice__sequence", "position")
    )
    for line in lines.iterator(chunk_size=2000):
        inv = line.invoice
        credit = inv.kind == InvoiceKind.CREDIT_NOTE
        amount = Decimal(line.amount)
        yield {
            "record_type": "credit_note_line" if credit else "invoice_line",
            "document_number": inv.number,
            "document_date": inv.issued_on,
            "due_date": inv.due_on,
            "line": line.position,
            "person_id": inv.person_id,
            "person_name": inv.person.name,
            "facility": inv.establishment.name if inv.establishment else "",
            "source": line.charge.source,
            "citation": line.citation,
            "description": line.description,
            "amount": -abs(amount) if credit else amount,
            "method": "",
            "reference": "",
            "applied_to": "",
            "credits_document": inv.credits.number if inv.credits else "",
            "status": "void" if inv.state == InvoiceState.VOID else "issued",
        }
    payments = (
        _seen(Payment.objects.filter(_span("received_on", start, end)), user)
        .select_related("person")
        .prefetch_related("applications__invoice")
        .order_by("received_on", "id")
    )
    for p in payments:
        applied = "; ".join(
            f"{a.invoice.number}={a.amount}"
            for a in sorted(p.applications.all(), key=lambda a: a.pk)
        )
        yield {
            "record_type": "payment",
            "document_number": p.receipt_number,
            "document_date": p.received_on,
            "due_date": None,
            "line": None,
            "person_id": p.person_id,
            "person_name": p.person.name,
            "facility": "",
            "source": "",
            "citation": "",
            "description": p.notes,
            "amount": -Decimal(p.amount),
            "method": p.method,
            "reference": p.reference,
            "applied_to": applied,
            "credits_document": "",
            "status": "received",
        }
    refunds = (
        _seen(Refund.objects.filter(_span("refunded_on", start, end)), user)
        .select_related("person", "payment")
        .order_by("refunded_on", "id")
    )
    for r in refunds:
        yield {
            "record_type": "refund",
            "document_number": f"REFUND-{r.pk}",
            "document_date": r.refunded_on,
            "due_date": None,
            "line": None,
            "person_id": r.person_id,
            "person_name": r.person.name,
            "facility": "",
            "source": "",
            "citation": "",
            "description": r.reason,
            "amount": Decimal(r.amount),
            "method": r.method,
            "reference": r.reference,
            "applied_to": r.payment.receipt_number if r.payment else "",
            "credits_document": "",
            "status": "paid_out",
        }


#: The payments list's download columns (``/billing/payments/?format=csv``).
PAYMENT_COLUMNS = (
    Column("Receipt", "receipt_number"),
    Column("Received on", "received_on"),
    Column("Paid by", "person.name"),
    Column("Method", "get_method_display"),
    Column("Reference", "reference"),
    Amount("Amount", "amount"),
    Column("Recorded by", "recorded_by.username"),
)

#: The invoice list's download (``/billing/invoices/?format=csv``): rows from
#: :func:`.balances.with_balance`, so paid, balance and status are the page's.
INVOICE_COLUMNS = (
    Column("Number", "number"),
    Column("Kind", "get_kind_display"),
    Column("Billed to", "person.name"),
    Column("Facility", "establishment.name"),
    Column("Issued on", "issued_on"),
    Column("Due on", "due_on"),
    Amount("Total", "total"),
    Amount("Paid", "paid_total"),
    Amount("Balance", "balance_left"),
    Column("Status", "status_label"),
    Column("Credits", "credits.number"),
    Column("Reason", "reason"),
)

#: The charges list's download (``/billing/charges/?format=csv``).
CHARGE_COLUMNS = (
    Column("Assessed on", "assessed_on"),
    Column("Source", "get_source_display"),
    Column("Description", "description"),
    Column("Citation", "citation"),
    Column("Billed to", "person.name"),
    Column("Facility", "establishment.name"),
    Column("Period from", "period_start"),
    Column("Period to", "period_end"),
    Amount("Amount", "amount"),
)

#: The billing runs list's download (``/billing/runs/?format=csv``).
RUN_LIST_COLUMNS = (
    Column("Period", "period"),
    Column("From", "start"),
    Column("To", "end"),
    Column("State", "get_state_display"),
    Amount("Total", "total"),
    Column("Parameters", "jurisdiction"),
)


def computation_text(computation: dict[str, Any]) -> str:
    """A run line's computation as one readable cell: its steps, numbers rounded for reading
    (:func:`sewer_office.core.reading.readable`) — the exact steps stay in the record."""
    return "; ".join(reading.readable(s) for s in computation.get("steps", []))


def _bucket(name: str) -> Column:
    def value(row: Any) -> Any:
        return row.buckets[name]

    return Column(BUCKET_LABELS[name], value)


def aging_columns() -> list[Column]:
    """The aging report's download columns (``/billing/aging/?format=csv``)."""
    return [
        Column("Person", "person.name"),
        *(_bucket(b) for b, _ in BUCKETS),
        Column("Total", "total"),
    ]


#: The statements index's download (``/billing/statements/?format=csv``): the persons billed.
STATEMENT_COLUMNS = (
    Column("Person", "name"),
    Column("Kind", "get_kind_display"),
    Column("Person number", "pk"),
)

#: The permit fee queue's download (``/billing/permit-fees/?format=csv``): rows of the page.
PERMIT_FEE_COLUMNS = (
    Column("Permit", lambda r: r["record"].number),
    Column("Applicant", lambda r: r["record"].applicant.name),
    Column("Application date", lambda r: r["record"].filed_on),
    Amount("Fee", lambda r: r["amount"]),
    Column("Why no fee is stated", lambda r: r["blocked"] or ""),
    Column("Invoice", lambda r: r["invoice"].number if r["invoice"] else ""),
    Amount("Outstanding", lambda r: r["outstanding"]),
)


def _rate(record: Any, name: str) -> Any:
    return getattr(record, f"rate_{name}", None)


#: The surcharge decisions and agreements' download (``/billing/surcharges/?format=csv``):
#: one row per record, decisions then agreements.
SURCHARGE_COLUMNS = (
    Column("Record", lambda r: "Agreement" if hasattr(r, "parties") else "Decision"),
    Column("Facility", "establishment.name"),
    Column(
        "Payment",
        lambda r: r.get_basis_display() if hasattr(r, "get_basis_display") else r.terms,
    ),
    Column(
        "Decided or signed on",
        lambda r: getattr(r, "decided_on", None) or getattr(r, "signed_on", None),
    ),
    Column("From", "first_day"),
    Column("To", "effective_last_day"),
    Column("Reasons or parties", lambda r: getattr(r, "reasons", None) or r.parties),
    Column("Board approval", lambda r: getattr(r, "board_approval", "")),
    Column("Rate BOD (USD/lb)", lambda r: _rate(r, "bod")),
    Column("Rate suspended solids (USD/lb)", lambda r: _rate(r, "suspended_solids")),
    Column("Rate grease or oil (USD/lb)", lambda r: _rate(r, "grease_oil")),
)
