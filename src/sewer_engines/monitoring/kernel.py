"""The vectorised core: which readings exceed a multiple of their trailing mean, exactly.

For a reading ``i`` at time ``t_i`` the window is ``[t_i - W, t_i)``: the readings
``lo_i .. i-1`` where ``lo_i`` is the first index with ``t >= t_i - W``. With the sum
``S_i`` and the count ``n_i`` of those readings, and the multiple written as a fraction
``p / q`` (5 = 5/1), the reading exceeds when

    v_i > (p / q) * S_i / n_i     <=>     q * n_i * v_i > p * S_i        (n_i > 0)

Every term is an integer (values are scaled integers, see :mod:`.series`), so the test is
exact: no rounding ever decides whether a reading is "more than five times" its baseline. The
products are 64-bit when ``max|v| * max(p, q) * (chunk + n_i)`` stays below 2**62 (checked
before the pass). Otherwise — values with many decimals, such as floats exported with 17
significant digits — the screening below still runs on int64 block maxima, with block sums
joined from two 32-bit limbs into Python integers (one per block); the readings of suspect
blocks are judged on window sums in 32-bit limbs, screened in floating point only beyond a
margin far wider than its rounding error and decided on integers within it (:mod:`.exact`);
and the edges and irregular stretches are taken as Python integers, slice by slice: exact,
and slower only where something may exceed.

This is the *plain* trailing mean (every reading in the window). The law's "during normal
operation" leaves out the readings that exceeded their own baseline: :mod:`.normal` starts
from this pass and corrects it.

How it is fast. The series is processed in cache-sized chunks (a Python loop per chunk of
65,536 readings, never per reading). Within a chunk the window sums come from a local prefix
sum. Where the stretch of readings a chunk needs is perfectly regular (every interval equal
to the usual interval, the common case for meters), ``lo_i = i - K`` with ``K = W // interval``
and a window sum is one subtraction. Elsewhere ``lo_i`` comes from a merge of the sorted keys
``t_i - W`` with the sorted times (a stable sort of two sorted runs is one linear merge).
Both paths give the same answer; the tests check it on irregular and gappy series.

On long regular stretches most readings are first cleared in blocks of :data:`BLOCK`: every
window of a block's readings contains the same whole blocks before it, so block sums give a
lower bound of each reading's window sum, and a block whose largest value times ``q*K`` is not
above ``p`` times that bound cannot hold an exceeding reading. Only the other blocks (a spike,
a slug) are tested reading by reading, together, with window sums that slide from block sums.
The bound only ever skips blocks in which nothing can qualify, so the result is the same
exact answer; it costs about three passes over the values (maxima, minimum, sums) instead of
a prefix sum, a subtraction, a product and a comparison for every reading.

The window of a reading and the exact sum of its values are :mod:`.windows`; the fixed limits
(one comparison a reading, no window) are :mod:`.limits`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .exact import LIMB, MASK, SAFE, exceeds, joined
from .series import CHUNK, EMPTY, I64, Cadence
from .windows import window_starts

BLOCK = 128  # readings screened at once (a power of two)
SUSPECT_SHARE = 0.25  # above this share of suspect blocks, the chunked pass is used
MIN_BLOCKS = 4  # fewer whole blocks than this: the chunked pass


@dataclass(frozen=True)
class WindowRule:
    """Readings ``start..stop-1`` are judged against ``p/q`` times their trailing mean over a
    window of ``window`` microseconds; ``in_force`` False leaves them unjudged."""

    start: int
    stop: int
    window: int
    p: int
    q: int
    in_force: bool = True


@dataclass(frozen=True)
class Judgement:
    """Sorted indices of exceeding readings, and how many readings were judged or not; for a
    trailing baseline, the window sum and count at each exceeding reading, or (normal
    operation, :mod:`.normal`) which readings count as normal operation, how many passes
    that took (None: every reading counts) and how many readings were judged on a baseline
    carried past a window with no normal-operation reading (``carried``)."""

    hits: I64
    judged: int
    unjudged: int
    sums: npt.NDArray[Any] | None = None
    counts: I64 | None = None
    normal: npt.NDArray[np.bool_] | None = None
    passes: int = 0
    carried: int = 0


def _regular(cad: Cadence, lo: int, hi: int) -> bool:
    """True when every interval ending at an index in ``(lo, hi)`` is the usual interval."""
    if cad.irregular is None:
        return False
    irr = cad.irregular
    return int(np.searchsorted(irr, hi, side="left")) == int(np.searchsorted(irr, lo, side="right"))


class _Buffers:
    """Scratch arrays reused chunk after chunk (fresh large arrays cost page faults)."""

    def __init__(self, size: int, dtype: Any) -> None:
        self.prefix: npt.NDArray[Any] = np.zeros(size + 1, dtype=dtype)
        self.sums: npt.NDArray[Any] = np.empty(size, dtype=dtype)
        self.lhs: npt.NDArray[Any] = np.empty(size, dtype=dtype)
        self.rhs: npt.NDArray[Any] = np.empty(size, dtype=dtype)
        self.mask = np.zeros(size, dtype=np.bool_)


class _Found:
    """Exceeding readings as they are found: indices, window sums and counts; tallies."""

    def __init__(self) -> None:
        self.hits: list[I64] = []
        self.sums: list[npt.NDArray[Any]] = []
        self.counts: list[I64] = []
        self.judged = 0
        self.unjudged = 0

    def add(self, idx: I64, sums: npt.NDArray[Any], counts: I64) -> None:
        if idx.size:
            self.hits.append(idx)
            self.sums.append(sums)
            self.counts.append(counts)

    def judgement(self) -> Judgement:
        if not self.hits:
            return Judgement(EMPTY, self.judged, self.unjudged)
        hits = np.concatenate(self.hits)
        order = np.argsort(hits, kind="stable")
        return Judgement(
            hits[order],
            self.judged,
            self.unjudged,
            np.concatenate(self.sums)[order],
            np.concatenate(self.counts)[order],
        )


@dataclass(frozen=True)
class _Pass:
    """One rule's constants for the pass over a series."""

    rule: WindowRule
    per_window: int  # K = W // interval (0 when the series has no usual interval)
    lhs: int  # q*K*v > p*S, common factors cancelled: lhs*v > rhs*S
    rhs: int
    big: bool  # Python integers instead of int64


