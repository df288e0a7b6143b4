"""How long a discharge lasts: runs of readings, the meter's usual interval, its maximum gap.

docs/interpretations.md, "Slugs" (the same measure serves the excursions of § 196-19 C(3), D(8),
D(1)): each reading stands for the interval until the next reading. A run of consecutive
qualifying readings ``i..j`` lasts from ``t_i`` to ``t_(j+1)``. A gap between readings longer
than the maximum gap ends a run, and the run then ends at the last qualifying reading's time
plus the series' usual interval (the median interval between its readings). The maximum gap
follows the meter's own logging: ``slug.max_gap_intervals`` (three) times its usual interval,
never less than ``slug.max_gap_minimum`` (five minutes) — a meter logging every 15 minutes
shows a 30-minute discharge as a 30-minute run.

Read here one reading at a time; :mod:`sewer_engines.monitoring.series` measures the same runs
on whole arrays, and the property tests compare the two.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import pairwise

from sewer_rules.parameters import ParameterSet

from .instants import US_PER_MINUTE, local_date, value_on

#: The shortest maximum gap where the jurisdiction configures none (``slug.max_gap_minimum``).
DEFAULT_MAX_GAP_US = 5 * US_PER_MINUTE
#: The dated parameters of the maximum gap (:func:`max_gap_of`).
GAP_PARAMETERS = ["slug.max_gap_intervals", "slug.max_gap_minimum"]


@dataclass(frozen=True)
class Run:
    """Readings ``first..last`` (indices) in a row, lasting from ``start`` to ``end`` (µs)."""

    first: int
    last: int
    start: int
    end: int

    @property
    def duration(self) -> int:
        return self.end - self.start


def usual_interval(times: Sequence[int]) -> int:
    """The median interval between consecutive readings (0 for fewer than two readings)."""
    if len(times) < 2:
        return 0
    return int(statistics.median(b - a for a, b in pairwise(times)))


def max_gap_of(interval: int, params: ParameterSet, on: date, minimum_us: int | None = None) -> int:
    """The maximum gap of a series whose usual interval is ``interval``: ``slug.max_gap_intervals``
    times it, never less than ``minimum_us`` (None: ``slug.max_gap_minimum`` in force on
    ``on``; where the jurisdiction configures neither, five minutes)."""
    if minimum_us is None:
        floor = value_on(params, "slug.max_gap_minimum", on)
        minimum_us = DEFAULT_MAX_GAP_US if floor is None else int(Fraction(floor) * US_PER_MINUTE)
    multiple = value_on(params, "slug.max_gap_intervals", on)
    derived = 0 if multiple is None else int(Fraction(multiple) * interval)
    return max(derived, minimum_us)


def meter_max_gap(
    times: Sequence[int], params: ParameterSet, tz: str, minimum_us: int | None = None
) -> int:
    """The maximum gap of a meter's series: of its own logging, the parameters read for the
    date of its last reading (one maximum gap a series, the logging as it now stands)."""
    if not times:
        return DEFAULT_MAX_GAP_US if minimum_us is None else minimum_us
    on = local_date(times[-1], tz)
    return max_gap_of(usual_interval(times), params, on, minimum_us)


def runs_of(times: Sequence[int], qualifying: Sequence[int], max_gap: int) -> list[Run]:
    """The runs of the sorted indices ``qualifying``: consecutive readings no more than
    ``max_gap`` apart, each run lasting until the reading after its last one, or (at a longer
    gap or the end of the series) until its last reading plus the usual interval."""
    interval = usual_interval(times)
    out: list[Run] = []
    k = 0
    while k < len(qualifying):
        first = last = qualifying[k]
        while (
            k + 1 < len(qualifying)
            and qualifying[k + 1] == last + 1
            and times[last + 1] - times[last] <= max_gap
        ):
            k += 1
            last = qualifying[k]
        k += 1
        follows = last + 1 < len(times) and times[last + 1] - times[last] <= max_gap
        end = times[last + 1] if follows else times[last] + interval
        out.append(Run(first, last, times[first], end))
    return out
