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

How the software reads it (docs/interpretations.md, "Slugs"; each number is a dated parameter of
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
  the date it was recorded (:class:`Baseline`).
- "more than five times": the reading exceeds when value > 5 × baseline, strictly; a reading
  of exactly five times its baseline does not. Decided exactly, in fractions.
- "for any period of duration longer than 15 minutes": each reading stands for the interval
  until the next one; a run of exceeding readings lasts from its first reading to the
  reading after it (or, at a gap longer than the maximum gap or the end of the series, to
  its last reading plus the usual interval). The maximum gap follows the meter's logging:
  three times its usual interval, never less than five minutes
  (:mod:`.runs`), so a meter logging every 15 minutes shows a 30-minute
  discharge (two exceeding readings) as a 30-minute slug. A slug lasts longer than 15 minutes, strictly:
  with one-minute data 16 exceeding readings in a row are a slug, 15 are not.
- A zero or negative baseline (no flow during the day before) makes every positive reading
  exceed it: that is what the arithmetic of the definition says; a day without flow is not
  "normal operation", and a fixed baseline is the remedy.

:func:`slugs_of` below is the rule read one reading at a time, in fractions: the definition.
The engine that judges millions of readings (:mod:`sewer_engines.monitoring.slugs`: whole
vectorised passes, a compiled sequential loop) returns the same :class:`Slug` values and
counts, and the property tests (``tests/test_slugs_engine.py``) compare it with this function
on generated series.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from sewer_rules.analytes import BY_NAME
from sewer_rules.citations import cite
from sewer_rules.findings import Finding, Status, UsedParameter
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.sections import implements

from .instants import US_PER_HOUR, US_PER_MINUTE, iso, local_date, minutes, show, value_on
from .runs import meter_max_gap, runs_of

__all__ = [
    "REPORT",
    "SLUG",
    "Baseline",
    "Reading",
    "Slug",
    "SlugJudgement",
    "judged_as_slug",
    "slug_findings",
    "slugs_of",
]

SLUG = cite("§ 196-15 SLUG")
REPORT = cite("§ 196-19 D(9)(d)")
SLUG_DIMENSIONS = frozenset({"flow", "concentration", "radioactivity"})
SLUG_PARAMETERS = ["slug.multiple", "slug.minimum_duration", "slug.baseline_window"]


def judged_as_slug(parameter: str) -> bool:
    """Whether the slug definition applies: a flow or a concentration of a constituent."""
    return BY_NAME[parameter].dimension in SLUG_DIMENSIONS


class Reading(NamedTuple):
    """One reading of one meter's parameter: its instant (µs since 1970 UTC) and its value."""

    at: int
    value: Decimal


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
    hours: Decimal | Fraction | None = None
    fixed_from: int | None = None
    then: tuple[tuple[int, Fraction], ...] = ()

    def fixed_at(self, at: int) -> Fraction | None:
        """The fixed baseline judging a reading taken at ``at`` (None: the trailing mean)."""
        if self.fixed is None or (self.fixed_from is not None and at < self.fixed_from):
            return None
        value = self.fixed
        for since, later in self.then:
            if since <= at:
                value = later
        return value


@dataclass(frozen=True, slots=True)
class Slug:
    """A slug: when (µs), which readings (indices), its peak, and the baseline its first
    reading exceeded (``multiple`` times it is the threshold). ``carried_from``: the last
    normal-operation reading whose 24 hours gave the baseline of readings of the slug whose
    own window held none (None: none did)."""

    start: int
    end: int
    first: int
    last: int
    peak: Decimal
    multiple: Fraction
    baseline: Fraction
    carried_from: int | None = None

    @property
    def duration(self) -> int:
        return self.end - self.start

    @property
    def readings(self) -> int:
        return self.last - self.first + 1

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
            "baseline_carried_from": (
                iso(self.carried_from, tz) if self.carried_from is not None else None
            ),
        }


@dataclass(frozen=True)
class SlugJudgement:
    """The slugs of a series, and how its readings were judged: ``hits`` readings exceeded
    their baseline, ``judged`` were judged, ``unjudged`` not — ``early`` of those for want of
    a window of history before them, the rest for want of a slug parameter in force on their
    date — and ``carried`` were judged on a baseline carried past a window with no
    normal-operation reading. ``exceeding``: the indices of the readings that exceeded (not
    normal operation), in order."""

    slugs: list[Slug]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)
    hits: int = 0
    early: int = 0
    carried: int = 0
    exceeding: tuple[int, ...] = ()


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


