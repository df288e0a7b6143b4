"""Exact comparisons of readings with multiples of window means, on whole arrays.

The slug rule compares a reading with five times a mean: ``v > (p/q) · S / C``, decided as the
integer inequality ``q·C·v > p·S`` (values are scaled integers, :mod:`.series`). A window's
sum ``S`` of values written with 17 significant digits (floats exported by historians, scaled
by 10**15) does not fit 64 bits; Python integers would, at a hundred times the cost. So:

- sums are kept as two int64 *limbs*, the high and the low 32 bits of the values summed apart
  (``S = high · 2**32 + low``): no overflow below 2**31 values in a window;
- the comparison is screened in floating point, where the margin is far beyond the rounding
  error (relative 1e-9 against an error below 1e-15), and only the few readings within that
  margin (exact ties at five times) are decided on Python integers;
- values that do not fit 64 bits at all are Python integers (object arrays), decided on them.

Used by the plain pass (:mod:`.kernel`, the readings of suspect blocks) and the passes of normal
operation (:mod:`.normal`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .series import I64, Bools

SAFE = 1 << 62  # a product below this fits int64 with room for one addition
LIMB = 32
MASK = (1 << LIMB) - 1
TOLERANCE = 1e-9  # relative margin of the floating-point screen (rounding error < 1e-15)


def joined(high: npt.NDArray[Any], low: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``high · 2**32 + low`` of sums kept in limbs, as Python integers (an object array)."""
    return np.asarray(high.astype(object) * (1 << LIMB) + low.astype(object))


def prefix_sums(
    w: npt.NDArray[Any], magnitude: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any] | None]:
    """Exact prefix sums (leading 0) of ``w``: one int64 array where it cannot overflow,
    else two int64 limb arrays (high and low 32 bits summed apart), else Python integers."""
    size = int(w.shape[0])
    if w.dtype == object:
        out = np.zeros(size + 1, dtype=object)
        np.cumsum(w, out=out[1:])
        return out, None
    if magnitude * (size + 1) < SAFE:
        one = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(w, out=one[1:])
        return one, None
    high = np.zeros(size + 1, dtype=np.int64)
    low = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(w >> LIMB, out=high[1:])
    np.cumsum(w & MASK, out=low[1:])
    return high, low


def exceeds(
    v: npt.NDArray[Any],
    sums: tuple[npt.NDArray[Any], npt.NDArray[Any] | None],
    count: I64,
    p: I64,
    q: I64,
    magnitude: int,
) -> Bools:
    """``q·C·v > p·S`` exactly, for arrays: ``v`` the readings, ``sums`` their window sums (one
    array, or high and low limbs), ``count`` the readings in each window, ``p/q`` the multiple."""
    high, low = sums
    if v.dtype == object or high.dtype == object:
        total = high if low is None else joined(high, low)
        lhs = v * (q * count).astype(object)
        return np.asarray(lhs > total * p.astype(object), dtype=np.bool_)
    wide = int(count.max(initial=0)) * max(int(p.max(initial=1)), int(q.max(initial=1)))
    if low is None and magnitude * max(wide, 1) < SAFE:
        return np.asarray(q * count * v > p * high, dtype=np.bool_)
    total_f = high.astype(np.float64) if low is None else high * float(1 << LIMB) + low
    lhs_f = v.astype(np.float64) * (q * count).astype(np.float64)
    rhs_f = p.astype(np.float64) * total_f
    gap = lhs_f - rhs_f
    margin = TOLERANCE * (np.abs(lhs_f) + np.abs(rhs_f))
    out = gap > margin
    unsure = np.flatnonzero(np.abs(gap) <= margin)
    if unsure.size:
        exact = high[unsure].astype(object) if low is None else joined(high[unsure], low[unsure])
        lhs = v[unsure].astype(object) * (q[unsure] * count[unsure]).astype(object)
        out[unsure] = np.asarray(lhs > exact * p[unsure].astype(object), dtype=np.bool_)
    return out
