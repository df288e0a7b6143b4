"""40 CFR 403.8(f)(2)(viii) (A) chronic and (B) technical review criteria violations.

40 CFR 403.8(f)(2)(viii):
(A) Chronic violations of wastewater Discharge limits, defined here as those in which
    sixty-six percent or more of all of the measurements taken for the same pollutant parameter
    taken during a six- (6-) month period exceed (by any magnitude) a numeric Pretreatment
    Standard or Requirement, including instantaneous limits ...;
(B) Technical Review Criteria (TRC) violations, defined here as those in which thirty-three
    percent or more of wastewater measurements taken for each pollutant parameter during a six-
    (6-) month period equals or exceeds the product of the numeric Pretreatment Standard or
    Requirement including instantaneous limits ... multiplied by the applicable criteria (1.4
    for BOD, TSS, fats, oils and grease, and 1.2 for all other pollutants except pH);

Computed from the measurements and a facility's numeric limits (the limits file of
``sewer-use check``). Readings of the regulation (``docs/interpretations.md``):

- A *measurement* is one result row compared with an instantaneous or daily-maximum limit, and
  one calendar month's average (sum of daily values ÷ days measured) compared with a
  monthly-average limit. Each limit is its own series: one determination per facility ×
  parameter × limit type, with the limit value in force.
- A non-detect counts as a measurement that does not exceed: its true value is unknown and at
  most its reporting limit, and SNC is not presumed.
- "exceed" for a minimum limit (pH) is "below it"; (B)'s "equals or exceeds the product" is
  defined for maxima only, so it is not applied to minimum limits (and never to pH).
- Counting is exact: ``exceeding × 100 ≥ 66 × measurements``, values compared in decimal,
  ``limit × TRC`` computed in decimal (``0.204 ≥ 0.17 × 1.2`` holds).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from .snc_criteria import criterion
from .snc_periods import Window

MINIMUM_TYPES = frozenset({"instantaneous_minimum"})
MONTHLY_TYPES = frozenset({"monthly_average"})


class Measurement(NamedTuple):
    """One measurement of a facility's parameter: a result row, or a month's average.

    Immutable, and a tuple: hundreds of thousands are made per determination in the office.
    """

    facility: str
    analyte: str
    day: date
    value: Fraction
    nd: bool
    rows: tuple[int, ...]
    sample_id: str = ""


@dataclass(frozen=True)
class Limit:
    facility: str
    analyte: str
    limit_type: str
    value: Decimal
    valid_from: date
    valid_to: date
    text: str = ""
    unit: str = ""
    citation: str = ""


class Counted(NamedTuple):
    measurement: Measurement
    exceeds: bool
    at_or_above_trc: bool | None

    def as_dict(self) -> dict[str, object]:
        m = self.measurement
        return {
            "rows": list(m.rows),
            "sample_id": m.sample_id or None,
            "day": m.day.isoformat(),
            "value": _show(m.value),
            "non_detect": m.nd,
            "exceeds": self.exceeds,
            "at_or_above_trc": self.at_or_above_trc,
        }


@dataclass(frozen=True)
class WindowCount:
    """The measurements of one window and their counts.

    ``source`` is the counted measurements, or a function that makes them when they are first
    asked for; ``tally`` (measurements, exceeding, at or above TRC), when given, is the counts
    computed beforehand (the columnar path of :mod:`.snc_columnar`), which must be those of
    the measurements ``source`` makes.
    """

    window: Window
    source: tuple[Counted, ...] | Callable[[], tuple[Counted, ...]]
    trc: Decimal | None
    chronic_percent: Decimal
    trc_percent: Decimal
    tally: tuple[int, int, int] | None = None

    @cached_property
    def counted(self) -> tuple[Counted, ...]:
        return self.source if isinstance(self.source, tuple) else tuple(self.source())

    @property
    def measurements(self) -> int:
        return self.tally[0] if self.tally is not None else len(self.counted)

    @cached_property
    def exceeding(self) -> int:
        if self.tally is not None:
            return self.tally[1]
        return sum(c.exceeds for c in self.counted)

    @cached_property
    def trc_exceeding(self) -> int | None:
        if self.trc is None:
            return None
        if self.tally is not None:
            return self.tally[2]
        return sum(bool(c.at_or_above_trc) for c in self.counted)

    @cached_property
    def criteria(self) -> list[str]:
        n, met = self.measurements, []
        if n and self.exceeding * 100 >= self.chronic_percent * n:
            met.append("A")
        trc_hits = self.trc_exceeding
        if n and trc_hits is not None and trc_hits * 100 >= self.trc_percent * n:
            met.append("B")
        return met

    def as_dict(self) -> dict[str, object]:
        return {
            **self.window.as_dict(),
            "measurements": self.measurements,
            "exceeding": self.exceeding,
            "trc_exceeding": self.trc_exceeding,
            "criteria": self.criteria,
        }


@dataclass(frozen=True)
class Determination:
    """(A) and (B) for one facility × parameter × limit over the period's windows."""

    limit: Limit
    windows: tuple[WindowCount, ...]
    trc: Decimal | None

    @property
    def deciding(self) -> WindowCount:
        """The first window in SNC, else the last window (whose counts are shown)."""
        return next((w for w in self.windows if w.criteria), self.windows[-1])

    @property
    def criteria(self) -> list[str]:
        return sorted({c for w in self.windows for c in w.criteria})

    @property
    def snc(self) -> bool:
        return bool(self.criteria)

    def as_dict(self) -> dict[str, object]:
        w = self.deciding
        evaluated = ["A"] if self.trc is None else ["A", "B"]
        return {
            "facility": self.limit.facility,
            "parameter": self.limit.analyte,
            "limit_type": self.limit.limit_type,
            "limit": _show(Fraction(self.limit.value)),
            "unit": self.limit.unit,
            "limit_as_written": self.limit.text or None,
            "limit_authority": self.limit.citation or None,
            "trc": None if self.trc is None else str(self.trc),
            "window": w.window.as_dict(),
            "measurements": w.measurements,
            "exceeding": w.exceeding,
            "trc_exceeding": w.trc_exceeding,
            "snc": self.snc,
            "criteria": self.criteria,
            "citations": [str(criterion(c)) for c in (self.criteria or evaluated)],
            "windows": [x.as_dict() for x in self.windows],
            "counted": [c.as_dict() for c in w.counted],
        }


