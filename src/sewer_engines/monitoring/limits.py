"""Readings beyond a fixed bound: the limits of § 196-19 judged on a whole series.

Unlike the trailing mean (:mod:`.kernel`), a fixed limit needs no window: one comparison of each
scaled value with the bound, in force or not over a stretch of the series.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernel import Judgement
from .series import EMPTY, I64
from .windows import magnitude


@dataclass(frozen=True)
class LimitRule:
    """Readings ``start..stop-1`` qualify when ``v > bound`` (``above``) or ``v < bound``,
    ``bound`` a scaled integer (see :func:`.series.scaled_floor`); None: not in force."""

    start: int
    stop: int
    bound: int | None
    above: bool


def limit_hits(v: I64, rules: list[LimitRule]) -> Judgement:
    """Indices of readings beyond a fixed bound: one comparison per reading."""
    found: list[I64] = []
    judged = 0
    unjudged = 0
    for rule in rules:
        if rule.bound is None:
            unjudged += rule.stop - rule.start
            continue
        seg = v[rule.start : rule.stop]
        judged += int(seg.shape[0])
        # a bound beyond every value decides alike when brought within int64 range
        reach = magnitude(seg) + 1
        bound = min(max(rule.bound, -reach), reach)
        mask = seg > bound if rule.above else seg < bound
        idx = np.flatnonzero(mask)
        if idx.size:
            found.append((idx + rule.start).astype(np.int64))
    hits = np.concatenate(found) if found else EMPTY
    return Judgement(hits, judged, unjudged)
