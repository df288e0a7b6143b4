"""§ 196-16 E — the conditions of a facility's approval, applied to its results.

Exceeding a condition of the approval is a discharge the approval does not cover: status
``prohibited``, citing the approval's authority (``§ 196-16 E`` unless the limits file names
another). Each limit (:mod:`.permit_limits`) is one of:

- an instantaneous maximum or minimum: every result is held to it;
- a daily maximum: the day's value, the mean of that day's results, is held to it;
- a monthly average: the sum of the month's daily values ÷ the days measured.

A non-detect's true value is between zero and its reporting limit. In a mean it is therefore
bounded: ``prohibited`` when even counting it as zero the mean exceeds the limit,
``inconclusive`` when only counting it at its reporting limit does. Alone against a maximum it
is ``inconclusive`` above the limit; against a minimum it is proved below it when its
reporting limit is at or below the limit (``prohibited``), and ``inconclusive`` otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from sewer_rules.findings import Finding, Status, UsedParameter
from sewer_rules.hostile import shorten
from sewer_rules.units import format_decimal

from .permit_limits import PermitLimit, PermitLimits
from .reading import Reading


def _used(limit: PermitLimit) -> UsedParameter:
    return UsedParameter(f"permit {limit.permit_id} {limit.limit_type}", limit.valid_from)


def instantaneous_finding(limit: PermitLimit, reading: Reading) -> Finding | None:
    """One result against an instantaneous maximum or minimum of the approval."""
    value, lim, nd = reading.value, limit.value, reading.nd
    if limit.limit_type == "instantaneous_maximum":
        status = None if value <= lim else Status.INCONCLUSIVE if nd else Status.PROHIBITED
        word = "above"
    else:
        if nd:
            status = Status.PROHIBITED if value <= lim else Status.INCONCLUSIVE
        else:
            status = Status.PROHIBITED if value < lim else None
        word = "below"
    if status is None:
        return None
    shown = f"{shorten(reading.value_text)} {reading.unit.symbol}"
    message = (
        f"{shown}{' (non-detect)' if nd else ''} is {word} the permit's instantaneous limit "
        f"{limit.text} {limit.unit}"
    )
    return Finding(status, limit.citation, message, limit.text, limit.unit, _used(limit))


def _bounds(readings: list[Reading]) -> tuple[Fraction, Fraction]:
    """The sum of results with non-detects at zero, and with them at their reporting limits."""
    low = sum((Fraction(0) if r.nd else r.value for r in readings), Fraction(0))
    high = sum((r.value for r in readings), Fraction(0))
    return low, high


def daily_finding(limit: PermitLimit, day: date, readings: list[Reading]) -> Finding | None:
    """A day's results at one facility against a daily maximum: the mean of the day's
    results (one finding, listed on each of them)."""
    n = len(readings)
    low, high = _bounds(readings)
    if low / n > limit.value:
        status = Status.PROHIBITED
    elif high / n > limit.value:
        status = Status.INCONCLUSIVE
    else:
        return None
    unit = readings[0].analyte.canonical_unit
    message = (
        f"daily value {format_decimal(low / n)} {unit} on {day.isoformat()} (mean of {n} "
        f"result(s)) is above the permit's daily maximum {limit.text} {limit.unit}"
    )
    return Finding(status, limit.citation, message, limit.text, limit.unit, _used(limit))


@dataclass(frozen=True)
class MonthlyAverage:
    """One month of one analyte at one facility against a monthly-average limit."""

    facility: str
    parameter: str
    month: str  # YYYY-MM
    days_measured: int
    average: str  # with non-detects at zero, in the analyte's canonical unit
    limit: str
    limit_unit: str
    status: Status
    citation: str
    permit_id: str


def monthly_averages(
    limits: PermitLimits | None, readings: Iterable[Reading]
) -> list[MonthlyAverage]:
    """Every monthly average a monthly-average limit asks for: Σ daily values ÷ days measured,
    a day's value being the mean of its results; sorted by facility, parameter and month."""
    if limits is None:
        return []
    monthly = [lim for lim in limits.limits if lim.limit_type == "monthly_average"]
    # one average per limit (as the approval writes it) and month: its results, day by day
    days: dict[tuple[PermitLimit, str], dict[date, list[Reading]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for reading in readings:
        for lim in monthly:
            if lim.in_force(reading.facility, reading.analyte.name, reading.day):
                days[lim, reading.day.isoformat()[:7]][reading.day].append(reading)
    merged: dict[
        tuple[str, str, str, str, str, str, str], tuple[PermitLimit, dict[date, list[Reading]]]
    ] = {}
    for (lim, month), by_day in days.items():
        # limits written alike (a limit renewed within a month) give one average
        key = (
            lim.facility,
            lim.analyte,
            month,
            lim.text,
            lim.unit,
            lim.permit_id,
            str(lim.citation),
        )
        for day, results in by_day.items():
            merged.setdefault(key, (lim, defaultdict(list)))[1][day].extend(results)
    out = []
    for key, (lim, by_day) in merged.items():
        daily_low, daily_high = [], []
        for results in by_day.values():
            low, high = _bounds(results)
            daily_low.append(low / len(results))
            daily_high.append(high / len(results))
        n = len(by_day)
        average_low = sum(daily_low, Fraction(0)) / n
        average_high = sum(daily_high, Fraction(0)) / n
        if average_low > lim.value:
            status = Status.PROHIBITED
        elif average_high > lim.value:
            status = Status.INCONCLUSIVE
        else:
            status = Status.COMPLIANT
        facility, analyte, month, text, unit, permit_id, citation = key
        out.append(
            MonthlyAverage(
                facility,
                analyte,
                month,
                n,
                format_decimal(average_low),
                text,
                unit,
                status,
                citation,
                permit_id,
            )
        )
    return sorted(
        out, key=lambda m: (m.facility, m.parameter, m.month, m.limit, m.permit_id, m.citation)
    )
