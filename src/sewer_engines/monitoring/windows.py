"""A reading's trailing window: where it starts, and the exact sum of the values in it.

Every pass over a series measures the same two things: the window ``[t_i - W, t_i)`` of a
reading (the readings ``lo_i .. i-1``) and the sum of its scaled-integer values. The plain pass
(:mod:`.kernel`), the passes of normal operation (:mod:`.normal`) and the measure of a slug's
run (:mod:`.slug_runs`) take them from here, so that they all count the same readings and add
them without overflow.
"""

from __future__ import annotations

import numpy as np

from .exact import LIMB, MASK, SAFE
from .series import I64


def magnitude(v: I64) -> int:
    """The largest absolute value of ``v`` (0 when empty), as a Python integer."""
    if v.size == 0:
        return 0
    return max(abs(int(v.max())), abs(int(v.min())))


def window_start(t: I64, i: int, window: int) -> int:
    """``lo_i``: the first reading in ``[t_i - window, t_i)``."""
    return int(np.searchsorted(t, int(t[i]) - window, side="left"))


def exact_sum(v: I64) -> int:
    """The sum of scaled integers as a Python integer (no overflow)."""
    if v.size == 0:
        return 0
    if v.dtype == object:
        return sum(int(x) for x in v.tolist())
    if magnitude(v) * int(v.size) < SAFE:
        return int(v.sum())
    # two 32-bit limbs summed apart in int64 (no overflow below 2**31 values), then joined
    return int((v >> LIMB).sum()) * (1 << LIMB) + int((v & MASK).sum())


def window_starts(t: I64, s: int, e: int, window: int) -> I64:
    """``lo_i`` for ``i`` in ``s..e-1``, by one linear merge of two sorted runs."""
    keys = t[s:e] - window
    m = e - s
    a = int(np.searchsorted(t, int(keys[0]), side="left"))
    b = int(np.searchsorted(t, int(keys[-1]), side="left"))
    if b <= a:
        return np.full(m, a, dtype=np.int64)
    # keys first, so a time equal to a key sorts after it: counted are times strictly below
    merged = np.argsort(np.concatenate((keys, t[a:b])), kind="stable")
    pos = np.flatnonzero(merged < m)
    return (pos - np.arange(m) + a).astype(np.int64)
