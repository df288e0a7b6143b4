"""Billing records for the money tests: permit fee invoices through the billing services,
and plain invoices (a charge and its invoice, as the billing run issues them) for the
statements, aging and the API."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction

from sewer_office.billing.choices import ChargeSource, InvoiceKind, Series
from sewer_office.billing.models import Charge, Invoice, InvoiceLine
from sewer_office.billing.numbers import next_number
from sewer_office.billing.payments import Allocation, record_payment
from sewer_office.billing.permit_fees import issue_permit_fee_invoice
from sewer_office.registry.models import Person

from .factories import Town


def pay_fee(t: Town, record: Any, method: str = "cash", reference: str = "") -> Any:
    """The permit's fee invoiced and paid in full at the clerk's desk; the permit, reloaded."""
    clerk = t.u("clerk")
    invoice = issue_permit_fee_invoice(clerk, record)
    record_payment(
        clerk,
        person=invoice.person,
        amount=invoice.total,
        method=method,
        reference=reference,
        allocations=[Allocation(invoice)],
    )
    record.refresh_from_db()
    return record


def invoice(
    t: Town,
    person: Person,
    amount: str,
    *,
    issued_on: date,
    due_on: date | None,
    description: str = "Extra-strength surcharge 2026-Q1",
    kind: str = InvoiceKind.INVOICE,
    credits: Invoice | None = None,
) -> Invoice:
    """An issued invoice (or credit note) of one line for ``amount``, numbered in sequence."""
    with transaction.atomic():
        sequence, number = next_number(Series.INVOICE, issued_on.year)
        value = Decimal(amount)
        charge = Charge.objects.create(
            source=ChargeSource.SURCHARGE,
            source_key=f"test:{number}",
            citation="§ 196-19 E(1)(d)",
            description=description,
            person=person,
            assessed_on=issued_on,
            amount=value,
            computation={"steps": ["test"]},
        )
        inv = Invoice.objects.create(
            kind=kind,
            number=number,
            year=issued_on.year,
            sequence=sequence,
            person=person,
            issued_on=issued_on,
            due_on=due_on,
            total=value,
            credits=credits,
            reason="test credit" if credits else "",
            issued_by=t.u("clerk"),
        )
        InvoiceLine.objects.create(
            invoice=inv,
            position=1,
            charge=charge,
            description=description,
            citation=charge.citation,
            amount=value,
        )
    return inv
