"""``sewer-use slugs`` — slugs and pH/temperature excursions in continuous meter data.

    sewer-use slugs READINGS.(csv|parquet) [--baseline VALUE [--baseline-from TIME]
                    | --baseline-hours 24] [--max-gap 5min] [--ph-allowance]
                    [--format table|json|csv]
                    [--output FILE] [--plot FILE.(png|svg)] [--meter ID] [--parameter NAME]

Input columns ``timestamp, value`` (required) and ``meter, parameter, unit`` (optional).
Exit status: 0 no slug and no excursion; 1 any slug, excursion or row error; 2 unusable file.
The report's table and CSV are :mod:`.slugs_report`'s.
The computation is :mod:`sewer_engines.monitoring`; the rules it applies, with the readings
of the law, are :mod:`sewer_rules.monitoring` (§ 196-15 SLUG, § 196-19 C(3), D(1), D(8),
D(9)(d)).
"""

from __future__ import annotations

import argparse
import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING

from . import allocator
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import destination, dump_json

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_engines.monitoring.analysis import Options

# sewer_engines.monitoring's constants, restated so that --help needs no numpy or polars
# (tests/test_cli_startup.py checks they agree).
US_PER_SECOND, US_PER_MINUTE, US_PER_HOUR = 1_000_000, 60_000_000, 3_600_000_000
DEDUPE = ("first", "last", "mean")

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$")
_DURATION_UNITS = {
    "": US_PER_MINUTE,
    "s": US_PER_SECOND,
    "sec": US_PER_SECOND,
    "secs": US_PER_SECOND,
    "second": US_PER_SECOND,
    "seconds": US_PER_SECOND,
    "m": US_PER_MINUTE,
    "min": US_PER_MINUTE,
    "mins": US_PER_MINUTE,
    "minute": US_PER_MINUTE,
    "minutes": US_PER_MINUTE,
    "h": US_PER_HOUR,
    "hr": US_PER_HOUR,
    "hrs": US_PER_HOUR,
    "hour": US_PER_HOUR,
    "hours": US_PER_HOUR,
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "slugs",
        help="slugs (§ 196-15 SLUG) and pH/temperature excursions in continuous meter data",
        description=(
            "Find slugs (readings above five times the mean of the normal-operation readings "
            "of the 24 hours before them for longer than 15 minutes, § 196-15 SLUG; to be reported immediately, § 196-19 D(9)(d)) and "
            "excursions of pH (< 5.5 prohibited, § 196-19 C(3); > 9.5 review, D(8)) and "
            "temperature (> 150 °F review, D(1)). Exit status 0: nothing found; 1: a slug, an "
            "excursion or a row error; 2: unusable file."
        ),
    )
    p.add_argument("readings", metavar="READINGS", help="a .csv or .parquet file of readings")
    base = p.add_mutually_exclusive_group()
    base.add_argument(
        "--baseline",
        metavar="VALUE",
        help="a fixed baseline (recorded in the approval) instead of the trailing mean, in the "
        "series' unit or with its own (e.g. 12000 or '8.5 gpm'); it judges every reading, the "
        "first 24 hours included",
    )
    p.add_argument(
        "--baseline-from",
        metavar="TIME",
        help="with --baseline: use it only from this time (ISO 8601, e.g. 2026-03-01T00:00; "
        "without an offset, town time), the trailing mean before",
    )
    base.add_argument(
        "--baseline-hours",
        metavar="HOURS",
        help="trailing window of the baseline in hours (default: slug.baseline_window, 24)",
    )
    p.add_argument(
        "--max-gap",
        metavar="DURATION",
        default=None,
        help="the shortest maximum gap: an interval between readings longer than the maximum "
        "gap ends a run; the maximum gap is three times the meter's usual interval, never less "
        "than this (default: slug.max_gap_minimum, 5min)",
    )
    p.add_argument(
        "--ph-allowance",
        action="store_true",
        help="apply the 40 CFR 401.17 allowance to pH excursions (off: the article counts all)",
    )
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--plot", metavar="FILE", help="draw the series to a .png or .svg file")
    p.add_argument("--meter", metavar="ID", help="only this meter")
    p.add_argument("--parameter", metavar="NAME", help="only this parameter (e.g. flow, pH)")
    p.add_argument(
        "--dedupe",
        choices=DEDUPE,
        help="keep the first or last of readings with the same timestamp, or their mean "
        "(default: duplicate timestamps are an error)",
    )
    p.add_argument(
        "--jurisdiction",
        default="wappinger",
        help="bundled jurisdiction or parameters.yaml (default wappinger)",
    )
    p.set_defaults(func=run)


def parse_duration(text: str) -> int:
    """``5min``, ``90s``, ``1h``, ``2.5 minutes`` (a bare number is minutes) in microseconds."""
    match = _DURATION.match(text.lower())
    if not match or match[2] not in _DURATION_UNITS:
        raise UsageError(f"--max-gap: not a duration: {text!r} (e.g. 5min, 90s, 1h)")
    us = Decimal(match[1]) * _DURATION_UNITS[match[2]]
    if us <= 0:
        raise UsageError("--max-gap must be positive")
    return int(us)


