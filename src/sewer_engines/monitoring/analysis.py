"""A readings file judged series by series: slugs, excursions, monthly totals, row errors.

This is what ``sewer-use slugs`` runs, through :func:`sewer_io.meter_files.analyse` which opens
the file. Each series is read, judged and dropped before the next
is read (unless the caller keeps it to draw it), so memory follows the largest series, not
the file. The result names the dated parameters it used, so it can be replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from sewer_rules.findings import UsedParameter
from sewer_rules.monitoring.excursions import (
    Excursion,
    Monthly,
    apply_ph_allowance,
    monthly_totals,
)
from sewer_rules.monitoring.instants import US_PER_HOUR, US_PER_SECOND, iso, local_date, value_on
from sewer_rules.monitoring.slugs import Baseline, Slug
from sewer_rules.parameters import ParameterSet
from sewer_rules.units import UNITS, UnitError, convert

from .excursions import excursions, has_limits
from .series import Series, logging_cadence
from .slugs import detect_slugs, judged_as_slug
from .source import ReadOptions, RowError, Source


class OptionError(ValueError):
    """Options that cannot be applied to the file's series (exit status 2)."""


@dataclass(frozen=True)
class Options:
    """How to judge a file. ``max_gap_us``: the shortest maximum gap (None:
    ``slug.max_gap_minimum``); the maximum gap of a series is three times its usual interval
    when that is longer (:func:`.series.logging_cadence`). ``fixed_baseline``: for every
    reading, or from the instant ``fixed_baseline_from`` (microseconds) when given.
    ``dated_baselines``: fixed baselines in the series' unit, each from its instant (the
    office's records), used when ``fixed_baseline`` is not given."""

    jurisdiction: str = "wappinger"
    max_gap_us: int | None = None
    baseline_hours: Decimal | None = None
    fixed_baseline: Decimal | None = None
    fixed_baseline_unit: str | None = None
    fixed_baseline_from: int | None = None
    dated_baselines: tuple[tuple[int, Decimal], ...] = ()
    ph_allowance: bool = False
    dedupe: str | None = None
    meter: str | None = None
    parameter: str | None = None
    keep_series: bool = False
    memory_budget: int = 256 * 2**20
    max_errors: int = 1000
    spill_dir: str | None = None


@dataclass
class SeriesReport:
    meter: str
    parameter: str
    unit: str
    readings: int
    judged: int
    unjudged: int
    missing: int
    deduplicated: int
    gaps: int
    interval_us: int
    first: int
    last: int
    max_gap_us: int = 0
    #: of the readings not judged, those with less than a window of history before them
    early: int = 0
    #: readings judged on a baseline carried past a window with no normal-operation reading
    carried: int = 0
    slugs: list[Slug] = field(default_factory=list)
    excursions: list[Excursion] = field(default_factory=list)
    monthly: list[Monthly] = field(default_factory=list)
    used: list[UsedParameter] = field(default_factory=list)
    baseline: Baseline | None = None
    window_us: int = 0
    data: Series | None = None
    #: which readings of ``data`` count as normal operation (kept with ``data``; None: all)
    normal: npt.NDArray[np.bool_] | None = None

    @property
    def found(self) -> bool:
        """A slug, or an excursion not excused: exit status 1."""
        return bool(self.slugs) or any(not e.excused for e in self.excursions)

    def not_judged(self) -> dict[str, object]:
        """How many readings were not judged, and why."""
        reasons = []
        if self.early:
            hours = f"{self.window_us / US_PER_HOUR:g}"
            reasons.append(
                f"{self.early} with less than {hours} hours of history before them: no "
                "baseline (no fixed baseline given); counted as normal operation"
            )
        if self.unjudged - self.early:
            reasons.append(
                f"{self.unjudged - self.early} on dates with no slug or limit parameter in force"
            )
        return {
            "count": self.unjudged,
            "no_history": self.early,
            "no_parameter": self.unjudged - self.early,
            "reasons": reasons,
        }

    def as_dict(self, tz: str) -> dict[str, object]:
        return {
            "meter": self.meter,
            "parameter": self.parameter,
            "unit": self.unit,
            "readings": self.readings,
            "judged": self.judged,
            "unjudged": self.unjudged,
            "slugs": [s.as_dict(tz) for s in self.slugs],
            "excursions": [e.as_dict(tz) for e in self.excursions],
            "monthly": [m.as_dict() for m in self.monthly],
            "missing": self.missing,
            "deduplicated": self.deduplicated,
            "gaps": self.gaps,
            "interval_seconds": self.interval_us / US_PER_SECOND,
            "first": iso(self.first, tz) if self.readings else None,
            "last": iso(self.last, tz) if self.readings else None,
            "parameters_used": [
                {"name": u.name, "effective": u.effective.isoformat(), "authority": u.authority}
                for u in self.used
            ],
            "not_judged": self.not_judged(),
            "baseline_carried_readings": self.carried,
            "max_gap_seconds": self.max_gap_us / US_PER_SECOND,
        }


