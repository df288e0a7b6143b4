"""``sewer-use check RESULTS.csv`` — a laboratory's results against the law and permit limits.

Exit status: 0 when every row was evaluated and nothing is prohibited or reviewable; 1 when
something is, or when a row is in ``errors``; 2 for an unusable file.
"""

from __future__ import annotations

import argparse
import csv

import polars as pl

from sewer_io.check_io import UnusableFile, read_results, summary_frame, write_json
from sewer_rules.evaluation import Evaluation, evaluate_table
from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
from sewer_rules.parameters import ParameterSet

from .common import jurisdiction
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import destination, table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        help="evaluate laboratory results against the ordinance and permit limits",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("results", metavar="RESULTS.csv")
    p.add_argument("--limits", metavar="LIMITS.csv", help="a facility's permit limits")
    p.add_argument(
        "--jurisdiction", default="wappinger", help="wappinger, demo, or a parameters.yaml path"
    )
    p.add_argument("--format", choices=("table", "json", "csv"), default="table")
    p.add_argument("--output", metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    params = jurisdiction(args.jurisdiction)
    try:
        limits = PermitLimits.from_csv(args.limits) if args.limits else None
    except PermitLimitError as e:
        raise UsageError(str(e)) from None
    try:
        raw = read_results(args.results)
    except UnusableFile as e:
        raise UsageError(str(e)) from None
    ev = evaluate_table(raw, params, limits)
    with destination(args.output) as out:
        if args.format == "json":
            write_json(ev, params.jurisdiction, out)
        elif args.format == "csv":
            summary = summary_frame(ev)
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(summary.columns)
            writer.writerows(summary.iter_rows())
            for row, field, message in ev.errors.iter_rows():
                writer.writerow([row, "", "", "", "", "", "error", "", f"{field}: {message}", ""])
        else:
            out.write(render_table(ev, params) + "\n")
    return EXIT_FOUND if ev.has_violation or ev.errors.height else EXIT_OK


def render_table(ev: Evaluation, params: ParameterSet) -> str:
    """The human report: results with findings, samples, monthly averages, errors, totals."""
    summary = summary_frame(ev)
    lines = [f"Jurisdiction: {params.name} (parameters {params.version})"]
    if params.notice:
        lines.append(f"NOTE: {params.notice}")
    cols = ["row", "sample_id", "parameter", "value", "unit", "status", "citations"]
    lines += ["", table(cols, summary.select(cols).rows())]
    detail = summary.filter(pl.col("messages") != "")
    if detail.height:
        lines += ["", "Findings:"]
        lines += [f"  row {r}: {m}" for r, m in detail.select("row", "messages").iter_rows()]
    adv = summary.filter(pl.col("advisories") != "")
    if adv.height:
        lines += ["", "Advisories:"]
        lines += [f"  row {r}: {m}" for r, m in adv.select("row", "advisories").iter_rows()]
    if ev.samples.height:
        lines += ["", "Samples (§ 196-15 COOLING WATER, UNPOLLUTED WATER OR WASTE):"]
        rows = [
            (s, _yn(cw), _yn(uw))
            for s, cw, uw in ev.samples.select(
                "sample_id", "cooling_water", "unpolluted_water"
            ).iter_rows()
        ]
        lines.append(table(["sample_id", "cooling_water", "unpolluted_water"], rows))
    if ev.monthly.height:
        lines += ["", "Monthly averages (permit limits):"]
        mcols = [
            "facility",
            "parameter",
            "month",
            "days_measured",
            "average",
            "limit",
            "limit_unit",
            "status",
        ]
        lines.append(table(mcols, ev.monthly.select(mcols).rows()))
    if ev.errors.height:
        lines += ["", "Errors (rows not evaluated):"]
        lines += [f"  row {r}, field {f}: {m}" for r, f, m in ev.errors.iter_rows()]
    counts = summary.group_by("status").len().sort("status")
    tally = ", ".join(f"{n} {s}" for s, n in counts.iter_rows())
    lines += [
        "",
        f"{summary.height} result(s) evaluated: {tally or 'none'}; {ev.errors.height} row error(s).",
    ]
    return "\n".join(lines)


def _yn(v: bool | None) -> str:
    return "unknown" if v is None else ("yes" if v else "no")
