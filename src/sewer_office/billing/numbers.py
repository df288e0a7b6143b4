"""Gapless numbers per series and year: invoices ``2026-0001``, receipts ``R2026-0001``.

The next number is taken under a row lock (``SELECT ... FOR UPDATE``) on the series' and year's
:class:`~sewer_office.billing.models.NumberSequence`, inside the caller's transaction: two
issues at the same time wait for each other, and a rolled-back issue gives its number back
with its transaction, so no number is skipped or used twice.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .choices import Series
from .models import NumberSequence

#: How each series writes a number: prefix, year, four digits at least.
PREFIXES: dict[str, str] = {Series.INVOICE: "", Series.RECEIPT: "R"}


def format_number(series: str, year: int, sequence: int) -> str:
    return f"{PREFIXES[series]}{year}-{sequence:04d}"


def next_number(series: str, year: int) -> tuple[int, str]:
    """The next ``(sequence, number)`` of ``series`` in ``year``; call inside a transaction."""
    if series not in PREFIXES:
        raise ValueError(f"no numbering series {series!r}")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("next_number must be called inside the issuing transaction")
    seq = NumberSequence.objects.select_for_update().filter(series=series, year=year).first()
    if seq is None:
        try:
            with transaction.atomic():
                NumberSequence.objects.create(series=series, year=year, last=0)
        except IntegrityError:
            pass  # created by a concurrent issue meanwhile: lock that one
        seq = NumberSequence.objects.select_for_update().get(series=series, year=year)
    seq.last += 1
    seq.save(update_fields=["last"])
    return seq.last, format_number(series, year, seq.last)
