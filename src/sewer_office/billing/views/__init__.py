"""Billing pages, one module per owner: :mod:`.core` (runs, invoices, charges) and
:mod:`.money` (payments, receipts, statements, aging, permit fees, the accounting export)."""
