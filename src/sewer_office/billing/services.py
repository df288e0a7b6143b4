"""The billing services, one façade: money (payments, credit, refunds, permit fee invoices)
in :mod:`.payments`, statements and aging in :mod:`.statements`."""

from __future__ import annotations

from .payments import (
    Allocation,
    apply_credit,
    credit_of,
    issue_permit_fee_invoice,
    may_record_money,
    outstanding,
    outstanding_of,
    record_payment,
    refund,
)
from .statements import aging, overdue, statement

__all__ = [
    "Allocation",
    "aging",
    "apply_credit",
    "credit_of",
    "issue_permit_fee_invoice",
    "may_record_money",
    "outstanding",
    "outstanding_of",
    "overdue",
    "record_payment",
    "refund",
    "statement",
]
