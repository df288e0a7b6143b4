"""Reading a results file and writing an evaluation: the I/O around the pure engine.

Kept out of ``sewer_rules`` (which does no I/O) so that the engine stays pure; the office's
imports read files the same way through :func:`read_results`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

import polars as pl

from sewer_rules.evaluation import REQUIRED_COLUMNS, Evaluation

FINDING_FIELDS = ("status", "citation", "limit", "limit_unit", "message")
ADVISORY_FIELDS = ("code", "citation", "message")


class UnusableFile(Exception):
    """A file that cannot be evaluated at all (exit status 2); the message names file and column."""


def read_results(path: str | Path) -> pl.DataFrame:
    """The results file as text columns (names lower-cased) plus ``row`` (header = line 1)."""
    p = Path(path)
    if not p.is_file():
        raise UnusableFile(f"{p}: no such file")
    try:
        frame = pl.read_csv(
            p,
            infer_schema=False,
            encoding="utf8",
            raise_if_empty=False,
        )
    except (pl.exceptions.PolarsError, OSError, UnicodeDecodeError) as e:
        raise UnusableFile(f"{p}: unreadable as CSV: {str(e).splitlines()[0]}") from None
    return frame_with_rows(frame, str(p))


def frame_with_rows(frame: pl.DataFrame, source: str) -> pl.DataFrame:
    """Check the required columns and number the rows (header = 1)."""
    if not frame.columns or frame.columns == [""]:
        raise UnusableFile(f"{source}: empty file (no header)")
    lowered = {c: c.strip().lower().lstrip("\ufeff") for c in frame.columns}
    if len(set(lowered.values())) != len(lowered):
        raise UnusableFile(f"{source}: a column appears twice in the header")
    frame = frame.rename(lowered)
    for col in REQUIRED_COLUMNS:
        if col not in frame.columns:
            raise UnusableFile(f"{source}: missing required column '{col}'")
    if frame.height == 0:
        raise UnusableFile(f"{source}: empty file (a header but no rows)")
    return frame.with_row_index("row", offset=2).with_columns(pl.col("row").cast(pl.Int64))


def _grouped(long: pl.DataFrame, fields: tuple[str, ...], name: str) -> pl.DataFrame:
    return long.group_by("row", maintain_order=True).agg(pl.struct(list(fields)).alias(name))


def result_lines(ev: Evaluation) -> pl.Series:
    """One JSON object per evaluated row, in the contract's field order."""
    findings = _grouped(ev.findings, FINDING_FIELDS, "findings")
    advisories = _grouped(ev.advisories, ADVISORY_FIELDS, "advisories")
    f_type = findings.schema["findings"]
    a_type = advisories.schema["advisories"]
    frame = (
        ev.results.select("row", "sample_id", "analyte", "value_text", "unit_symbol", "status")
        .join(findings, on="row", how="left")
        .join(advisories, on="row", how="left")
        .sort("row")
    )
    return frame.select(
        pl.struct(
            pl.col("row"),
            pl.col("sample_id"),
            pl.col("analyte").alias("parameter"),
            pl.col("value_text").alias("value"),
            pl.col("unit_symbol").alias("unit"),
            pl.col("status"),
            pl.col("findings").fill_null(pl.lit([], dtype=f_type)),
            pl.col("advisories").fill_null(pl.lit([], dtype=a_type)),
        )
        .struct.json_encode()
        .alias("json")
    ).get_column("json")


def _join_lines(series: pl.Series) -> str:
    if series.len() == 0:
        return ""
    return "\n  " + pl.select(series.str.join(",\n  ")).item() + "\n"


def write_json(ev: Evaluation, jurisdiction: str, out: TextIO) -> None:
    samples = ev.samples.select(
        pl.struct(
            pl.col("sample_id"),
            pl.struct("cooling_water", "unpolluted_water").alias("classifications"),
        ).struct.json_encode()
    ).to_series()
    errors = ev.errors.select(pl.struct("row", "field", "message").struct.json_encode()).to_series()
    head = {"jurisdiction": jurisdiction, "parameters_version": ev.parameters_version}
    out.write(json.dumps(head, ensure_ascii=False)[:-1])
    out.write(', "results": [')
    out.write(_join_lines(result_lines(ev)))
    out.write('], "samples": [')
    out.write(_join_lines(samples))
    out.write("]")
    if ev.monthly.height:
        monthly = ev.monthly.select(pl.struct(pl.all()).struct.json_encode()).to_series()
        out.write(', "monthly": [')
        out.write(_join_lines(monthly))
        out.write("]")
    out.write(', "errors": [')
    out.write(_join_lines(errors))
    out.write("]}\n")


def summary_frame(ev: Evaluation) -> pl.DataFrame:
    """One line per evaluated row with its citations and messages joined (CSV and table)."""
    f = ev.findings.group_by("row", maintain_order=True).agg(
        pl.col("citation").str.join("; ").alias("citations"),
        pl.col("message").str.join("; ").alias("messages"),
    )
    a = ev.advisories.group_by("row", maintain_order=True).agg(
        pl.format("{}: {}", pl.col("code"), pl.col("message")).str.join("; ").alias("advisories")
    )
    return (
        ev.results.join(f, on="row", how="left")
        .join(a, on="row", how="left")
        .sort("row")
        .select(
            "row",
            "sample_id",
            pl.col("facility").fill_null(""),
            pl.col("analyte").alias("parameter"),
            pl.col("value_text").alias("value"),
            pl.col("unit_symbol").alias("unit"),
            "status",
            pl.col("citations").fill_null(""),
            pl.col("messages").fill_null(""),
            pl.col("advisories").fill_null(""),
        )
    )