def _show(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return format(d.normalize(), "f") if d == Fraction(d) else f"{d:.6f}"


def monthly_averages(measurements: Iterable[Measurement]) -> list[Measurement]:
    """Each facility × parameter × calendar month: the sum of daily values ÷ days measured.

    A day's value is the mean of that day's results. A non-detect enters at zero, the lower
    bound of its true value, so a month counts as exceeding only when it exceeds whatever the
    non-detects really were (SNC is never presumed).
    """
    days: dict[tuple[str, str, date], list[Measurement]] = defaultdict(list)
    for m in measurements:
        days[(m.facility, m.analyte, m.day)].append(m)
    months: dict[tuple[str, str, date], list[tuple[Fraction, tuple[int, ...]]]]
    months = defaultdict(list)
    for (facility, analyte, day), ms in days.items():
        value = sum((Fraction(0) if m.nd else m.value for m in ms), Fraction(0)) / len(ms)
        rows = tuple(r for m in ms for r in m.rows)
        months[(facility, analyte, day.replace(day=1))].append((value, rows))
    out = []
    for (facility, analyte, first), values in sorted(months.items()):
        avg = sum((v for v, _ in values), Fraction(0)) / len(values)
        rows = tuple(sorted(r for _, rs in values for r in rs))
        out.append(Measurement(facility, analyte, first, avg, False, rows))
    return out


def comparer(limit: Limit, trc: Decimal | None) -> Callable[[Measurement], Counted]:
    """The comparison of measurements with one limit, exactly: ``a/b > p/q`` as ``a·q > p·b``
    in integers (denominators are positive), the bounds computed once per limit."""
    lim = Fraction(limit.value)
    p, q = lim.numerator, lim.denominator

    if limit.limit_type in MINIMUM_TYPES:

        def below(m: Measurement) -> Counted:
            v = m.value
            return Counted(m, (not m.nd) and v.numerator * q < p * v.denominator, None)

        return below
    if trc is None:

        def above(m: Measurement) -> Counted:
            v = m.value
            return Counted(m, (not m.nd) and v.numerator * q > p * v.denominator, None)

        return above
    bound = lim * Fraction(trc)
    bp, bq = bound.numerator, bound.denominator

    def above_and_trc(m: Measurement) -> Counted:
        if m.nd:
            return Counted(m, False, False)
        a, b = m.value.numerator, m.value.denominator
        return Counted(m, a * q > p * b, a * bq >= bp * b)

    return above_and_trc


def in_window(
    pool: Sequence[Measurement], days: Sequence[date], w: Window
) -> Sequence[Measurement]:
    """The measurements of a day-sorted ``pool`` whose day falls in ``w``."""
    return pool[bisect_left(days, w.start) : bisect_right(days, w.end)]
