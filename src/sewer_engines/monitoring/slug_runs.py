"""From runs of exceeding readings to slugs (§ 196-15 SLUG): which runs last longer than the
minimum duration, and each slug's peak and the baseline its first reading exceeded — the mean
of its window's normal-operation readings, the mean carried from the window ending with the
last of them, or a fixed baseline — and whether a baseline was carried for any of its
readings. The determination of which readings exceed is :mod:`.normal`'s and :mod:`.kernel`'s;
:mod:`.slugs` puts the steps together. The slugs are the rules'
(:class:`sewer_rules.monitoring.slugs.Slug`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from sewer_rules.monitoring.instants import US_PER_MINUTE, exact_decimal, ten, value_on
from sewer_rules.monitoring.slugs import Slug
from sewer_rules.parameters import ParameterSet

from .kernel import Judgement, WindowRule
from .series import I64, Runs, Segment, Series
from .windows import exact_sum, window_start


def _peaks(v: I64, hits: I64, first: I64, last: I64) -> I64:
    """The largest value of each run (a run is consecutive exceeding readings), reduced over
    the exceeding readings only."""
    values = v[hits]
    bounds = np.empty(2 * first.size, dtype=np.int64)
    bounds[0::2] = np.searchsorted(hits, first)
    bounds[1::2] = np.searchsorted(hits, last) + 1
    if bounds[-1] >= values.shape[0]:
        bounds = bounds[:-1]  # the last run ends at the last exceeding reading
    return np.asarray(np.maximum.reduceat(values, bounds)[0::2], dtype=values.dtype)


def slugs_of_runs(
    series: Series,
    params: ParameterSet,
    segs: list[Segment],
    multiples: list[Fraction | None],
    window_rules: list[WindowRule],
    pieces: list[tuple[int, Fraction]],
    judgement: Judgement,
    found: Runs,
    fixed: int,
) -> list[Slug]:
    """The runs of ``found`` lasting longer than ``slug.minimum_duration`` in force on their
    first reading's date, as slugs; readings from ``fixed`` on are judged against the fixed
    baselines ``pieces`` (each from its first reading's index)."""
    if len(found) == 0:
        return []
    starts = np.array([s.start for s in segs], dtype=np.int64)
    which = np.searchsorted(starts, found.first, side="right") - 1
    limits = []
    for seg in segs:
        longest = value_on(params, "slug.minimum_duration", seg.on)
        limits.append(-1 if longest is None else int(Fraction(longest) * US_PER_MINUTE))
    limit = np.array(limits, dtype=np.int64)[which]
    keep = np.flatnonzero((limit >= 0) & (found.duration > limit))
    if keep.size == 0:
        return []
    first, last = found.first[keep], found.last[keep]
    peaks = _peaks(series.v, judgement.hits, first, last).tolist()
    segment = which[keep].tolist()
    starts_us, ends_us = found.start[keep].tolist(), found.end[keep].tolist()
    if judgement.sums is not None and judgement.counts is not None:
        at = np.searchsorted(judgement.hits, first)
        totals = [int(x) for x in judgement.sums[at].tolist()]
        counts = judgement.counts[at].tolist()
    else:
        totals, counts = [0] * keep.size, [1] * keep.size
    t = series.t
    out: list[Slug] = []
    for k, (f, lst) in enumerate(zip(first.tolist(), last.tolist(), strict=True)):
        multiple = multiples[segment[k]]
        if multiple is None:
            continue
        total, count, carried_from = totals[k], counts[k], None
        if f < fixed and judgement.sums is None:
            # the mean of the window's normal-operation readings, or the mean carried from
            # the window ending with the last of them (module docstring)
            window = window_rules[segment[k]].window
            normal = judgement.normal
            lo = window_start(t, f, window)
            inside = series.v[lo:f] if normal is None else series.v[lo:f][normal[lo:f]]
            before = f - 1 if normal is None else _last_normal(normal, f)
            if inside.shape[0] == 0:
                k0 = window_start(t, before, window - 1)
                inside = series.v[k0 : before + 1]
                if normal is not None:
                    inside = inside[normal[k0 : before + 1]]
            total, count = exact_sum(inside), int(inside.shape[0])
            if int(t[before]) < int(t[min(lst, fixed - 1)]) - window:
                carried_from = int(t[before])
        fixed_baseline = _fixed_at(pieces, f)
        out.append(
            Slug(
                starts_us[k],
                ends_us[k],
                f,
                lst,
                exact_decimal(peaks[k], series.scale),
                multiple,
                fixed_baseline
                if fixed_baseline is not None
                else Fraction(total, count * ten(series.scale)),
                carried_from,
            )
        )
    return out


def _fixed_at(pieces: list[tuple[int, Fraction]], i: int) -> Fraction | None:
    """The fixed baseline judging reading ``i`` (None: the trailing mean judges it)."""
    value = None
    for start, fixed in pieces:
        if start <= i:
            value = fixed
    return value


def _last_normal(normal: npt.NDArray[np.bool_], before: int) -> int:
    """The last reading before ``before`` that counts as normal operation (reading 0 does:
    it is never judged), looked for backwards in stretches growing from 64 readings (the
    reading just before a slug is usually normal)."""
    if before > 0 and normal[before - 1]:
        return before - 1
    hi, size = before, 64
    while hi > 0:
        lo = max(0, hi - size)
        found = np.flatnonzero(normal[lo:hi])
        if found.size:
            return lo + int(found[-1])
        hi, size = lo, min(size * 4, 1 << 16)
    return 0
