"""Legal cases of continuous monitoring: a meter series in, slugs and excursions out.

A case's ``input``::

    meter: IU-01                 # default "default"
    parameter: flow              # default flow (any spelling of tests' analytes)
    unit: gpm                    # default: the parameter's canonical unit
    start: "2026-03-01T00:00:00-05:00"
    interval: 1min               # default 1min
    readings:                    # in order; each entry is one of
      - [1440, "10"]             #   N readings at the interval, all with this value
      - "51"                     #   one reading
      - {gap: 10min}             #   the next reading comes this long after the last one
      - {missing: 3}             #   3 intervals with no value (the meter logged nothing)
    baseline: "10"               # optional: a fixed baseline, in the series' unit
    baseline_hours: "24"         # optional: another trailing window
    max_gap: 5min                # the shortest maximum gap (default slug.max_gap_minimum, 5min);
                                 # the maximum gap is three usual intervals where longer
    ph_allowance: false          # default false

The runner returns the series' report as ``sewer-use slugs --format json`` prints it, plus
``exceeding``: how many readings were above five times their baseline.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sewer_cli.cmd_slugs import parse_duration
from sewer_engines.monitoring.analysis import Options, analyse_series
from sewer_engines.monitoring.series import Series, logging_cadence
from sewer_engines.monitoring.slugs import detect_slugs, judged_as_slug
from sewer_rules.analytes import resolve
from sewer_rules.monitoring.instants import to_us
from sewer_rules.monitoring.slugs import Baseline
from sewer_rules.parameters import load_jurisdiction


def build_series(spec: dict[str, Any]) -> Series:
    parameter = resolve(str(spec.get("parameter", "flow")))
    unit = str(spec.get("unit", parameter.canonical_unit))
    step = parse_duration(str(spec.get("interval", "1min")))
    t = to_us(datetime.fromisoformat(str(spec["start"])))
    times: list[int] = []
    values: list[str] = []
    pending = 0  # how long after the last reading the next one comes (0: one interval)
    for entry in spec["readings"]:
        if isinstance(entry, dict) and "gap" in entry:
            pending = parse_duration(str(entry["gap"]))
            continue
        if isinstance(entry, dict) and "missing" in entry:
            skipped = int(entry["missing"]) * step
            if times:
                pending = (pending or step) + skipped
            else:
                t += skipped
            continue
        count, value = (entry[0], entry[1]) if isinstance(entry, list) else (1, entry)
        for _ in range(int(count)):
            if times:
                t += pending or step
            pending = 0
            times.append(t)
            values.append(str(value))
    return Series.from_decimals(
        str(spec.get("meter", "default")), parameter.name, unit, times, values
    )


def run(case: dict[str, Any]) -> dict[str, Any]:
    spec = case["input"]
    params = load_jurisdiction(case.get("jurisdiction", "wappinger"))
    series = build_series(spec)
    options = Options(
        max_gap_us=parse_duration(str(spec["max_gap"])) if "max_gap" in spec else None,
        fixed_baseline=Decimal(str(spec["baseline"])) if "baseline" in spec else None,
        baseline_hours=Decimal(str(spec["baseline_hours"])) if "baseline_hours" in spec else None,
        ph_allowance=bool(spec.get("ph_allowance", False)),
    )
    report = analyse_series(series, params, options)
    out = report.as_dict(params.timezone)
    out["found"] = report.found
    if judged_as_slug(series):
        fixed = Fraction(options.fixed_baseline) if options.fixed_baseline is not None else None
        baseline = Baseline(fixed=fixed, hours=options.baseline_hours)
        cad = logging_cadence(series.t, params, params.timezone, options.max_gap_us)
        result = detect_slugs(series, params, params.timezone, cad, baseline)
        out["exceeding"] = result.hits
    return out