@dataclass(frozen=True)
class _Judged:
    """One reading that exceeded: the mean it exceeded, the multiple, and the last normal
    reading whose window gave a carried mean (None: its own window held one)."""

    mean: Fraction
    multiple: Fraction
    carried_from: int | None


@implements("§ 196-15 SLUG")
def slugs_of(
    readings: Sequence[Reading],
    params: ParameterSet,
    tz: str,
    baseline: Baseline | None = None,
    minimum_gap_us: int | None = None,
) -> SlugJudgement:
    """§ 196-15 SLUG read one reading at a time: every run of readings above five times their
    baseline lasting longer than 15 minutes (the module docstring says how each word is
    read). ``readings`` are one meter's readings of one parameter, in time order;
    ``minimum_gap_us``: the shortest maximum gap (None: ``slug.max_gap_minimum``)."""
    baseline = baseline or Baseline()
    times = [r.at for r in readings]
    values = [Fraction(r.value) for r in readings]
    normal = [True] * len(readings)  # a reading that exceeded is not normal operation
    exceeded: dict[int, _Judged] = {}
    judged = unjudged = early = carried = 0
    for i, t in enumerate(times):
        on = local_date(t, tz)
        multiple = value_on(params, "slug.multiple", on)
        fixed = baseline.fixed_at(t)
        carried_from = None
        if fixed is not None:
            if multiple is None:
                unjudged += 1
                continue
            mean = fixed
        else:
            hours = baseline.hours
            if hours is None:
                hours = value_on(params, "slug.baseline_window", on)
            window = int(Fraction(hours) * US_PER_HOUR) if hours is not None else 0
            if multiple is None or window <= 0:
                unjudged += 1
                continue
            if t - times[0] < window:
                unjudged += 1  # less than a window of history: no baseline, normal operation
                early += 1
                continue
            # the normal-operation readings of [t - window, t)
            inside = []
            j = i - 1
            while j >= 0 and times[j] >= t - window:
                if normal[j]:
                    inside.append(values[j])
                j -= 1
            if not inside:
                # carried: the window that ends with the last normal reading, that one included
                last = max(j for j in range(i) if normal[j])
                inside = [
                    values[j]
                    for j in range(last + 1)
                    if times[last] - window < times[j] and normal[j]
                ]
                carried += 1
                carried_from = times[last]
            mean = sum(inside, Fraction(0)) / len(inside)
        judged += 1
        if values[i] > Fraction(multiple) * mean:
            normal[i] = False
            exceeded[i] = _Judged(mean, Fraction(multiple), carried_from)
    max_gap = meter_max_gap(times, params, tz, minimum_gap_us)
    slugs = []
    for run in runs_of(times, sorted(exceeded), max_gap):
        longest = value_on(params, "slug.minimum_duration", local_date(run.start, tz))
        if longest is None or not run.duration > Fraction(longest) * US_PER_MINUTE:
            continue
        first = exceeded[run.first]
        carried_by = [exceeded[j].carried_from for j in range(run.first, run.last + 1)]
        slugs.append(
            Slug(
                run.start,
                run.end,
                run.first,
                run.last,
                max(readings[j].value for j in range(run.first, run.last + 1)),
                first.multiple,
                first.mean,
                next((c for c in carried_by if c is not None), None),
            )
        )
    return SlugJudgement(
        slugs,
        judged,
        unjudged,
        _used(params, baseline, times, tz),
        hits=len(exceeded),
        early=early,
        carried=carried,
        exceeding=tuple(sorted(exceeded)),
    )


def _used(
    params: ParameterSet, baseline: Baseline, times: list[int], tz: str
) -> list[UsedParameter]:
    """The slug parameters in force over the readings' dates (the window only where a
    trailing mean of that window judged some reading)."""
    names = ["slug.multiple", "slug.minimum_duration"]
    trailing = any(baseline.fixed_at(t) is None for t in times)
    if trailing and baseline.hours is None:
        names.append("slug.baseline_window")
    return used_parameters(params, names, sorted({local_date(t, tz) for t in times}))


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
