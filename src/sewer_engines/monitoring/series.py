"""A monitored series, exactly: absolute times, scaled-integer values, runs of readings.

One *series* is one meter's readings of one parameter (§ 196-15 SLUG: "in concentration of
any given constituent or in quantity of flow" — each constituent and the flow are judged on
their own). In memory a series is two arrays of 64-bit integers, 16 bytes a reading:

- ``t``: the reading's instant in microseconds since 1970-01-01 UTC. Times are absolute, so a
  24-hour window is 24 hours of elapsed time also on the days clocks change (docs/interpretations.md:
  "windows are measured in absolute time"). Strictly increasing (sorted, no duplicates).
- ``v``: the value as reported, scaled to an integer: ``value = v / 10**scale``. Scaling by
  the largest number of decimal places the series was written with keeps every value exact,
  so comparisons with limits and with five times a baseline are integer comparisons
  (ARCHITECTURE.md: "Exact arithmetic for limit comparisons ... also in vectorised code").
  int64 where every scaled value fits (meters' values, and floats exported with 17
  significant digits, like ``190.95000000000002``); otherwise Python integers (an object
  array), exact and slower: the engine's arithmetic accepts both.

Runs (docs/interpretations.md, Slugs): each reading stands for the interval until the next reading.
A run of consecutive qualifying readings ``i..j`` lasts from ``t_i`` to ``t_(j+1)``. A gap
between readings longer than the maximum gap ends a run, and the run then ends at the last
qualifying reading's time plus the series' usual interval (the median interval between its
readings). The maximum gap follows the meter's own logging (:func:`logging_cadence`): three
times its usual interval (``slug.max_gap_intervals``), never less than five minutes
(``slug.max_gap_minimum``) — a meter logging every 15 minutes shows a 30-minute discharge as
a 30-minute run, where a fixed 5-minute gap ended every run at its first reading. The same
rule measures slugs and excursions. The rule read one reading at a time is
:mod:`sewer_rules.monitoring.runs`; :func:`runs` here measures the same runs on whole arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from sewer_rules.analytes import BY_NAME, Analyte
from sewer_rules.monitoring.instants import exact_decimal, local_date, local_midnight_us, ten
from sewer_rules.monitoring.runs import DEFAULT_MAX_GAP_US, max_gap_of
from sewer_rules.parameters import ParameterSet

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

EMPTY = np.zeros(0, dtype=np.int64)

#: The meter and parameter of a file that has no such columns (one meter's flow readings).
DEFAULT_METER = "default"
DEFAULT_PARAMETER = "flow"


def fewest_places(m: npt.NDArray[Any], places: int) -> tuple[npt.NDArray[Any], int]:
    """``m`` (values × 10**places) at the fewest decimal places its values need: a series is
    scaled by the most places any of its values needs, not by the zeros a file wrote
    (``12.30`` needs one). One pass when some value needs every place (the usual case)."""
    while places > 0 and not bool((m % 10).any()):
        m = m // 10
        places -= 1
    return m, places


@dataclass(frozen=True, eq=False)
class Series:
    """One meter's readings of one parameter, sorted, exact (see the module docstring)."""

    meter: str
    parameter: str
    unit: str
    t: I64
    v: npt.NDArray[Any]
    scale: int
    rows: I64 = field(default_factory=lambda: EMPTY)
    missing: int = 0
    deduplicated: int = 0

    def __post_init__(self) -> None:
        if self.t.shape != self.v.shape:
            raise ValueError("times and values differ in length")
        if self.scale < 0:
            raise ValueError("scale must be >= 0")

    @property
    def analyte(self) -> Analyte:
        return BY_NAME[self.parameter]

    def __len__(self) -> int:
        return int(self.t.shape[0])

    def decimal(self, scaled: int) -> Decimal:
        """A scaled integer of this series as the decimal it stands for."""
        return exact_decimal(int(scaled), self.scale)

    def fraction(self, scaled: int | Fraction) -> Fraction:
        return Fraction(scaled) / ten(self.scale)

    @classmethod
    def from_decimals(
        cls,
        meter: str,
        parameter: str,
        unit: str,
        times_us: list[int] | I64,
        values: list[Decimal] | list[str],
    ) -> Series:
        """A series from exact decimals (tests, examples); times must be strictly increasing."""
        decs = [Decimal(str(x)) for x in values]
        scale = max((max(0, -int(d.as_tuple().exponent)) for d in decs), default=0)
        scaled = [int(Fraction(d) * 10**scale) for d in decs]
        wide = max((abs(x) for x in scaled), default=0) >= 1 << 62
        ints = np.array(scaled, dtype=object if wide else np.int64)
        t = np.asarray(times_us, dtype=np.int64)
        if t.size > 1 and not bool(np.all(t[1:] > t[:-1])):
            raise ValueError("times must be strictly increasing")
        rows = np.arange(2, 2 + t.size, dtype=np.int64)
        return cls(meter, parameter, unit, t, ints, scale, rows)


# --- exact thresholds on scaled integers ----------------------------------------------------


def scaled_floor(x: Fraction, scale: int) -> int:
    """The largest integer ``T`` with ``T <= x * 10**scale``: for an integer ``v``,
    ``v > x * 10**scale`` exactly when ``v > T``."""
    return math.floor(x * ten(scale))


def scaled_ceil(x: Fraction, scale: int) -> int:
    """The smallest integer ``T`` with ``T >= x * 10**scale``: for an integer ``v``,
    ``v < x * 10**scale`` exactly when ``v < T``."""
    return math.ceil(x * ten(scale))


# --- dated parameters over a series --------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """Readings ``start..stop-1`` fall on dates with the same parameter values, those of ``on``."""

    start: int
    stop: int
    on: date


