"""A meter's readings by town day: how many, and their exact sum.

The flow of a billing period (§ 196-19 E(1)(d), J; the surcharge's volume) and the average
process flow of a year (40 CFR 403.3(v)) are the count and sum of the readings in whole town
days. A day is the town's calendar day, 23 or 25 hours long when the clocks change.

Sums are exact: values keep every digit they were written with, and they are added in a
context that raises rather than rounds (:data:`EXACT`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import (
    MAX_EMAX,
    MAX_PREC,
    MIN_EMIN,
    Context,
    Decimal,
    DivisionByZero,
    Inexact,
    InvalidOperation,
    Overflow,
    Rounded,
)
from functools import reduce

import polars as pl

#: Addition without rounding: a sum that would need rounding raises instead.
EXACT = Context(
    prec=MAX_PREC,
    Emax=MAX_EMAX,
    Emin=MIN_EMIN,
    traps=[InvalidOperation, DivisionByZero, Overflow, Inexact, Rounded],
)
ZERO = Decimal(0)


@dataclass(frozen=True)
class DayTotal:
    """How many readings, and their exact sum."""

    count: int
    total: Decimal

    def plus(self, other: DayTotal) -> DayTotal:
        return DayTotal(self.count + other.count, EXACT.add(self.total, other.total))


#: No readings.
NOTHING = DayTotal(0, ZERO)


def exact_sum(values: Iterable[str | Decimal]) -> Decimal:
    """The exact sum of decimal texts (or decimals)."""
    return reduce(EXACT.add, (Decimal(v) for v in values), ZERO)


def summarize(times_us: Sequence[int], values: Sequence[str], tz: str) -> dict[date, DayTotal]:
    """Each town day of the readings (times in microseconds UTC, ascending) with its count and
    exact sum. The days are found by polars on the whole column (runs of one date); each run's
    values are summed as decimals."""
    if not times_us:
        return {}
    days = (
        pl.Series("at", times_us, dtype=pl.Int64)
        .cast(pl.Datetime("us", "UTC"))
        .dt.convert_time_zone(tz)
        .dt.date()
    )
    out: dict[date, DayTotal] = {}
    start = 0
    for length, day in days.rle().struct.unnest().iter_rows():
        part = DayTotal(length, exact_sum(values[start : start + length]))
        out[day] = out[day].plus(part) if day in out else part
        start += length
    return out


def merge(into: dict[date, DayTotal], more: dict[date, DayTotal]) -> None:
    """Add ``more``'s days to ``into``."""
    for day, total in more.items():
        into[day] = into[day].plus(total) if day in into else total
