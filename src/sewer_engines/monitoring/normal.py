"""Baselines of readings "during normal operation" (§ 196-15 SLUG), exactly and vectorised.

The rule (docs/interpretations.md, "Slugs"): the baseline of a reading at ``t`` is the mean of the
series' readings in ``[t - W, t)`` that were taken *during normal operation*. A reading that
exceeded ``p/q`` times its own baseline is not normal operation and enters no later baseline.
When the window holds no normal reading, the baseline is carried: the mean of the normal
readings of ``(t_L - W, t_L]``, ``L`` the last normal reading before ``t``. A reading with
less than ``W`` of the series' history before it has no baseline: it is not judged and counts
as normal. A reading's status therefore depends on the statuses of the readings before it:
the rule is sequential.

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

Carried baselines. The passes above read an empty window as "no baseline, normal". At their
fixed point every reading up to the first judged one whose window holds no normal reading is
the rule's own (each of their windows holds one); from that reading the baseline is carried,
and it stays the same threshold while no reading is normal, so the readings up to the first
that does not exceed it are judged at once (:func:`_carry`). The passes then start again from
the reading after, on the readings now final before it: a round for each stretch judged on a
carried baseline (a discharge longer than a day, a meter back from an outage), each exact.

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
from typing import Any

import numpy as np
import numpy.typing as npt

from sewer_engines.monitoring.native import normal_judgement
from sewer_rules.machine import cpus

from .exact import exceeds, prefix_sums
from .kernel import Judgement, WindowRule, trailing_exceedances
from .series import CHUNK, EMPTY, I64, Bools, Cadence
from .windows import exact_sum


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


def judged_counts(t: I64, rules: list[WindowRule]) -> tuple[int, int]:
    """Readings judged and not judged under ``rules``: a reading is judged when a rule in
    force covers it and a whole window of the series' history lies behind it (with a
    carried baseline, every such reading has one)."""
    judged = unjudged = 0
    t0 = int(t[0]) if t.size else 0
    for r in rules:
        if r.stop <= r.start:
            continue
        if not r.in_force or r.window <= 0:
            unjudged += r.stop - r.start
            continue
        first = min(r.stop, max(r.start, int(np.searchsorted(t, t0 + r.window, side="left"))))
        unjudged += first - r.start
        judged += r.stop - first
    return judged, unjudged


def by_passes(t: I64, v: npt.NDArray[Any], cad: Cadence, rules: list[WindowRule]) -> Judgement:
    """:func:`normal_exceedances` in whole vectorised passes (module docstring), numpy only;
    ``passes`` in the result says how many it took.

    The passes settle the rule with an empty window read as "no baseline, normal". Where
    their fixed point has a judged reading whose window holds no normal-operation reading,
    the readings before it are the rule's own (their windows all hold one); from it on, the
    baseline is carried (:func:`_carry`, one threshold while no reading is normal), and the
    passes start again after that stretch on the readings now final before it."""
    plain = trailing_exceedances(t, v, cad, rules)
    judged, unjudged = judged_counts(t, rules)
    n = int(t.shape[0])
    per = _Rules(t, rules)
    hit = np.zeros(n, dtype=np.bool_)
    hit[plain.hits] = True
    if n == 0 or per.widest == 0:
        return Judgement(plain.hits, judged, unjudged, passes=1)
    magnitude = max(abs(int(v.max())), abs(int(v.min())))
    changed = plain.hits
    passes, carried, final = 1, 0, 0
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        while True:
            passes += _settle(t, v, hit, per, magnitude, changed, pool)
            at = _first_carried(t, hit, per, final)
            if at is None:
                break
            final, count = _carry(t, v, hit, per, at)
            carried += count
            if final >= n:
                break
            # the readings from ``final`` on, judged again on the final readings before them
            hit[final:] = False
            changed = _judge_all(t, v, hit, per, magnitude, final, pool)
            hit[changed] = ~hit[changed]
            passes += 1
    if not hit.any():
        return Judgement(EMPTY, judged, unjudged, passes=passes, carried=carried)
    return Judgement(
        np.flatnonzero(hit).astype(np.int64),
        judged,
        unjudged,
        normal=~hit,
        passes=passes,
        carried=carried,
    )


def _settle(
    t: I64,
    v: npt.NDArray[Any],
    hit: Bools,
    per: _Rules,
    magnitude: int,
    changed: I64,
    pool: ThreadPoolExecutor,
) -> int:
    """Pass after pass over the readings downstream of the last changes, until none changes
    (the fixed point, the module docstring); the number of passes."""
    passes = 0
    while changed.size:
        passes += 1
        a, b = _downstream(t, changed, per.widest)
        if a.size == 0:
            break
        changed = _judge_ranges(t, v, hit, per, magnitude, a, b, pool)
        hit[changed] = ~hit[changed]
    return passes


def _judge_all(
    t: I64,
    v: npt.NDArray[Any],
    hit: Bools,
    per: _Rules,
    magnitude: int,
    start: int,
    pool: ThreadPoolExecutor,
) -> I64:
    """The readings from ``start`` on whose status differs from ``hit`` (one whole pass)."""
    a = np.array([start], dtype=np.int64)
    b = np.array([int(t.shape[0])], dtype=np.int64)
    return _judge_ranges(t, v, hit, per, magnitude, a, b, pool)


def _judge_ranges(
    t: I64,
    v: npt.NDArray[Any],
    hit: Bools,
    per: _Rules,
    magnitude: int,
    a: I64,
    b: I64,
    pool: ThreadPoolExecutor,
) -> I64:
    """One pass over the ranges ``[a_k, b_k)``, in batches: the readings whose status
    differs from ``hit`` (every reading judged on the statuses of the previous pass: the
    changes of all batches are applied together, by the caller)."""
    a, b = _pieces(a, b, BATCH)
    # the span each range's windows read: from the earliest window start to its end
    base = np.searchsorted(t, t[a] - per.widest, side="left").astype(np.int64)
    batches = [(a[i:j], b[i:j], base[i:j]) for i, j in _batches(b - base, BATCH)]
    moved = pool.map(lambda r: _judge_batch(t, v, hit, per, magnitude, *r), batches)
    return np.concatenate(list(moved))


def _first_carried(t: I64, hit: Bools, per: _Rules, start: int) -> int | None:
    """The first reading from ``start`` on that a rule judges and whose window holds no
    normal-operation reading under ``hit`` (None: none). Such a reading follows either a
    normal reading more than a window before it (an outage) or a run of exceeding readings
    that began more than a window before it: only those are examined."""
    n = int(t.shape[0])
    narrowest = int(per.window.min())
    lo = max(start, 1)
    if lo >= n:
        return None
    # after a normal reading more than a window of the narrowest rule earlier
    step = t[lo:] - t[lo - 1 : n - 1]
    gap = np.flatnonzero((step > narrowest) & ~hit[lo - 1 : n - 1]) + lo
    found = [gap, gap - 1]  # (reading, its last normal reading before it)
    hits = np.flatnonzero(hit)
    if hits.size:
        brk = np.flatnonzero(np.diff(hits) != 1)
        first = hits[np.concatenate(([0], brk + 1))]
        last = hits[np.concatenate((brk, [hits.size - 1]))]
        before = first - 1  # normal: the reading before a run (reading 0 is never judged)
        begin = np.maximum(
            first + 1, np.searchsorted(t, t[before] + narrowest, side="right")
        ).astype(np.int64)
        end = np.minimum(last + 2, n).astype(np.int64)
        keep = end > begin
        if keep.any():
            idx = _ranges(begin[keep], end[keep])
            found = [
                np.concatenate((gap, idx)),
                np.concatenate((gap - 1, np.repeat(before[keep], (end - begin)[keep]))),
            ]
    idx, normal_before = found
    if idx.size == 0:
        return None
    which, judged = per.of(idx)
    empty = judged & (idx >= start) & (t[normal_before] < t[idx] - per.window[which])
    at = idx[empty]
    return int(at.min()) if at.size else None


def _carry(t: I64, v: npt.NDArray[Any], hit: Bools, per: _Rules, at: int) -> tuple[int, int]:
    """Judge readings from ``at`` (whose window holds no normal-operation reading, under
    final statuses before it) against the mean carried from the window that ends with the
    last normal reading before it (that reading included): one threshold for every reading
    up to and including the first that does not exceed it (normal operation again, and in
    the window of the next) or the end of the rule. Writes ``hit``; returns the first
    reading not judged here and how many were."""
    which, _ = per.of(np.array([at], dtype=np.int64))
    r = int(which[0])
    window, p, q = int(per.window[r]), int(per.p[r]), int(per.q[r])
    last = at - 1
    while hit[last]:
        last -= 1
    k = int(np.searchsorted(t, int(t[last]) - window, side="right"))
    inside = v[k : last + 1][~hit[k : last + 1]]
    total, count = exact_sum(inside), int(inside.shape[0])
    # v > p*total / (q*count) exactly when v > floor(p*total / (q*count)) (integers, count > 0)
    bound = (p * total) // (q * count)
    stop = int(per.stops[r])
    seg = v[at:stop]
    reach = max(abs(int(seg.max())), abs(int(seg.min()))) + 1 if seg.size else 1
    above = seg > min(max(bound, -reach), reach)
    below = np.flatnonzero(~above)
    end = at + int(below[0]) + 1 if below.size else stop
    hit[at:end] = above[: end - at]
    return end, end - at


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
    per: _Rules,
    magnitude: int,
    a: I64,
    b: I64,
    base: I64,
) -> I64:
    """Judge readings ``[a_k, b_k)`` against the normal readings of their windows (read from
    ``[base_k, b_k)``) as ``hit`` stands; one whose window holds none is left normal here
    (:func:`by_passes` carries its baseline once the passes settle). Returns the readings
    whose status differs from ``hit`` (``hit`` is not changed here)."""
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
    moved: I64 = idx[now != hit[idx]]
    return moved