def segments(t: I64, params: ParameterSet, names: list[str], tz: str) -> list[Segment]:
    """Split a series where one of ``names`` changes value (an amended law is a data change):
    a reading is judged by the values in force on its date in the town's zone."""
    n = int(t.shape[0])
    if n == 0:
        return []
    first, last = local_date(int(t[0]), tz), local_date(int(t[-1]), tz)
    cuts = [d for d in params.breakpoints(names) if first < d <= last]
    bounds = [0]
    days = [first]
    for d in cuts:
        i = int(np.searchsorted(t, local_midnight_us(d, tz), side="left"))
        if bounds[-1] < i < n:
            bounds.append(i)
            days.append(d)
    bounds.append(n)
    return [Segment(bounds[k], bounds[k + 1], days[k]) for k in range(len(days))]


# --- cadence and runs ------------------------------------------------------------------------

CHUNK = 1 << 16


@dataclass(frozen=True)
class Cadence:
    """How a series was sampled: its usual (median) interval, where it departs from it, gaps.

    ``irregular`` holds every index ``j`` with ``t[j] - t[j-1] != interval``; it is None when
    most intervals differ (an irregular series), in which case no stretch counts as regular.
    """

    interval: int
    irregular: I64 | None
    gaps: int
    max_gap: int


def cadence(t: I64, max_gap: int) -> Cadence:
    """One pass over the times, chunk by chunk (cache-sized), no Python loop per reading."""
    n = int(t.shape[0])
    if n < 2:
        return Cadence(0, EMPTY, 0, max_gap)
    stride = max(1, (n - 1) // 4096)
    probe = np.arange(1, n, stride)
    guess = int(np.median(t[probe] - t[probe - 1]))
    found: list[I64] = []
    count = 0
    gaps = 0
    limit = (n - 2) // 2  # fewer than half of the n - 1 intervals may differ
    # when the maximum gap is at least the usual interval, every gap is an irregular interval
    gaps_among_irregular = max_gap >= guess
    diff = np.empty(min(CHUNK, n - 1), dtype=np.int64)
    for s in range(0, n - 1, CHUNK):
        if count > limit:
            break  # an irregular series: recomputed whole below
        e = min(n - 1, s + CHUNK)
        d = np.subtract(t[s + 1 : e + 1], t[s:e], out=diff[: e - s])
        off = np.flatnonzero(d != guess)
        count += int(off.size)
        found.append((off + (s + 1)).astype(np.int64))
        gaps += int(np.count_nonzero(d[off] > max_gap if gaps_among_irregular else d > max_gap))
    if count <= limit:
        # more than half of the intervals equal the guess: it is the median, exactly
        irregular = np.concatenate(found) if found else EMPTY
        return Cadence(guess, irregular, gaps, max_gap)
    d_all = np.diff(t)
    interval = int(np.median(d_all))
    return Cadence(interval, None, int(np.count_nonzero(d_all > max_gap)), max_gap)


@dataclass(frozen=True)
class Runs:
    """Maximal runs of qualifying readings: index of first and last reading, start and end."""

    first: I64
    last: I64
    start: I64
    end: I64

    @property
    def duration(self) -> I64:
        return self.end - self.start

    def __len__(self) -> int:
        return int(self.first.shape[0])

    def select(self, keep: Bools) -> Runs:
        return Runs(self.first[keep], self.last[keep], self.start[keep], self.end[keep])


def runs(t: I64, hits: I64, cad: Cadence) -> Runs:
    """Group the sorted indices of qualifying readings into runs (module docstring).

    Work is proportional to the number of qualifying readings, not to the series.
    """
    n = int(t.shape[0])
    if hits.size == 0:
        return Runs(EMPTY, EMPTY, EMPTY, EMPTY)
    step = np.diff(hits)
    gap = (t[hits[1:]] - t[hits[:-1]]) > cad.max_gap
    brk = np.flatnonzero((step != 1) | gap)
    first = hits[np.concatenate(([0], brk + 1))]
    last = hits[np.concatenate((brk, [hits.size - 1]))]
    start = t[first]
    nxt = np.minimum(last + 1, n - 1)
    follows = (last + 1 < n) & ((t[nxt] - t[last]) <= cad.max_gap)
    end = np.where(follows, t[nxt], t[last] + cad.interval)
    return Runs(
        first.astype(np.int64), last.astype(np.int64), start.astype(np.int64), end.astype(np.int64)
    )


def with_max_gap(cad: Cadence, t: I64, max_gap: int) -> Cadence:
    """``cad`` with another maximum gap, its gaps counted again (only the irregular intervals
    can be gaps when the maximum gap is at least the usual interval)."""
    if max_gap == cad.max_gap:
        return cad
    if cad.irregular is not None and max_gap >= cad.interval:
        irr = cad.irregular
        gaps = int(np.count_nonzero(t[irr] - t[irr - 1] > max_gap)) if irr.size else 0
    else:
        gaps = int(np.count_nonzero(np.diff(t) > max_gap))
    return Cadence(cad.interval, cad.irregular, gaps, max_gap)


def logging_cadence(
    t: I64, params: ParameterSet, tz: str, minimum_us: int | None = None
) -> Cadence:
    """The cadence of a series with the maximum gap of its own logging (:func:`max_gap_of`),
    the parameters read for the date of its last reading: one maximum gap a series, the
    meter's logging as it now stands."""
    if t.shape[0] == 0:
        return cadence(t, minimum_us if minimum_us is not None else DEFAULT_MAX_GAP_US)
    on = local_date(int(t[-1]), tz)
    floor = max_gap_of(0, params, on, minimum_us)
    cad = cadence(t, floor)
    return with_max_gap(cad, t, max_gap_of(cad.interval, params, on, minimum_us))