def parse_baseline(text: str) -> tuple[Decimal, str | None]:
    """``12000`` or ``8.5 gpm``."""
    from sewer_rules.units import UnitError, parse_unit

    parts = text.strip().split(None, 1)
    if not parts:
        raise UsageError("--baseline: give a value, e.g. 12000 or '8.5 gpm'")
    try:
        value = Decimal(parts[0])
    except InvalidOperation:
        raise UsageError(f"--baseline: not a number: {parts[0]!r}") from None
    if not value.is_finite():
        raise UsageError(f"--baseline: not a number: {parts[0]!r}")
    unit = None
    if len(parts) == 2:
        try:
            unit = parse_unit(parts[1]).symbol
        except UnitError as e:
            raise UsageError(f"--baseline: {e}") from None
    return value, unit


def _baseline_from(args: argparse.Namespace) -> int | None:
    """``--baseline-from`` as an instant (a time without an offset is town time)."""
    if args.baseline_from is None:
        return None
    if args.baseline is None:
        raise UsageError("--baseline-from: give the fixed baseline with --baseline")
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from sewer_rules.monitoring.instants import to_us

    from .common import jurisdiction

    try:
        tz = ZoneInfo(jurisdiction(args.jurisdiction).timezone)
    except OSError as e:
        raise UsageError(str(e)) from None
    text = args.baseline_from.strip()
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--baseline-from: not an ISO 8601 time: {text!r}") from None
    if at.tzinfo is None:
        local = at.replace(tzinfo=tz)  # fold 0: an autumn hour's first occurrence
        if local.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != at:
            raise UsageError(
                f"--baseline-from: {text} never happened in town time (the clocks moved "
                "forward); give it with its offset"
            )
        at = local
    return to_us(at)


def _options(args: argparse.Namespace) -> Options:
    from sewer_engines.monitoring.analysis import Options
    from sewer_rules.analytes import UnknownAnalyte, resolve

    hours = None
    if args.baseline_hours is not None:
        try:
            hours = Decimal(args.baseline_hours)
        except InvalidOperation:
            raise UsageError(f"--baseline-hours: not a number: {args.baseline_hours!r}") from None
        if not hours.is_finite() or hours <= 0:
            raise UsageError("--baseline-hours must be a positive number")
    fixed, fixed_unit = parse_baseline(args.baseline) if args.baseline is not None else (None, None)
    parameter = None
    if args.parameter is not None:
        try:
            parameter = resolve(args.parameter).name
        except UnknownAnalyte as e:
            raise UsageError(f"--parameter: {e}") from None
    if args.plot is not None and Path(args.plot).suffix.lower() not in (".png", ".svg"):
        raise UsageError(f"--plot: {args.plot}: the plot is drawn to a .png or .svg file")
    return Options(
        jurisdiction=args.jurisdiction,
        max_gap_us=parse_duration(args.max_gap) if args.max_gap is not None else None,
        fixed_baseline_from=_baseline_from(args),
        baseline_hours=hours,
        fixed_baseline=fixed,
        fixed_baseline_unit=fixed_unit,
        ph_allowance=args.ph_allowance,
        dedupe=args.dedupe,
        meter=args.meter.strip() if args.meter is not None else None,
        parameter=parameter,
        keep_series=args.plot is not None,
    )


def run(args: argparse.Namespace) -> int:
    allocator.for_columns(numpy_arrays=True)
    from sewer_engines.monitoring.analysis import OptionError
    from sewer_engines.monitoring.source import ReadingsError
    from sewer_io.meter_files import analyse
    from sewer_rules.parameters import ParameterError

    from .common import jurisdiction

    jurisdiction(args.jurisdiction)  # § 196-15 SLUG is Wappinger's article: refuse another law
    options = _options(args)
    try:
        report = analyse(args.readings, options)
    except (ReadingsError, OptionError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if args.meter is not None and not report.series and not report.errors_total:
        print(f"sewer-use: no readings for meter {options.meter!r}", file=sys.stderr)
    from .slugs_report import render_table, write_csv

    with destination(args.output) as out:
        if args.format == "json":
            dump_json(report.as_dict(), out)
        elif args.format == "csv":
            write_csv(report, out)
            if report.errors_total:
                print(
                    f"sewer-use: {report.errors_total} row error(s); --format json lists them",
                    file=sys.stderr,
                )
        else:
            out.write(render_table(report) + "\n")
    if args.plot is not None:
        from sewer_io.plot_monitoring import plot_report

        try:
            plot_report(report, args.plot, options.jurisdiction, options.max_gap_us)
        except OSError as e:
            raise UsageError(f"{args.plot}: cannot write: {e.strerror}") from None
    return EXIT_FOUND if report.found else EXIT_OK