def _chunks(
    t: I64, v: npt.NDArray[Any], cad: Cadence, c: _Pass, start: int, stop: int, out: _Found
) -> None:
    """The exact test for readings ``start..stop-1``, a cache-sized chunk at a time (on
    Python integers, slice by slice, when 64-bit products could overflow)."""
    rule, per_window = c.rule, c.per_window
    chunk = max(CHUNK, per_window)
    dtype = np.dtype(object) if c.big else v.dtype
    buf = _Buffers(chunk + per_window, dtype)
    for s in range(start, stop, chunk):
        e = min(stop, s + chunk)
        m = e - s
        if per_window >= 1 and s - per_window >= 0 and _regular(cad, s - per_window, e):
            # lo_i = i - K: the window sum is a difference of one local prefix sum
            a = s - per_window
            prefix = buf.prefix
            vals = v[a:e].astype(object) if c.big else v[a:e]
            np.cumsum(vals, out=prefix[1 : e - a + 1])
            sums = buf.sums[:m]
            np.subtract(prefix[per_window : per_window + m], prefix[0:m], out=sums)
            here = vals[per_window:]
            lhs = here if c.lhs == 1 else np.multiply(here, c.lhs, out=buf.lhs[:m])
            rhs = sums if c.rhs == 1 else np.multiply(sums, c.rhs, out=buf.rhs[:m])
            mask = buf.mask[:m]
            if c.big:
                mask[:] = np.asarray(lhs > rhs, dtype=np.bool_)
            else:
                np.greater(lhs, rhs, out=mask)
            idx = np.flatnonzero(mask)
            out.add(idx + s, np.array(sums[idx]), np.full(idx.size, per_window, dtype=np.int64))
            out.judged += m
        else:
            lo = window_starts(t, s, e, rule.window)
            a = int(lo[0])
            vals = v[a:e].astype(object) if c.big else v[a:e]
            prefix = np.zeros(e - a + 1, dtype=dtype)
            np.cumsum(vals, out=prefix[1:])
            sums = prefix[s - a : e - a] - prefix[lo - a]
            count = np.arange(s, e, dtype=np.int64) - lo
            has = count > 0
            weight = count * rule.q if not c.big else (count * rule.q).astype(object)
            hit = np.asarray(vals[s - a :] * weight > sums * rule.p, dtype=np.bool_) & has
            idx = np.flatnonzero(np.asarray(hit, dtype=np.bool_))
            out.add(idx + s, sums[idx], count[idx])
            k = int(np.count_nonzero(has))
            out.judged += k
            out.unjudged += m - k


