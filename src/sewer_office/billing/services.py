"""Billing's services, in one place for the views and the API (each module holds its own):
charges (:mod:`.charges`), invoices, credit notes and voids (:mod:`.invoices`), billing runs
(:mod:`.runs`); money — payments, credit, refunds, permit fee invoices (:mod:`.payments`);
statements and aging (:mod:`.statements`)."""

from __future__ import annotations

from .charges import (
    article_copies,
    building_sewer_fee,
    cost_recovery,
    industrial_approval_fee,
    other_fee,
    subdivision_fee,
)
from .credit import apply_credit, refund
from .invoices import credit_note, issue_invoice, void_invoice
from .ledger import may_bill, require_biller
from .payments import (
    Allocation,
    credit_of,
    may_record_money,
    outstanding,
    outstanding_of,
    record_payment,
)
from .permit_fees import issue_permit_fee_invoice
from .statements import aging, overdue, statement

__all__ = [
    "Allocation",
    "aging",
    "apply_credit",
    "article_copies",
    "building_sewer_fee",
    "cost_recovery",
    "credit_note",
    "credit_of",
    "industrial_approval_fee",
    "issue_invoice",
    "issue_permit_fee_invoice",
    "may_bill",
    "may_record_money",
    "other_fee",
    "outstanding",
    "outstanding_of",
    "overdue",
    "record_payment",
    "refund",
    "require_biller",
    "statement",
    "subdivision_fee",
    "void_invoice",
]
