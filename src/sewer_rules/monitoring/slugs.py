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
  10 × the normal level is one 300-minute slug, not a 160-minute one). A reading with less
  than 24 hours of history before it, or whose window holds no normal-operation reading (an
  outage, or a whole day above the old level), has no baseline: it is not judged, is
  counted, and counts as normal operation for later baselines — so a lasting change of level
  becomes the new normal after 24 hours instead of one endless slug. Where normal operation
  is better known (a baseline set in a permit from normal-operation data), a fixed baseline
  replaces the mean. Computed by :mod:`.normal` (one compiled sequential pass, or vectorised
  passes where the compiled module is not built).
- "more than five times": the reading exceeds when value > 5 × baseline, strictly; a reading
  of exactly five times its baseline does not. Decided exactly on scaled integers
  (:mod:`.kernel`).
- "for any period of duration longer than 15 minutes": each reading stands for the interval
  until the next one; a run of exceeding readings lasts from its first reading to the
  reading after it (or, at a gap longer than the maximum gap or the end of the series, to
  its last reading plus the usual interval). A slug lasts longer than 15 minutes, strictly:
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
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from sewer_rules.citations import cite
from sewer_rules.findings import Finding, Status, UsedParameter
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.sections import implements

from .kernel import (
    Judgement,
    LimitRule,
    WindowRule,
    exact_sum,
    limit_hits,
    window_start,
)
from .normal import normal_exceedances
from .series import (
    I64,
    US_PER_HOUR,
    US_PER_MINUTE,
    Cadence,
    Runs,
    Segment,
    Series,
    exact_decimal,
    iso,
    minutes,
    runs,
    scaled_floor,
    segments,
    show,
    ten,
    value_on,
)

SLUG = cite("§ 196-15 SLUG")
REPORT = cite("§ 196-19 D(9)(d)")
SLUG_DIMENSIONS = frozenset({"flow", "concentration", "radioactivity"})
SLUG_PARAMETERS = ["slug.multiple", "slug.minimum_duration", "slug.baseline_window"]


def judged_as_slug(series: Series) -> bool:
    """Whether the slug definition applies: a flow or a concentration of a constituent."""
    return series.analyte.dimension in SLUG_DIMENSIONS


@dataclass(frozen=True)
class Baseline:
    """How "the average twenty-four-hour concentration or flow" is taken.

    ``fixed`` (in the series' unit): a baseline set from normal-operation data, used for every
    reading. Otherwise the trailing mean over ``hours`` (None: ``slug.baseline_window`` as in
    force on the reading's date).
    """

    fixed: Fraction | None = None
    hours: Decimal | None = None


class Slug(NamedTuple):
    """A slug: when, how long, its peak, and the baseline and threshold it exceeded.

    Held as integers (scaled values, the window's sum and count at its first reading); the
    decimals and fractions are made when asked for. Immutable.
    """

    start: int
    end: int
    first: int
    last: int
    peak_scaled: int
    scale: int
    multiple: Fraction
    baseline_sum: int = 0
    baseline_count: int = 1
    fixed: Fraction | None = None

    @property
    def duration(self) -> int:
        return self.end - self.start

    @property
    def readings(self) -> int:
        return self.last - self.first + 1

    @property
    def peak(self) -> Decimal:
        return exact_decimal(self.peak_scaled, self.scale)

    @property
    def baseline(self) -> Fraction:
        """The mean of the window before the slug's first reading (or the fixed baseline)."""
        if self.fixed is not None:
            return self.fixed
        return Fraction(self.baseline_sum, self.baseline_count * ten(self.scale))

    @property
    def threshold(self) -> Fraction:
        return self.multiple * self.baseline

    def as_dict(self, tz: str) -> dict[str, object]:
        return {
            "start": iso(self.start, tz),
            "end": iso(self.end, tz),
            "duration_minutes": minutes(self.duration),
            "peak": show(self.peak),
            "baseline": show(self.baseline),
            "threshold": show(self.threshold),
            "citation": str(SLUG),
            "report_required": str(REPORT),
            "readings": self.readings,
        }


@dataclass(frozen=True)
class SlugResult:
    slugs: list[Slug]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)
    hits: int = 0
    passes: int = 0
    normal: npt.NDArray[np.bool_] | None = None  # None: every reading counts as normal


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
    segs = segments(t, params, SLUG_PARAMETERS, tz)
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
        if baseline.fixed is not None:
            bound = (
                None if multiple is None else scaled_floor(multiple * baseline.fixed, series.scale)
            )
            limit_rules.append(LimitRule(seg.start, seg.stop, bound, above=True))
        else:
            window = int(Fraction(hours) * US_PER_HOUR) if hours is not None else 0
            p, q = (multiple.numerator, multiple.denominator) if multiple is not None else (0, 1)
            window_rules.append(
                WindowRule(seg.start, seg.stop, window, p, q, in_force=multiple is not None)
            )
    judgement: Judgement = (
        limit_hits(v, limit_rules)
        if baseline.fixed is not None
        else normal_exceedances(t, v, cad, window_rules)
    )
    found = runs(t, judgement.hits, cad)
    slugs = _slugs(series, params, segs, multiples, window_rules, baseline, judgement, found)
    used_names = ["slug.multiple", "slug.minimum_duration"]
    if baseline.fixed is None and baseline.hours is None:
        used_names.append("slug.baseline_window")
    used = used_parameters(params, used_names, [s.on for s in segs]) if segs else []
    return SlugResult(
        slugs,
        judgement.judged,
        judgement.unjudged,
        used,
        int(judgement.hits.size),
        judgement.passes,
        judgement.normal,
    )


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


def _slugs(
    series: Series,
    params: ParameterSet,
    segs: list[Segment],
    multiples: list[Fraction | None],
    window_rules: list[WindowRule],
    baseline: Baseline,
    judgement: Judgement,
    found: Runs,
) -> list[Slug]:
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
    if baseline.fixed is None and judgement.sums is not None and judgement.counts is not None:
        at = np.searchsorted(judgement.hits, first)
        totals = [int(x) for x in judgement.sums[at].tolist()]
        counts = judgement.counts[at].tolist()
    else:
        totals, counts = [0] * keep.size, [1] * keep.size
    out: list[Slug] = []
    for k, (f, lst) in enumerate(zip(first.tolist(), last.tolist(), strict=True)):
        multiple = multiples[segment[k]]
        if multiple is None:
            continue
        total, count = totals[k], counts[k]
        if baseline.fixed is None and judgement.sums is None:
            # the mean of the window's normal-operation readings (module docstring)
            lo = window_start(series.t, f, window_rules[segment[k]].window)
            inside = series.v[lo:f]
            if judgement.normal is not None:
                inside = inside[judgement.normal[lo:f]]
            total, count = exact_sum(inside), int(inside.shape[0])
        out.append(
            Slug(
                starts_us[k],
                ends_us[k],
                f,
                lst,
                peaks[k],
                series.scale,
                multiple,
                total,
                count,
                baseline.fixed,
            )
        )
    return out


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
    reading, as floats, for drawing only (NaN where unjudged).

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
    return out
