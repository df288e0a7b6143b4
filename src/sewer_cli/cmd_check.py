"""``sewer-use check RESULTS.csv`` — a laboratory's results against the law and permit limits.

``--mapping NAME`` reads a laboratory's own layout (its EDD) through a mapping: a preset, a
mapping file or a mapping saved in the office (docs/laboratory-files.md); the rows the mapping
refuses are listed among the row errors, by the file's row numbers.

Exit status: 0 when every row was evaluated and nothing is prohibited or reviewable; 1 when
something is, or when a row is in ``errors``; 2 for an unusable file.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import allocator, mapping_arg
from .common import jurisdiction
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import destination

if TYPE_CHECKING:  # polars and the rules load when the command runs (start-up, see main.py)
    import polars as pl

    from sewer_engines.evaluation import Evaluation
    from sewer_rules.parameters import ParameterSet


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
    mapping_arg.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    allocator.for_columns()
    from sewer_engines.evaluation import evaluate_table
    from sewer_io.check_io import (
        UnusableFile,
        read_mapped,
        read_results,
        with_row_errors,
        write_csv_report,
        write_json,
        write_lines,
    )
    from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits

    params = jurisdiction(args.jurisdiction)
    mapping = mapping_arg.mapping_of(args)
    try:
        limits = PermitLimits.from_csv(args.limits) if args.limits else None
    except PermitLimitError as e:
        raise UsageError(str(e)) from None
    refused: list[pl.DataFrame] = []  # the rows the mapping refused

    def results() -> pl.DataFrame:
        try:
            if mapping is None:
                return read_results(args.results)
            mapped = read_mapped(args.results, mapping)
        except UnusableFile as e:
            raise UsageError(str(e)) from None
        refused.append(mapped.errors)
        return mapped.frame

    # The table is passed without a name here, so the engine frees the text once validated.
    ev = evaluate_table(results(), params, limits)
    if refused:
        ev = with_row_errors(ev, refused[0])
    with destination(args.output) as out:
        if args.format == "json":
            write_json(ev, params.jurisdiction, out)
        elif args.format == "csv":
            write_csv_report(ev, out)
        else:
            write_lines(table_lines(ev, params), out)
    return EXIT_FOUND if ev.has_violation or ev.errors.height else EXIT_OK


def table_lines(ev: Evaluation, params: ParameterSet) -> Iterator[pl.Series]:
    """The human report's lines, section by section: results with findings, samples, monthly
    averages, errors, totals.

    Every section is built column-wise by polars (a report may have a million lines), and
    written by polars as bytes (:func:`sewer_io.check_io.write_lines`) as it comes: a section
    is written, and its lines freed, before the next is built."""
    import polars as pl

    from sewer_io.check_io import labelled_lines, summary_frame, text_table

    summary = summary_frame(ev)
    head = [f"Jurisdiction: {params.name} (parameters {params.version})"]
    if params.notice:
        head.append(f"NOTE: {params.notice}")
    yield pl.Series("line", [*head, ""])

    def section(title: str, lines: pl.Series) -> Iterator[pl.Series]:
        if lines.len():
            yield pl.Series("line", ["", title])
            yield lines

    cols = ["row", "sample_id", "parameter", "value", "unit", "status", "citations"]
    yield text_table(summary.select(cols))
    detail = summary.filter(pl.col("messages") != "")
    yield from section("Findings:", labelled_lines(detail, "  row {}: {}", "row", "messages"))
    del detail
    adv = summary.filter(pl.col("advisories") != "")
    yield from section("Advisories:", labelled_lines(adv, "  row {}: {}", "row", "advisories"))
    del adv
    if ev.samples.height:
        samples = ev.samples.select("sample_id", _yn("cooling_water"), _yn("unpolluted_water"))
        yield from section(
            "Samples (§ 196-15 COOLING WATER, UNPOLLUTED WATER OR WASTE):", text_table(samples)
        )
        del samples
    if ev.monthly.height:
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
        yield from section(
            "Monthly averages (permit limits):", text_table(ev.monthly.select(mcols))
        )
    yield from section(
        "Errors (rows not evaluated):",
        labelled_lines(ev.errors, "  row {}, field {}: {}", "row", "field", "message"),
    )
    counts = summary.group_by("status").len().sort("status")
    tally = ", ".join(f"{n} {s}" for s, n in counts.iter_rows())
    total = (
        f"{summary.height} result(s) evaluated: {tally or 'none'}; {ev.errors.height} row error(s)."
    )
    yield pl.Series("line", ["", total])


def _yn(column: str) -> pl.Expr:
    import polars as pl

    value = pl.col(column)
    return (
        pl.when(value.is_null())
        .then(pl.lit("unknown"))
        .when(value)
        .then(pl.lit("yes"))
        .otherwise(pl.lit("no"))
        .alias(column)
    )