def _screen(
    v: I64,
    cad: Cadence,
    c: _Pass,
    first: int,
    stop: int,
    vmin: int,
    block_max: I64 | None,
    out: _Found,
) -> list[tuple[int, int]] | None:
    """Judge whole blocks of :data:`BLOCK` readings of regular stretches at once.

    Every window of a block's readings contains the same run of ``L - 1`` whole blocks
    before it (``L = (K + 1) // BLOCK``); with block sums, that gives a lower bound of each
    reading's window sum, ``LB``, and no reading of the block can exceed its baseline when
    ``lhs * max(block) <= rhs * LB``. Only the blocks that fail this bound (a spike, a slug)
    are tested reading by reading, all together, from block prefix sums. Exact: the bound
    only ever skips blocks in which no reading can qualify.

    Returns the ranges left to :func:`_chunks` (edges, irregular stretches), or None when
    screening does not apply.
    """
    m, k = BLOCK, c.per_window
    whole = (k + 1) // m - 1
    n = int(v.shape[0])
    j0, j1 = -(-first // m), min(stop, n) // m
    if whole < 1 or cad.irregular is None or j1 - j0 < MIN_BLOCKS or block_max is None:
        return None
    blocks = v[: j1 * m].reshape(j1, m)
    magnitude = max(abs(vmin), abs(int(block_max.max())))
    # block sums and their prefix in int64 where they fit, else Python integers (one per block)
    big_prefix = v.dtype == object or magnitude * (n + m) >= SAFE
    bsum = _block_sums(blocks, magnitude)
    bp: npt.NDArray[Any] = np.zeros(j1 + 1, dtype=object if big_prefix else np.int64)
    np.cumsum(bsum.astype(object) if big_prefix else bsum, out=bp[1:])
    j = np.arange(j0, j1, dtype=np.int64)
    lower = bp[j] - bp[j - whole] + (k - whole * m) * min(0, vmin)
    irr = cad.irregular
    a = j * m - k
    regular = (a >= 0) & (
        np.searchsorted(irr, (j + 1) * m, side="left") == np.searchsorted(irr, a, side="right")
    )
    maxima = block_max[j0:j1]
    if big_prefix or c.big:
        maxima = maxima.astype(object)
    suspect = regular & np.asarray(maxima * c.lhs > lower * c.rhs, dtype=np.bool_)
    if int(np.count_nonzero(suspect)) > SUSPECT_SHARE * j.size:
        return None  # spiky throughout: the chunked pass is cheaper
    clear = regular & ~suspect
    out.judged += int(np.count_nonzero(clear)) * m
    cand = j[suspect]
    if cand.size:
        # Row r of each 2-D array is candidate block cand[r], column i its i-th reading.
        # Its window starts at x = cand*m - k + i. The first reading's window sum comes from
        # block sums (whole blocks from the start's block on) plus the start's block tail;
        # the next ones slide: S(i+1) = S(i) + v(reading i) - v(window start i).
        r0 = (-k) % m
        b0 = cand + (-k) // m  # the block of each first window start
        here = blocks[cand]
        leaving = v[(cand * m - k)[:, None] + np.arange(m, dtype=np.int64)]
        whole_blocks = bp[cand] - bp[b0 + 1]
        if v.dtype != object and (big_prefix or c.big):
            hit, at_hits = _suspects_in_limbs(here, leaving, whole_blocks, r0, c, magnitude)
        else:
            first_sum = whole_blocks + leaving[:, : m - r0].sum(axis=1)
            step = here - leaving
            sums = np.cumsum(step, axis=1)
            sums -= step  # exclusive: the window of reading i leaves out reading i
            sums += first_sum[:, None]
            hit = np.flatnonzero(np.asarray(here * c.lhs > sums * c.rhs, dtype=np.bool_))
            at_hits = sums.ravel()[hit]
        idx = cand[hit // m] * m + hit % m
        out.add(idx, at_hits, np.full(hit.size, k, dtype=np.int64))
        out.judged += int(cand.size) * m
    # what is left: the edges, and irregular stretches, merged into ranges
    left: list[tuple[int, int]] = [(first, j0 * m), (j1 * m, stop)]
    odd = j[~regular]
    if odd.size:
        breaks = np.flatnonzero(np.diff(odd) != 1)
        lo_b = odd[np.concatenate(([0], breaks + 1))]
        hi_b = odd[np.concatenate((breaks, [odd.size - 1]))]
        left += [(int(x) * m, (int(y) + 1) * m) for x, y in zip(lo_b, hi_b, strict=True)]
    return [(x, y) for x, y in left if y > x]


def _suspects_in_limbs(
    here: I64, leaving: I64, whole_blocks: npt.NDArray[Any], r0: int, c: _Pass, magnitude: int
) -> tuple[I64, npt.NDArray[Any]]:
    """The readings of the suspect blocks that exceed (flat positions in ``here``) and their
    window sums (Python integers), for values whose window sums overflow int64 — such as
    floats exported with 17 significant digits, scaled by 10**15.

    The sums slide in two 32-bit limbs (:mod:`.exact`), and the test is screened in floating
    point with the few near ties decided on Python integers: the same answer as sliding Python
    integers, which made millions of them."""
    m = here.shape[1]
    leave_high, leave_low = leaving >> LIMB, leaving & MASK
    first_high = np.asarray(whole_blocks >> LIMB).astype(np.int64)
    first_low = np.asarray(whole_blocks & MASK).astype(np.int64)
    first_high += leave_high[:, : m - r0].sum(axis=1)
    first_low += leave_low[:, : m - r0].sum(axis=1)
    step_high, step_low = (here >> LIMB) - leave_high, (here & MASK) - leave_low
    high = np.cumsum(step_high, axis=1) - step_high + first_high[:, None]
    low = np.cumsum(step_low, axis=1) - step_low + first_low[:, None]
    size = here.size
    rule = c.rule
    now = exceeds(
        here.ravel(),
        (high.ravel(), low.ravel()),
        np.full(size, c.per_window, dtype=np.int64),
        np.full(size, rule.p, dtype=np.int64),
        np.full(size, rule.q, dtype=np.int64),
        magnitude,
    )
    hit = np.flatnonzero(now)
    return hit, joined(high.ravel()[hit], low.ravel()[hit])


def _block_sums(blocks: npt.NDArray[Any], magnitude: int) -> npt.NDArray[Any]:
    """The sum of each row of ``blocks``, exactly: in int64 when it cannot overflow, else in
    two 32-bit limbs summed apart and joined as Python integers (one per block). The limbs are
    taken a cache-sized stretch at a time (two arrays the size of the series were fresh memory
    to fault in)."""
    if blocks.dtype == object or magnitude * int(blocks.shape[1]) < SAFE:
        return np.asarray(blocks.sum(axis=1))
    rows = int(blocks.shape[0])
    high = np.empty(rows, dtype=np.int64)
    low = np.empty(rows, dtype=np.int64)
    step = max(1, CHUNK // int(blocks.shape[1]))
    for s in range(0, rows, step):
        part = blocks[s : s + step]
        high[s : s + step] = (part >> LIMB).sum(axis=1)
        low[s : s + step] = (part & MASK).sum(axis=1)
    return joined(high, low)


def trailing_exceedances(t: I64, v: I64, cad: Cadence, rules: list[WindowRule]) -> Judgement:
    """Indices of readings exceeding ``p/q`` times the mean of the readings in the window
    before them (see the module docstring); readings without a full window of history
    (``t_i - t_0 < W``) or with an empty window are not judged and are counted. The window
    sum and count at each exceeding reading come back too (its baseline, for the report)."""
    n = int(t.shape[0])
    out = _Found()
    if n == 0:
        return out.judgement()
    # block maxima serve the screening and give the largest value; else one pass for it
    whole_blocks = n // BLOCK
    screenable = cad.interval > 0 and cad.irregular is not None and whole_blocks > 0
    screenable = screenable and any(
        r.in_force and r.window // cad.interval >= 2 * BLOCK - 1 for r in rules
    )
    block_max: I64 | None = None
    if screenable:
        block_max = v[: whole_blocks * BLOCK].reshape(whole_blocks, BLOCK).max(axis=1)
        tail = v[whole_blocks * BLOCK :]
        vmax = max(int(block_max.max()), int(tail.max()) if tail.size else int(block_max.max()))
    else:
        vmax = int(v.max())
    vmin = int(v.min())
    magnitude = max(abs(vmax), abs(vmin))
    for rule in rules:
        if rule.stop <= rule.start:
            continue
        if not rule.in_force or rule.window <= 0:
            out.unjudged += rule.stop - rule.start
            continue
        first = max(rule.start, int(np.searchsorted(t, int(t[0]) + rule.window, side="left")))
        first = min(first, rule.stop)
        out.unjudged += first - rule.start
        per_window = rule.window // cad.interval if cad.interval > 0 else 0
        big = magnitude * max(rule.p, rule.q) * (max(CHUNK, per_window) + per_window + n) >= SAFE
        # q*K*v > p*S with common factors cancelled (5 and 1440: 288*v > S), one product less
        common = math.gcd(rule.q * per_window, rule.p) or 1
        c = _Pass(rule, per_window, rule.q * per_window // common, rule.p // common, big)
        ranges = _screen(v, cad, c, first, rule.stop, vmin, block_max, out) if per_window else None
        for lo, hi in ranges if ranges is not None else [(first, rule.stop)]:
            _chunks(t, v, cad, c, lo, hi, out)
    return out.judgement()
