"""Baselines of readings "during normal operation" (§ 196-15 SLUG), exactly and vectorised.

The rule (INTERPRETATIONS.md, "Slugs"): the baseline of a reading at ``t`` is the mean of the
series' readings in ``[t - W, t)`` that were taken *during normal operation*. A reading that
exceeded ``p/q`` times its own baseline is not normal operation and enters no later baseline;
a reading with no baseline (less than ``W`` of history, or a window holding no normal
reading) is not judged and counts as normal. A reading's status therefore depends on the
statuses of the readings before it: the rule is sequential.

How it is computed without a loop per reading. Write ``x_i`` for "reading ``i`` exceeded"
and ``f_i`` for the test of reading ``i`` given the statuses of the readings before it, so the
truth is the unique solution of ``x_i = f_i(x_0 .. x_(i-1))``. Start from "every reading
normal" — that pass is :func:`.kernel.trailing_exceedances`, the fast screened pass — and
iterate whole vectorised passes ``x ← f(x)``:

- Each pass computes, for the readings it looks at, the exact window sum and count of the
  readings currently taken as normal (prefix sums of ``value × normal`` and of ``normal``),
  and the exact test ``q·C·v > p·S`` (as in :mod:`.kernel`).
- Only readings *downstream of a change* are looked at again: those whose window holds a
  reading whose status changed in the previous pass (``t_d < t_i <= t_d + W``). Every other
  reading's inputs are what they were when it was last judged.
- The prefix up to and including the first reading whose status changed is final: its
  baseline depends only on earlier readings, all unchanged. So each pass makes at least one
  more reading final, and the iteration stops at the fixed point ``x = f(x)``, which is the
  sequential reading of the rule (the solution is unique).

How many passes. A slug of ``L`` readings ``r`` times the normal level, in a window of ``K``
readings: the first pass finds about ``K (r - 5) / (5 (r - 1))`` of them (its own readings
raise the plain mean); each further pass, now without them, finds about as many again; one
last pass confirms. A 300-minute discharge at 10 × the normal level: 160 + 140 readings, three
passes. Independent slugs progress in the same passes. The worst case is a level that sits
just above five times the old normal (``r`` → 5): about one more reading a pass until the
window holds none of the old level (at most ``K`` passes, one day of readings), each pass
touching only one window of readings (``O(K log n)``). In general the number of passes is at
most one more than the longest chain of readings each of whose status changed because of the
one before, and never more than the number of readings judged.

Exactness: the sums are exact integers — int64 where ``magnitude × span`` cannot overflow,
otherwise two 32-bit limbs — and the comparison is exact (:mod:`.exact`).

Where the compiled module is built (:mod:`.native`), :func:`normal_exceedances` judges the
readings one after another in C instead — the sequential reading itself, one pass, exact in
128-bit integers — and the passes (:func:`by_passes`) serve values beyond 64 bits and a
project installed without a C compiler. The tests compare both with each other and with the
one-reading-at-a-time reference.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from sewer_rules.machine import cpus

from .exact import exceeds, prefix_sums
from .kernel import Judgement, WindowRule, trailing_exceedances
from .native import normal_judgement
from .series import CHUNK, EMPTY, I64, Bools, Cadence


def _downstream(t: I64, changed: I64, window: int) -> tuple[I64, I64]:
    """Merged ranges ``[A, B)`` of the readings whose window holds a changed reading."""
    starts = changed + 1
    ends = np.searchsorted(t, t[changed] + window, side="right").astype(np.int64)
    # ends never decrease (times are sorted): a new range begins past the previous end
    new = np.ones(starts.size, dtype=np.bool_)
    new[1:] = starts[1:] > ends[:-1]
    first = np.flatnonzero(new)
    last = np.concatenate((first[1:] - 1, [starts.size - 1]))
    a, b = starts[first], ends[last]
    keep = b > a
    return a[keep], b[keep]


def _ranges(a: I64, b: I64) -> I64:
    """The concatenation of ``arange(a_k, b_k)`` for every k, without a loop."""
    lengths = b - a
    total = int(lengths.sum())
    if total == 0:
        return EMPTY
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(a - offsets, lengths) + np.arange(total, dtype=np.int64)


class _Rules:
    """Per-reading constants of the window rules in force (dated parameters split a series)."""

    def __init__(self, t: I64, rules: list[WindowRule]) -> None:
        live = [r for r in rules if r.in_force and r.window > 0 and r.stop > r.start]
        self.starts = np.array([r.start for r in live], dtype=np.int64)
        self.stops = np.array([r.stop for r in live], dtype=np.int64)
        self.window = np.array([r.window for r in live], dtype=np.int64)
        self.p = np.array([r.p for r in live], dtype=np.int64)
        self.q = np.array([r.q for r in live], dtype=np.int64)
        t0 = int(t[0]) if t.size else 0
        self.first = np.array(
            [max(r.start, int(np.searchsorted(t, t0 + r.window, side="left"))) for r in live],
            dtype=np.int64,
        )
        self.widest = int(self.window.max()) if live else 0

    def of(self, idx: I64) -> tuple[I64, Bools]:
        """The rule of each reading and whether it is judged by one (in force, full window)."""
        which = np.searchsorted(self.starts, idx, side="right") - 1
        safe = np.maximum(which, 0)
        judged = (which >= 0) & (idx < self.stops[safe]) & (idx >= self.first[safe])
        return safe, judged


#: Readings read at once in a correction pass (their windows included). A pass after a slug
#: touches the day behind each changed reading; worked whole, the first pass over the benchmark's
#: 5,000,000 readings made some forty arrays of 3,000,000 values, fresh memory each, faulted in
#: by the kernel page by page (a third of the engine's time). In cache-sized batches the same
#: memory serves batch after batch (``sewer-use slugs`` keeps freed memory for reuse:
#: ``sewer_cli/allocator.py``): 0.45 s -> 0.17 s for the passes.
BATCH = CHUNK

#: Threads judging a pass's batches: the batches of one pass read the statuses of the previous
#: pass and write nothing another reads, and numpy releases the interpreter in their steps.
WORKERS = min(2, cpus())


def normal_exceedances(
    t: I64, v: npt.NDArray[Any], cad: Cadence, rules: list[WindowRule]
) -> Judgement:
    """Readings exceeding ``p/q`` times the mean of the *normal-operation* readings in the
    window before them (module docstring); ``normal`` in the result marks the readings that
    count as normal operation (None: every reading does).

    Judged one reading after another by the compiled loop where it is built and the values
    are within its arithmetic (:func:`.native.normal_judgement`, one pass), else by the
    vectorised passes of :func:`by_passes`: the same readings either way (the tests compare
    both with the sequential reference)."""
    judged = normal_judgement(t, v, rules)
    return judged if judged is not None else by_passes(t, v, cad, rules)


def by_passes(t: I64, v: npt.NDArray[Any], cad: Cadence, rules: list[WindowRule]) -> Judgement:
    """:func:`normal_exceedances` in whole vectorised passes (module docstring), numpy only;
    ``passes`` in the result says how many it took."""
    plain = trailing_exceedances(t, v, cad, rules)
    if plain.hits.size == 0:
        return replace(plain, passes=1)
    n = int(t.shape[0])
    per = _Rules(t, rules)
    magnitude = max(abs(int(v.max())), abs(int(v.min())))
    hit = np.zeros(n, dtype=np.bool_)
    hit[plain.hits] = True
    empty = np.zeros(n, dtype=np.bool_)  # judged by the plain mean, no normal reading now
    changed = plain.hits
    passes = 1
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        while changed.size:
            passes += 1
            a, b = _downstream(t, changed, per.widest)
            if a.size == 0:
                break
            a, b = _pieces(a, b, BATCH)
            # the span each range's windows read: from the earliest window start to its end
            base = np.searchsorted(t, t[a] - per.widest, side="left").astype(np.int64)

            batches = [(a[i:j], b[i:j], base[i:j]) for i, j in _batches(b - base, BATCH)]
            # every reading is judged on the statuses of the previous pass: the changes of all
            # batches are applied together, after the last
            moved = pool.map(lambda r: _judge_batch(t, v, hit, empty, per, magnitude, *r), batches)
            changed = np.concatenate(list(moved))
            hit[changed] = ~hit[changed]
    lost = int(np.count_nonzero(empty))
    return Judgement(
        np.flatnonzero(hit).astype(np.int64),
        plain.judged - lost,
        plain.unjudged + lost,
        normal=~hit,
        passes=passes,
    )


def _pieces(a: I64, b: I64, size: int) -> tuple[I64, I64]:
    """The ranges ``[a_k, b_k)`` cut into consecutive pieces of at most ``size`` readings."""
    lengths = b - a
    if int(lengths.max(initial=0)) <= size:
        return a, b
    count = (lengths + size - 1) // size
    first = np.repeat(a, count) + _ranges(np.zeros_like(count), count) * size
    last = np.minimum(first + size, np.repeat(b, count))
    return first, last


def _batches(spans: I64, size: int) -> list[tuple[int, int]]:
    """Consecutive groups ``[i, j)`` of ranges whose spans add up to about ``size`` (a group
    holds at least one range)."""
    ends = np.cumsum(spans)
    cuts = np.searchsorted(ends, np.arange(size, int(ends[-1]), size), side="left") + 1
    bounds = np.unique(np.concatenate(([0], np.minimum(cuts, spans.size), [spans.size])))
    return list(itertools.pairwise(bounds.tolist()))


def _judge_batch(
    t: I64,
    v: npt.NDArray[Any],
    hit: Bools,
    empty: Bools,
    per: _Rules,
    magnitude: int,
    a: I64,
    b: I64,
    base: I64,
) -> I64:
    """Judge readings ``[a_k, b_k)`` against the normal readings of their windows (read from
    ``[base_k, b_k)``) as ``hit`` stands; mark in ``empty`` those whose window holds none.
    Returns the readings whose status differs from ``hit`` (``hit`` is not changed here)."""
    span = _ranges(base, b)
    offsets = np.cumsum(b - base) - (b - base)
    normal = ~hit[span]
    weights = np.where(normal, v[span], 0)
    sums = prefix_sums(weights, magnitude)
    counts = np.zeros(span.size + 1, dtype=np.int64)
    np.cumsum(normal, out=counts[1:])
    idx = _ranges(a, b)
    shift = np.repeat(offsets - base, b - a)
    which, judged = per.of(idx)
    lo = np.searchsorted(t, t[idx] - per.window[which], side="left").astype(np.int64)
    at, start = idx + shift, lo + shift
    c = counts[at] - counts[start]
    high, low = sums
    s = (high[at] - high[start], None if low is None else low[at] - low[start])
    has = judged & (c > 0)
    now = has & exceeds(v[idx], s, c, per.p[which], per.q[which], magnitude)
    empty[idx] = judged & (lo < idx) & (c == 0)
    moved: I64 = idx[now != hit[idx]]
    return moved
