"""Slugs: § 196-15 SLUG and the duty to report them, § 196-19 D(9)(d).

§ 196-15 SLUG
    "Any discharge of water, wastewater or industrial waste which in concentration of any
    given constituent or in quantity of flow exceeds for any period of duration longer than
    15 minutes more than five times the average twenty-four-hour concentration of flows
    during normal operation."

§ 196-19 D(9)(d)
    "[No person shall discharge ...] (9) Materials which exert or cause: ... (d) Unusual volume
    of flow or concentration of wastes constituting slugs, as defined herein. All slug
    discharges must be immediately reported by the user to the Superintendent."

How the software reads it (INTERPRETATIONS.md, "Slugs"; each number is a dated parameter of
the jurisdiction — ``slug.multiple`` 5, ``slug.minimum_duration`` 15 min,
``slug.baseline_window`` 24 h — read for the date of each reading):

- Each meter and each parameter separately: the flow, and every concentration (a constituent
  measured in mg/l or, for radioactivity, pCi/l). pH and temperature are not judged as slugs:
  a pH is a logarithm and a temperature in degrees has an arbitrary zero, so "five times" has
  no meaning for them; the law gives them their own limits (:mod:`.excursions`).
- "the average twenty-four-hour concentration ... during normal operation": the baseline of a
  reading taken at time t is the arithmetic mean of that series' readings taken *during
  normal operation* with times in [t − 24 h, t), in absolute time (a day when clocks change
  is still 24 hours). A reading that itself exceeded five times its own baseline — whether or
  not its run lasted long enough to be a slug — is not normal operation and enters no later
  baseline, so a long discharge does not raise its own threshold (a 300-minute discharge at
  10 × the normal level is one 300-minute slug, not a 160-minute one). When the window holds
  no normal-operation reading (a discharge lasting over a day, a meter back from an outage
  longer than a day), the baseline is carried: the mean of the normal-operation readings of
  the 24 hours that end with the last normal-operation reading before t (that reading
  included). So a 30-hour discharge at 10 × is one 30-hour slug, and a sudden lasting jump of
  more than five times stays a slug until the Town records a new normal operation (a fixed
  baseline from a date, below). A reading with less than 24 hours of the series' history
  before it has no baseline unless a fixed baseline is given: it is not judged, is counted
  (``early``), and counts as normal operation for later baselines. Where normal operation is
  better known (a baseline recorded in the approval, or the Town's record of a new normal),
  a fixed baseline replaces the mean: for every reading (the first day included), or from
  the date it was recorded (:class:`Baseline`). Computed by :mod:`.normal` (one compiled
  sequential pass, or vectorised passes where the compiled module is not built).
- "more than five times": the reading exceeds when value > 5 × baseline, strictly; a reading
  of exactly five times its baseline does not. Decided exactly on scaled integers
  (:mod:`.kernel`).
- "for any period of duration longer than 15 minutes": each reading stands for the interval
  until the next one; a run of exceeding readings lasts from its first reading to the
  reading after it (or, at a gap longer than the maximum gap or the end of the series, to
  its last reading plus the usual interval). The maximum gap follows the meter's logging:
  three times its usual interval, never less than five minutes
  (:func:`.series.logging_cadence`), so a meter logging every 15 minutes shows a 30-minute
  discharge (two exceeding readings) as a 30-minute slug. A slug lasts longer than 15 minutes, strictly:
  with one-minute data 16 exceeding readings in a row are a slug, 15 are not.
- A zero or negative baseline (no flow during the day before) makes every positive reading
  exceed it: that is what the arithmetic of the definition says; a day without flow is not
  "normal operation", and a fixed baseline is the remedy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from sewer_rules.findings import Finding, Status, UsedParameter
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.sections import implements

from .kernel import Judgement, LimitRule, WindowRule, limit_hits
from .normal import normal_exceedances
from .series import (
    I64,
    US_PER_HOUR,
    Cadence,
    Series,
    iso,
    minutes,
    runs,
    scaled_floor,
    segments,
    show,
    value_on,
)
from .slug_runs import REPORT, SLUG, Slug, slugs_of_runs

__all__ = ["REPORT", "SLUG", "Baseline", "Slug", "SlugResult", "detect_slugs", "slug_findings"]

SLUG_DIMENSIONS = frozenset({"flow", "concentration", "radioactivity"})
SLUG_PARAMETERS = ["slug.multiple", "slug.minimum_duration", "slug.baseline_window"]


def judged_as_slug(series: Series) -> bool:
    """Whether the slug definition applies: a flow or a concentration of a constituent."""
    return series.analyte.dimension in SLUG_DIMENSIONS


@dataclass(frozen=True)
class Baseline:
    """How "the average twenty-four-hour concentration or flow" is taken.

    ``fixed`` (in the series' unit): a baseline set from normal-operation data (recorded in
    the approval, or the Town's record of a new normal operation), used for every reading
    from ``fixed_from`` (microseconds; None: every reading, the first day included) until
    the first of ``then``, later fixed baselines each from its instant (sorted). Otherwise,
    and before ``fixed_from``, the trailing mean of the normal-operation readings over
    ``hours`` (None: ``slug.baseline_window`` as in force on the reading's date).
    """

    fixed: Fraction | None = None
    hours: Decimal | None = None
    fixed_from: int | None = None
    then: tuple[tuple[int, Fraction], ...] = ()

    def pieces(self, t: I64) -> list[tuple[int, Fraction]]:
        """Each fixed baseline with the index of the first reading it judges, in order (a
        baseline whose readings all fall under the next one is left out)."""
        if self.fixed is None:
            return []
        start = 0 if self.fixed_from is None else int(np.searchsorted(t, self.fixed_from))
        out = [(start, self.fixed)]
        for at, value in self.then:
            out.append((max(start, int(np.searchsorted(t, at))), value))
        return [p for k, p in enumerate(out) if k + 1 == len(out) or out[k + 1][0] > p[0]]


@dataclass(frozen=True)
class SlugResult:
    """The slugs of a series, and how its readings were judged: ``unjudged`` of them not
    judged, ``early`` of those for want of 24 hours of history before them (the rest: no
    slug parameter in force on their date), ``carried`` judged on a baseline carried past a
    window with no normal-operation reading."""

    slugs: list[Slug]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)
    hits: int = 0
    passes: int = 0
    normal: npt.NDArray[np.bool_] | None = None  # None: every reading counts as normal
    early: int = 0
    carried: int = 0


def used_parameters(
    params: ParameterSet, names: list[str], days: list[date]
) -> list[UsedParameter]:
    """The dated parameters a determination used (each version once), for replay."""
    seen: dict[tuple[str, date], UsedParameter] = {}
    for name in names:
        for on in days:
            try:
                pv = params.get(name, on)
            except ParameterError:
                continue
            seen.setdefault((name, pv.effective), UsedParameter(name, pv.effective, pv.authority))
    return list(seen.values())


@implements("§ 196-15 SLUG")
def detect_slugs(
    series: Series,
    params: ParameterSet,
    tz: str,
    cad: Cadence,
    baseline: Baseline | None = None,
) -> SlugResult:
    """§ 196-15 SLUG: every run of readings above five times their baseline lasting longer
    than 15 minutes, with the readings judged and not judged (module docstring)."""
    baseline = baseline or Baseline()
    t, v = series.t, series.v
    n = len(series)
    segs = segments(t, params, SLUG_PARAMETERS, tz)
    # readings from ``fixed`` on are judged against the fixed baselines, those before on the
    # trailing mean (every reading when the fixed baseline has no date)
    pieces = baseline.pieces(t)
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


@implements("§ 196-19 D(9)(d)")
def slug_findings(slug: Slug, tz: str, reported_at: datetime | None = None) -> list[Finding]:
    """§ 196-19 D(9)(d): a slug is a discharge the Superintendent reviews, and the user must
    report it immediately; a slug with no report by the user recorded is itself a finding.

    "Immediately" has no number in the law: a recorded report is shown with its delay and
    left to the Superintendent's judgment.
    """
    when = f"{iso(slug.start, tz)} to {iso(slug.end, tz)}"
    findings = [
        Finding(
            Status.REVIEW,
            REPORT,
            f"slug from {when} ({minutes(slug.duration)} min, peak {show(slug.peak)} over "
            f"threshold {show(slug.threshold)}); all slug discharges must be reported "
            "immediately by the user",
            limit=show(slug.threshold),
        )
    ]
    if reported_at is None:
        findings.append(
            Finding(
                Status.REVIEW,
                REPORT,
                f"no report by the user recorded for the slug from {when}",
            )
        )
    return findings


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
