"""Billing's services, in one place for the views and the API (each module holds its own):
charges (:mod:`.charges`), invoices, credit notes and voids (:mod:`.invoices`), billing runs
(:mod:`.runs`)."""

from __future__ import annotations

from .charges import (
    article_copies,
    building_sewer_fee,
    cost_recovery,
    industrial_approval_fee,
    may_bill,
    other_fee,
    require_biller,
    subdivision_fee,
)
from .invoices import credit_note, issue_invoice, void_invoice

__all__ = [
    "article_copies",
    "building_sewer_fee",
    "cost_recovery",
    "credit_note",
    "industrial_approval_fee",
    "issue_invoice",
    "may_bill",
    "other_fee",
    "require_biller",
    "subdivision_fee",
    "void_invoice",
]
