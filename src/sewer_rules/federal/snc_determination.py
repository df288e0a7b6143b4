"""Significant noncompliance over a period: every facility × parameter × limit, determined.

40 CFR 403.8(f)(2)(viii): "... an Industrial User is in significant noncompliance if its
violation meets one or more of the following criteria:
(A) Chronic violations of wastewater Discharge limits, defined here as those in which
    sixty-six percent or more of all of the measurements taken for the same pollutant parameter
    taken during a six- (6-) month period exceed (by any magnitude) a numeric Pretreatment
    Standard or Requirement, including instantaneous limits ...;
(B) Technical Review Criteria (TRC) violations, defined here as those in which thirty-three
    percent or more of wastewater measurements taken for each pollutant parameter during a six-
    (6-) month period equals or exceeds the product of the numeric Pretreatment Standard or
    Requirement including instantaneous limits ... multiplied by the applicable criteria (1.4
    for BOD, TSS, fats, oils and grease, and 1.2 for all other pollutants except pH);
(C) Any other violation ... that the Control Authority determines has caused, alone or in
    combination with other Discharges, Interference or Pass Through, including endangering the
    health of POTW personnel or the general public;
(D) Any discharge of a pollutant that has caused imminent endangerment to the public or to the
    environment, or has resulted in the Control Authority's exercise of its emergency authority
    to halt or prevent such a discharge;
(E) Failure to meet, within 90 days of the scheduled date, a compliance schedule milestone ...;
(F) Failure to provide within 45 days after the due date, any required reports ...;
(G) Failure to accurately report noncompliance;
(H) Any other violation(s) ... which the Control Authority determines will adversely affect
    the operation or implementation of the local pretreatment program."

What is computed here from files: (A) and (B) from the measurements and a facility's numeric
limits (the limits file of ``sewer-use check``), and (F) from report due and received dates.
(C), (D), (E), (G) and (H) are determinations of staff, recorded in the office.

Readings of the regulation (``docs/interpretations.md``):

- A *measurement* is one result row compared with an instantaneous or daily-maximum limit, and
  one calendar month's average (sum of daily values ÷ days measured) compared with a
  monthly-average limit. Each limit is its own series: one determination per facility ×
  parameter × limit type, with the limit value in force.
- A non-detect counts as a measurement that does not exceed: its true value is unknown and at
  most its reporting limit, and SNC is not presumed.
- "exceed" for a minimum limit (pH) is "below it"; (B)'s "equals or exceeds the product" is
  defined for maxima only, so it is not applied to minimum limits (and never to pH).
- The six-month period is the calendar half-year (``snc.rolling_window`` 0, the default) or a
  rolling six months evaluated at the end of each calendar quarter (1, or ``--rolling``).
- Counting is exact: ``exceeding × 100 ≥ 66 × measurements``, values compared in decimal,
  ``limit × TRC`` computed in decimal (``0.204 ≥ 0.17 × 1.2`` holds).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from sewer_rules.citations import ExternalReference
from sewer_rules.parameters import ParameterSet

from .cfr403_snc import EXCLUDED_FROM_TRC, technical_review_criterion

ROLLING_WINDOW = "snc.rolling_window"
MINIMUM_TYPES = frozenset({"instantaneous_minimum"})
MONTHLY_TYPES = frozenset({"monthly_average"})


def criterion(letter: str) -> ExternalReference:
    """The citation of one criterion, ``40 CFR 403.8(f)(2)(viii)(A)``."""
    return ExternalReference(f"40 CFR 403.8(f)(2)(viii)({letter})")


class PeriodError(ValueError):
    """A period that cannot be read, e.g. ``2026H3``."""


@dataclass(frozen=True, order=True)
class Window:
    start: date
    end: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.start <= day <= self.end

    def as_dict(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def _month_end(year: int, month: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return nxt - timedelta(days=1)


def _months_back(end: date, months: int) -> date:
    """The first day of the six-month (``months``) window that ends on the month-end ``end``."""
    index = end.year * 12 + end.month - 1 - (months - 1)
    return date(index // 12, index % 12 + 1, 1)


def parse_period(text: str) -> Window:
    """``2026H1``, ``2026H2``, ``2026`` or ``2026-01..2026-06`` (whole months, inclusive)."""
    t = text.strip()
    if m := re.fullmatch(r"(\d{4})H([12])", t):
        year, half = int(m[1]), int(m[2])
        return Window(date(year, 6 * half - 5, 1), _month_end(year, 6 * half))
    if m := re.fullmatch(r"(\d{4})", t):
        return Window(date(int(m[1]), 1, 1), date(int(m[1]), 12, 31))
    if m := re.fullmatch(r"(\d{4})-(\d{2})\.\.(\d{4})-(\d{2})", t):
        y1, m1, y2, m2 = (int(g) for g in m.groups())
        if not (1 <= m1 <= 12 and 1 <= m2 <= 12):
            raise PeriodError(f"period {text!r}: months run from 01 to 12")
        window = Window(date(y1, m1, 1), _month_end(y2, m2))
        if window.end < window.start:
            raise PeriodError(f"period {text!r}: it ends before it starts")
        return window
    raise PeriodError(
        f"period {text!r}: write a half-year (2026H1), a year (2026) or months (2026-01..2026-06)"
    )


def six_month_windows(period: Window, rolling: bool) -> list[Window]:
    """The six-month windows a period is judged over.

    Fixed: the calendar halves that make up the period (it must be whole halves). Rolling: the
    six months ending at each calendar quarter end inside the period (they may reach back
    before the period's start: that is what a rolling six months is).
    """
    if rolling:
        ends = [
            _month_end(y, m)
            for y in range(period.start.year, period.end.year + 1)
            for m in (3, 6, 9, 12)
            if period.start <= _month_end(y, m) <= period.end
        ]
        if not ends:
            raise PeriodError(f"the period {period.start}..{period.end} holds no quarter's end")
        return [Window(_months_back(e, 6), e) for e in ends]
    halves = [
        Window(date(y, 6 * h - 5, 1), _month_end(y, 6 * h))
        for y in range(period.start.year, period.end.year + 1)
        for h in (1, 2)
    ]
    inside = [w for w in halves if period.start <= w.start and w.end <= period.end]
    if not inside or inside[0].start != period.start or inside[-1].end != period.end:
        raise PeriodError(
            f"a fixed six-month period is made of calendar halves (Jan–Jun, Jul–Dec): "
            f"{period.start}..{period.end} is not; give whole halves or use the rolling window"
        )
    return inside


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


@dataclass(frozen=True)
class Report:
    """A required report (periodic compliance, baseline, 90-day ...) and when it came."""

    facility: str
    report: str
    due: date
    received: date | None


@dataclass(frozen=True)
class ReportDetermination:
    report: Report
    as_of: date
    late_days: int
    limit_days: int

    @property
    def snc(self) -> bool:
        return self.late_days > self.limit_days

    def as_dict(self) -> dict[str, object]:
        r = self.report
        return {
            "facility": r.facility,
            "report": r.report,
            "due": r.due.isoformat(),
            "received": r.received.isoformat() if r.received else None,
            "days_late": self.late_days,
            "snc": self.snc,
            "criteria": ["F"] if self.snc else [],
            "citations": [str(criterion("F"))],
        }


@dataclass(frozen=True)
class SNCReport:
    period: Window
    rolling: bool
    determinations: tuple[Determination, ...]
    reports: tuple[ReportDetermination, ...] = field(default=())

    @property
    def found(self) -> bool:
        return any(d.snc for d in self.determinations) or any(r.snc for r in self.reports)

    def as_dict(self) -> dict[str, object]:
        return {
            "period": self.period.as_dict(),
            "window": "rolling" if self.rolling else "fixed",
            "determinations": [d.as_dict() for d in self.determinations],
            "reports": [r.as_dict() for r in self.reports],
            "facilities_in_snc": sorted(
                {d.limit.facility for d in self.determinations if d.snc}
                | {r.report.facility for r in self.reports if r.snc}
            ),
            "not_computed": [
                f"{criterion(c)}: determined by staff, recorded in the office"
                for c in ("C", "D", "E", "G", "H")
            ],
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


def _comparer(limit: Limit, trc: Decimal | None) -> Callable[[Measurement], Counted]:
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


def _in_window(
    pool: Sequence[Measurement], days: Sequence[date], w: Window
) -> Sequence[Measurement]:
    """The measurements of a day-sorted ``pool`` whose day falls in ``w``."""
    return pool[bisect_left(days, w.start) : bisect_right(days, w.end)]


def determine(
    measurements: Sequence[Measurement],
    limits: Sequence[Limit],
    period: Window,
    params: ParameterSet,
    *,
    rolling: bool | None = None,
    reports: Sequence[Report] = (),
    as_of: date | None = None,
) -> SNCReport:
    """(A), (B) per facility × parameter × limit and (F) per report, over ``period``."""
    if rolling is None:
        rolling = bool(params.value(ROLLING_WINDOW, period.end))
    windows = six_month_windows(period, rolling)
    by_series: dict[tuple[str, str], list[Measurement]] = defaultdict(list)
    for m in measurements:
        by_series[(m.facility, m.analyte)].append(m)
    monthly_keys = {
        (lim.facility, lim.analyte) for lim in limits if lim.limit_type in MONTHLY_TYPES
    }
    monthly = {key: monthly_averages(by_series.get(key, [])) for key in monthly_keys}
    # each pool sorted once by day (then rows), with its days for the windows' bisection
    pools: dict[tuple[bool, str, str], tuple[list[Measurement], list[date]]] = {}

    def pool_of(facility: str, analyte: str, month: bool) -> tuple[list[Measurement], list[date]]:
        key = (month, facility, analyte)
        if key not in pools:
            source = (monthly if month else by_series).get((facility, analyte), [])
            ordered = sorted(source, key=lambda m: (m.day, m.rows))
            pools[key] = (ordered, [m.day for m in ordered])
        return pools[key]

    series: dict[tuple[str, str, str], list[Limit]] = defaultdict(list)
    for lim in limits:
        series[(lim.facility, lim.analyte, lim.limit_type)].append(lim)
    determinations = []
    for (facility, analyte, limit_type), versions in sorted(series.items()):
        pool, days = pool_of(facility, analyte, limit_type in MONTHLY_TYPES)
        for lim in sorted(versions, key=lambda v: v.valid_from):
            if lim.valid_to < windows[0].start or lim.valid_from > windows[-1].end:
                continue
            trc = None
            if limit_type not in MINIMUM_TYPES and analyte not in EXCLUDED_FROM_TRC:
                trc = technical_review_criterion(analyte, params, period.end)
            compare = _comparer(lim, trc)
            counts = tuple(
                WindowCount(
                    w,
                    tuple(
                        compare(m)
                        for m in _in_window(pool, days, w)
                        if lim.valid_from <= m.day <= lim.valid_to
                    ),
                    trc,
                    params.value("snc.chronic_percent", w.end),
                    params.value("snc.trc_percent", w.end),
                )
                for w in windows
            )
            determinations.append(Determination(lim, counts, trc))
    late = params.value("snc.report_late_days", period.end)
    judged_on = as_of or period.end
    report_results = tuple(
        ReportDetermination(r, judged_on, ((r.received or judged_on) - r.due).days, int(late))
        for r in sorted(reports, key=lambda r: (r.facility, r.due, r.report))
        if r.due in period
    )
    return SNCReport(period, rolling, tuple(determinations), report_results)
