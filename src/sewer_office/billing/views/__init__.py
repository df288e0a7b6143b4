"""Billing pages, one module per owner: :mod:`.core` (runs, invoices, charges)."""
