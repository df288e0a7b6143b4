"""The slug engine: § 196-15 SLUG over a series of millions of readings, in whole-array passes.

The rule is :func:`sewer_rules.monitoring.slugs.slugs_of` (read one reading at a time, with
the law's text and how each word is read). This engine gives the same slugs (the rules'
:class:`~sewer_rules.monitoring.slugs.Slug`) and the same counts on a :class:`.series.Series`:
the readings are split where a dated parameter changes, judged against their fixed baseline
(one comparison per reading, :func:`.limits.limit_hits`) or against the trailing mean of the
normal-operation readings (:mod:`.normal`: one compiled sequential pass, or vectorised passes
where the compiled module is not built), then grouped into runs (:func:`.series.runs`) and
kept when longer than the minimum duration (:mod:`.slug_runs`). ``tests/test_slugs_engine.py``
compares it with the rule on generated series.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from sewer_rules.findings import UsedParameter
from sewer_rules.monitoring.instants import US_PER_HOUR, value_on
from sewer_rules.monitoring.slugs import (
    SLUG_DIMENSIONS,
    SLUG_PARAMETERS,
    Baseline,
    Slug,
    slugs_of,
    used_parameters,
)
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import engine_of

from .kernel import Judgement, WindowRule
from .limits import LimitRule, limit_hits
from .normal import normal_exceedances
from .series import I64, Cadence, Series, runs, scaled_floor, segments
from .slug_runs import slugs_of_runs

__all__ = ["SlugResult", "baseline_curve", "detect_slugs", "fixed_pieces", "judged_as_slug"]


def judged_as_slug(series: Series) -> bool:
    """Whether the slug definition applies to the series: a flow or a concentration."""
    return series.analyte.dimension in SLUG_DIMENSIONS


def fixed_pieces(baseline: Baseline, t: I64) -> list[tuple[int, Fraction]]:
    """Each fixed baseline of ``baseline`` with the index of the first reading of ``t`` it
    judges, in order (a baseline whose readings all fall under the next one is left out):
    :meth:`Baseline.fixed_at` on a whole series."""
    if baseline.fixed is None:
        return []
    start = 0 if baseline.fixed_from is None else int(np.searchsorted(t, baseline.fixed_from))
    out = [(start, baseline.fixed)]
    for at, value in baseline.then:
        out.append((max(start, int(np.searchsorted(t, at))), value))
    return [p for k, p in enumerate(out) if k + 1 == len(out) or out[k + 1][0] > p[0]]


@dataclass(frozen=True)
class SlugResult:
    """The rule's answer (:class:`~sewer_rules.monitoring.slugs.SlugJudgement`'s fields) and
    the engine's own: how many passes it took, and which readings count as normal operation
    (for drawing the baseline; None: every reading)."""

    slugs: list[Slug]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)
    hits: int = 0
    passes: int = 0
    normal: npt.NDArray[np.bool_] | None = None
    early: int = 0
    carried: int = 0


@engine_of(slugs_of)
def detect_slugs(
    series: Series,
    params: ParameterSet,
    tz: str,
    cad: Cadence,
    baseline: Baseline | None = None,
) -> SlugResult:
    """§ 196-15 SLUG on a whole series: the slugs and counts of
    :func:`~sewer_rules.monitoring.slugs.slugs_of`, computed in passes over arrays."""
    baseline = baseline or Baseline()
    t, v = series.t, series.v
    n = len(series)
    segs = segments(t, params, SLUG_PARAMETERS, tz)
    # readings from ``fixed`` on are judged against the fixed baselines, those before on the
    # trailing mean (every reading when the fixed baseline has no date)
    pieces = fixed_pieces(baseline, t)
    fixed = pieces[0][0] if pieces else n
    bounds = [start for start, _ in pieces] + [n]
    multiples: list[Fraction | None] = []
    window_rules: list[WindowRule] = []
    limit_rules: list[LimitRule] = []
    for seg in segs:
        mult = value_on(params, "slug.multiple", seg.on)
        hours = (
            baseline.hours
            if baseline.hours is not None
            else value_on(params, "slug.baseline_window", seg.on)
        )
        multiple = Fraction(mult) if mult is not None else None
        multiples.append(multiple)
        for k, (start, value) in enumerate(pieces):
            lo, hi = max(seg.start, start), min(seg.stop, bounds[k + 1])
            if hi > lo:
                bound = None if multiple is None else scaled_floor(multiple * value, series.scale)
                limit_rules.append(LimitRule(lo, hi, bound, above=True))
        window = int(Fraction(hours) * US_PER_HOUR) if hours is not None else 0
        p, q = (multiple.numerator, multiple.denominator) if multiple is not None else (0, 1)
        window_rules.append(
            WindowRule(seg.start, min(seg.stop, fixed), window, p, q, in_force=multiple is not None)
        )
    trailing = [r for r in window_rules if r.stop > r.start]
    judgement = _judge(t[:fixed], v[:fixed], cad, trailing, v, limit_rules, n)
    found = runs(t, judgement.hits, cad)
    slugs = slugs_of_runs(
        series, params, segs, multiples, window_rules, pieces, judgement, found, fixed
    )
    used_names = ["slug.multiple", "slug.minimum_duration"]
    if fixed > 0 and baseline.hours is None:
        used_names.append("slug.baseline_window")
    used = used_parameters(params, used_names, [s.on for s in segs]) if segs else []
    not_in_force = sum(r.stop - r.start for r in trailing if not r.in_force or r.window <= 0)
    not_in_force += sum(r.stop - r.start for r in limit_rules if r.bound is None)
    return SlugResult(
        slugs,
        judgement.judged,
        judgement.unjudged,
        used,
        int(judgement.hits.size),
        judgement.passes,
        judgement.normal,
        early=judgement.unjudged - not_in_force,
        carried=judgement.carried,
    )


def _judge(
    t: I64,
    v: npt.NDArray[Any],
    cad: Cadence,
    trailing: list[WindowRule],
    whole: npt.NDArray[Any],
    limit_rules: list[LimitRule],
    n: int,
) -> Judgement:
    """The trailing judgement of the readings before the fixed baseline (``t``, ``v``) and
    the fixed one of those from it on (``limit_rules`` over ``whole``), as one."""
    if not limit_rules:
        return normal_exceedances(t, v, cad, trailing)
    fixed = limit_hits(whole, limit_rules)
    if not trailing:
        return fixed
    before = normal_exceedances(t, v, cad, trailing)
    normal = None
    if before.normal is not None:
        normal = np.ones(n, dtype=np.bool_)
        normal[: before.normal.shape[0]] = before.normal
    return Judgement(
        np.concatenate((before.hits, fixed.hits)).astype(np.int64),
        before.judged + fixed.judged,
        before.unjudged + fixed.unjudged,
        normal=normal,
        passes=before.passes,
        carried=before.carried,
    )


def baseline_curve(
    series: Series, window_us: int, normal: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.float64]:
    """The trailing mean of the normal-operation readings (``normal``; None: all) at every
    reading, as floats, for drawing only (NaN where unjudged; where the window holds no normal
    reading, the last mean drawn, close to the baseline carried).

    Never used to decide anything: the decision is the exact integer test of :mod:`.kernel`
    and :mod:`.normal`.
    """
    t = series.t
    n = len(series)
    out = np.full(n, np.nan)
    if n == 0:
        return out
    vals = series.v.astype(np.float64) / 10**series.scale
    weight = np.ones(n) if normal is None else normal.astype(np.float64)
    prefix = np.concatenate(([0.0], np.cumsum(vals * weight)))
    counts = np.concatenate(([0.0], np.cumsum(weight)))
    lo = np.searchsorted(t, t - window_us, side="left")
    idx = np.arange(n)
    count = counts[idx] - counts[lo]
    ok = (t - t[0] >= window_us) & (count > 0)
    out[ok] = (prefix[idx[ok]] - prefix[lo[ok]]) / count[ok]
    # a window with no normal reading: the baseline carried, about the last one drawn
    empty = (t - t[0] >= window_us) & (count == 0)
    if empty.any():
        last = np.maximum.accumulate(np.where(ok, idx, -1))
        fill = empty & (last >= 0)
        out[fill] = out[last[fill]]
    return out