@dataclass
class Report:
    source: str
    timezone: str
    jurisdiction: str
    parameters_version: str
    series: list[SeriesReport]
    errors: list[RowError]
    errors_total: int

    @property
    def found(self) -> bool:
        return self.errors_total > 0 or any(s.found for s in self.series)

    def as_dict(self) -> dict[str, object]:
        return {
            "series": [s.as_dict(self.timezone) for s in self.series],
            "errors": [e.as_dict() for e in self.errors],
            "errors_total": self.errors_total,
            "jurisdiction": self.jurisdiction,
            "parameters_version": self.parameters_version,
        }


def _fixed(options: Options, series: Series) -> Fraction | None:
    """The fixed baseline in the series' unit (converted exactly), or None."""
    if options.fixed_baseline is None:
        return None
    unit = options.fixed_baseline_unit
    if unit is None or unit == series.unit:
        return Fraction(options.fixed_baseline)
    if UNITS[unit].dimension != UNITS[series.unit].dimension:
        raise OptionError(
            f"a baseline in {unit} does not apply to {series.parameter} of meter "
            f"{series.meter!r} ({series.unit}): choose the series with --meter and --parameter"
        )
    try:
        return convert(options.fixed_baseline, unit, series.unit)
    except UnitError as e:
        raise OptionError(str(e)) from None


def _baseline(options: Options, series: Series) -> Baseline:
    """The baseline ``options`` ask for (:class:`sewer_rules.monitoring.slugs.Baseline`)."""
    fixed = _fixed(options, series)
    if fixed is None and options.dated_baselines:
        dated = sorted(options.dated_baselines)
        return Baseline(
            fixed=Fraction(dated[0][1]),
            hours=options.baseline_hours,
            fixed_from=dated[0][0],
            then=tuple((at, Fraction(value)) for at, value in dated[1:]),
        )
    return Baseline(
        fixed=fixed, hours=options.baseline_hours, fixed_from=options.fixed_baseline_from
    )


def analyse_series(series: Series, params: ParameterSet, options: Options) -> SeriesReport:
    """Judge one series: slugs for a flow or concentration, excursions for pH/temperature."""
    tz = params.timezone
    cad = logging_cadence(series.t, params, tz, options.max_gap_us)
    n = len(series)
    report = SeriesReport(
        meter=series.meter,
        parameter=series.parameter,
        unit=series.unit,
        readings=n,
        judged=n,
        unjudged=0,
        missing=series.missing,
        deduplicated=series.deduplicated,
        gaps=cad.gaps,
        interval_us=cad.interval,
        max_gap_us=cad.max_gap,
        first=int(series.t[0]) if n else 0,
        last=int(series.t[-1]) if n else 0,
        data=series if options.keep_series else None,
    )
    if judged_as_slug(series):
        baseline = _baseline(options, series)
        result = detect_slugs(series, params, tz, cad, baseline)
        report.slugs = result.slugs
        report.judged, report.unjudged = result.judged, result.unjudged
        report.early, report.carried = result.early, result.carried
        report.used = result.used
        report.baseline = baseline
        if options.keep_series:
            report.normal = result.normal
        hours = options.baseline_hours
        if hours is None and n:
            hours = value_on(params, "slug.baseline_window", local_date(int(series.t[-1]), tz))
        report.window_us = int(Fraction(hours) * US_PER_HOUR) if hours is not None else 0
    elif has_limits(series):
        result_x = excursions(series, params, tz, cad)
        report.judged, report.unjudged = result_x.judged, result_x.unjudged
        report.monthly = (
            monthly_totals(
                series.parameter, report.first, report.last, result_x.excursions, params, tz
            )
            if n
            else []
        )
        found = result_x.excursions
        if options.ph_allowance:
            found = apply_ph_allowance(series.parameter, found, report.monthly, tz)
        report.excursions = found
        report.used = result_x.used
    return report


def read_options(options: Options, params: ParameterSet) -> ReadOptions:
    """How to read the rows for ``options`` in the jurisdiction of ``params``."""
    return ReadOptions(
        timezone=params.timezone,
        dedupe=options.dedupe,
        meter=options.meter,
        parameter=options.parameter,
        memory_budget=options.memory_budget,
        max_errors=options.max_errors,
        spill_dir=options.spill_dir,
    )


def report_of(source: str, readings: Source, options: Options, params: ParameterSet) -> Report:
    """Every series of ``readings`` judged, one series in memory at a time, with the row
    errors met on the way (the file is opened by :func:`sewer_io.meter_files.analyse`)."""
    series = [analyse_series(s, params, options) for s in readings.series()]
    return Report(
        source=source,
        timezone=params.timezone,
        jurisdiction=params.jurisdiction,
        parameters_version=params.version,
        series=series,
        errors=list(readings.errors),
        errors_total=readings.errors_total,
    )
