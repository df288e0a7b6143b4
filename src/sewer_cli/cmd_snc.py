"""``sewer-use snc RESULTS.csv --limits LIMITS.csv --period 2026H1`` — significant noncompliance.

    sewer-use snc RESULTS.csv --limits LIMITS.csv --period 2026H1|2026|2026-01..2026-06
                  [--rolling] [--reports REPORTS.csv] [--as-of DATE] [--not-siu CODE[,CODE]]
                  [--jurisdiction wappinger|demo|PATH] [--format table|json]

40 CFR 403.8(f)(2)(viii) for each facility × parameter × limit of the limits file, over
six-month windows: (A) chronic — 66 % or more of the measurements exceed the limit; (B)
technical review criteria — 33 % or more are at or above limit × 1.4 (BOD, TSS, fats, oil and
grease) or × 1.2 (other pollutants; never pH). Each result row is one measurement (a month's
average for a monthly-average limit). The windows are the calendar halves of the period, or
with --rolling (or the jurisdiction's snc.rolling_window) the six months ending at each quarter
end. --reports (columns facility, report, due, received) adds (F): a report received more than
45 days after its due date, or still missing on --as-of (default: the period's end).
(C), (D), (E), (G) and (H) are determinations of staff, recorded in the office.

Who the criteria apply to: (A), (B), (E), (F) and (G) make only a significant industrial user
(SIU) in significant noncompliance; (C), (D) and (H) any industrial user. The files carry no
SIU designation, so every facility in them is taken to be an SIU for the whole period, except
those named with --not-siu (found not significant, 40 CFR 403.3(v)(2), or never designated):
their results and reports are not judged, and the output says so. The office judges the
status day by day from its recorded designations (``sewer-use snc-office``).

The files are those of ``sewer-use check``; a results file with any row error is refused
(every error listed), since a measurement left out could change a determination.

Exit status: 0 no facility in SNC, 1 some, 2 unusable input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from .common import add_common, header, iso_date, jurisdiction
from .main import EXIT_FOUND, EXIT_OK, UsageError

if TYPE_CHECKING:  # polars and the rules load when the command runs (start-up, see main.py)
    from pathlib import Path

    import polars as pl

    from sewer_rules.evaluation.permit_limits import PermitLimits
    from sewer_rules.federal.snc_chronic_and_trc import Limit, Measurement
    from sewer_rules.federal.snc_determination import SNCReport
    from sewer_rules.federal.snc_late_reports import Report
    from sewer_rules.federal.snc_scope import Scope
    from sewer_rules.parameters import ParameterSet


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "snc",
        help="40 CFR 403.8(f)(2)(viii): industrial users in significant noncompliance",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("results", metavar="RESULTS.csv")
    p.add_argument("--limits", metavar="LIMITS.csv", required=True, help="the facilities' limits")
    p.add_argument("--period", required=True, help="2026H1, 2026, or 2026-01..2026-06")
    p.add_argument(
        "--rolling", action="store_true", help="rolling six months, judged at each quarter's end"
    )
    p.add_argument("--reports", metavar="REPORTS.csv", help="required reports: due and received")
    p.add_argument(
        "--as-of",
        dest="as_of",
        type=iso_date,
        metavar="DATE",
        help="day missing reports are judged",
    )
    p.add_argument(
        "--not-siu",
        dest="not_siu",
        action="append",
        default=[],
        metavar="CODE[,CODE]",
        help="facilities that are not significant industrial users over the period "
        "((A), (B), (F) not judged for them); every other facility is taken to be an SIU",
    )
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from sewer_io.check_io import UnusableFile, read_results
    from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
    from sewer_rules.federal.snc_determination import determine
    from sewer_rules.federal.snc_periods import PeriodError, parse_period
    from sewer_rules.federal.snc_scope import (
        ANY_USER,
        SIU_ONLY,
        split_measurements,
        split_reports,
    )
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    try:
        period = parse_period(args.period)
        limits = PermitLimits.from_csv(args.limits)
        raw = read_results(args.results)
    except (PeriodError, PermitLimitError, UnusableFile) as e:
        raise UsageError(str(e)) from None
    measurements = _measurements(args.results, raw, params)
    reports = _reports(Path(args.reports)) if args.reports else []
    all_limits = _limits(limits)
    scope, not_siu = _scope(args.not_siu, measurements, all_limits, reports)
    kept, left = split_measurements(measurements, scope)
    judged_reports, unjudged = split_reports(reports, scope)
    set_aside: dict[str, dict[str, object]] = {
        code: {
            "facility": code,
            "results_not_counted": sum(m.facility == code for m in left),
            "reports_not_judged": sum(r.facility == code for r in unjudged),
        }
        for code in not_siu
    }
    try:
        result = determine(
            kept,
            [lim for lim in all_limits if lim.facility not in not_siu],
            period,
            params,
            rolling=True if args.rolling else None,
            reports=judged_reports,
            as_of=args.as_of,
        )
    except (PeriodError, ParameterError) as e:
        raise UsageError(str(e)) from None
    not_siu_rows = [set_aside[c] for c in sorted(set_aside)]
    scope_out = {
        "citation": "40 CFR 403.8(f)(2)(viii)",
        "siu_only": sorted(SIU_ONLY),
        "any_user": sorted(ANY_USER),
        "taken_as_siu": "every facility of the files not named with --not-siu",
        "not_siu": not_siu_rows,
    }
    if args.format == "json":
        from .output import dump_json

        out = {"jurisdiction": params.jurisdiction, **result.as_dict(), "scope": scope_out}
        dump_json(out, sys.stdout)
    else:
        print(render(result, params, not_siu_rows))
    return EXIT_FOUND if result.found else EXIT_OK


def _scope(
    named: list[str], measurements: list[Measurement], limits: list[Limit], reports: list[Report]
) -> tuple[Scope, set[str]]:
    """Every facility of the files an SIU for the whole period, but those named not to be."""
    from sewer_rules.federal.snc_scope import Scope, always

    codes = {c.strip() for text in named for c in text.split(",") if c.strip()}
    known = {m.facility for m in measurements} | {lim.facility for lim in limits}
    known |= {r.facility for r in reports}
    unknown = sorted(codes - known)
    if unknown:
        raise UsageError(
            f"--not-siu: no facility {', '.join(unknown)} in the results, limits or reports files"
        )
    why = "named not a significant industrial user with --not-siu"
    return Scope({c: always(False, why) for c in codes}, always(True, "taken to be an SIU")), codes


def _measurements(source: str, raw: pl.DataFrame, params: ParameterSet) -> list[Measurement]:

    from sewer_engines.evaluation.engine import RULES
    from sewer_engines.evaluation.prepare import prepare

    names = sorted({r.parameter for r in RULES})
    prepared = prepare(raw, params.timezone, params.breakpoints(names)[0])
    if prepared.errors.height:
        lines = [
            f"{source}: row {row}: field '{field}': {message}"
            for row, field, message in prepared.errors.iter_rows()
        ]
        raise UsageError(
            "the results file has row errors; SNC is not determined on part of a file:\n"
            + "\n".join(lines)
        )
    from sewer_engines.federal.snc_inputs import measurements

    return measurements(prepared.rows)


def _limits(limits: PermitLimits) -> list[Limit]:
    from sewer_engines.federal import snc_inputs

    return snc_inputs.limits(limits)


def _reports(path: Path) -> list[Report]:
    import csv

    from sewer_rules.federal.snc_late_reports import Report

    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            records = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read the reports file: {e}") from None
    out, problems = [], []
    for i, rec in enumerate(records, start=2):
        rec = {(k or "").strip().lower(): (v or "").strip() for k, v in rec.items()}
        try:
            for col in ("facility", "report", "due"):
                if not rec.get(col):
                    raise ValueError(f"field '{col}': missing")
            due = _day(rec, "due")
            received = _day(rec, "received") if rec.get("received") else None
            out.append(Report(rec["facility"], rec["report"], due, received))
        except ValueError as e:
            problems.append(f"{path}: row {i}: {e}")
    if problems:
        raise UsageError("\n".join(problems))
    return out


def _day(rec: dict[str, str], col: str) -> date:
    try:
        return date.fromisoformat(rec[col])
    except ValueError:
        raise ValueError(f"field '{col}': bad date '{rec[col]}' (YYYY-MM-DD)") from None


def render(
    result: SNCReport, params: ParameterSet, not_siu: Sequence[dict[str, object]] = ()
) -> str:
    from sewer_rules.units import format_decimal

    lines = header("Significant noncompliance — 40 CFR 403.8(f)(2)(viii)", params)
    window = "rolling six months at each quarter's end" if result.rolling else "calendar halves"
    lines += ["", f"Period {result.period.start} to {result.period.end}; windows: {window}.", ""]
    rows = []
    for d in result.determinations:
        w = d.deciding
        trc_hits = w.trc_exceeding
        rows.append(
            (
                d.limit.facility,
                d.limit.analyte,
                d.limit.limit_type,
                f"{format_decimal(d.limit.value)} {d.limit.unit}",
                f"{w.window.start}..{w.window.end}",
                w.measurements,
                w.exceeding,
                "-" if trc_hits is None else trc_hits,
                "SNC " + ", ".join(d.criteria) if d.snc else "no",
            )
        )
    from .output import table

    heads = ("facility", "parameter", "limit type", "limit", "window", "n", "exceed", "≥TRC", "SNC")
    nothing = "(no limits of the limits file apply" + (" to an SIU)" if not_siu else ")")
    lines.append(table(heads, rows) if rows else nothing)
    if result.reports:
        lines += ["", "Reports (F: more than 45 days late):"]
        report_rows = [
            (r.report.facility, r.report.report, r.report.due, r.report.received or "missing",
             r.late_days, "SNC F" if r.snc else "no")
            for r in result.reports
        ]  # fmt: skip
        report_heads = ("facility", "report", "due", "received", "days late", "SNC")
        lines.append(table(report_heads, report_rows))
    facilities = result.as_dict()["facilities_in_snc"]
    assert isinstance(facilities, list)
    lines += [
        "",
        "In significant noncompliance: " + (", ".join(facilities) if facilities else "none"),
        "(C), (D), (E), (G), (H) are determined by staff and recorded in the office.",
        "",
        "Who the criteria apply to (40 CFR 403.8(f)(2)(viii)): (A), (B), (E), (F), (G) to "
        "significant industrial users only; (C), (D), (H) to any industrial user.",
        "Every facility in the files is taken to be a significant industrial user over the "
        "period" + (", except those named with --not-siu:" if not_siu else "."),
    ]
    for n in not_siu:
        lines.append(
            f"  {n['facility']}: not an SIU — {n['results_not_counted']} result(s) and "
            f"{n['reports_not_judged']} report(s) not judged under (A), (B), (F)"
        )
    return "\n".join(lines)
