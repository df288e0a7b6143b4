"""Reading a results file and writing an evaluation: the I/O around the pure engine.

Kept out of ``sewer_rules`` (which does no I/O) so that the engine stays pure; the office's
imports read files the same way through :func:`read_results`.
"""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

import polars as pl

from sewer_rules.evaluation import REQUIRED_COLUMNS, Evaluation


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


def results_frame(ev: Evaluation) -> pl.DataFrame:
    """One row per evaluated result, with its findings and advisories nested, in contract order."""
    findings = ev.results.schema["findings"]
    advisories = ev.results.schema["advisories"]
    return ev.results.select(
        "row",
        "sample_id",
        pl.col("analyte").alias("parameter"),
        pl.col("value_text").alias("value"),
        pl.col("unit_symbol").alias("unit"),
        "status",
        pl.col("findings").fill_null(pl.lit([], dtype=findings)),
        pl.col("advisories").fill_null(pl.lit([], dtype=advisories)),
    )


def _json(frame: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.write_json(buf)
    return buf.getvalue()


def _json_array(frame: pl.DataFrame) -> list[bytes | memoryview]:
    """A frame as a JSON array of objects (polars' JSON writer), as pieces to write in turn.

    The array is hundreds of megabytes for a million results: large frames are serialised in
    two halves at once (polars releases the interpreter while it writes) and the halves are
    joined without copying, ``[a, b]`` + ``[c, d]`` → ``[a, b,`` ``c, d]``.
    """
    if frame.height < 100_000:
        return [_json(frame)]
    half = frame.height // 2
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(_json, [frame.slice(0, half), frame.slice(half)])
    return [memoryview(first)[:-1], b",", memoryview(second)[1:]]


def _seekable(sink: Any) -> bool:
    try:
        return bool(sink.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _write_results_direct(frame: pl.DataFrame, sink: BinaryIO) -> None:
    """The results array written straight into a seekable file: the first half by polars'
    writer into the file while the second half is serialised beside it, then the first half's
    closing bracket overwritten by a comma and the second half appended without its opening
    one — no copy of the first half in memory."""
    half = frame.height // 2
    with ThreadPoolExecutor(max_workers=1) as pool:
        second = pool.submit(_json, frame.slice(half))
        frame.slice(0, half).write_json(cast(io.IOBase, sink))
        sink.seek(-1, io.SEEK_CUR)
        sink.write(b",")
        sink.write(memoryview(second.result())[1:])


def write_json(ev: Evaluation, jurisdiction: str, out: TextIO) -> None:
    """The ``--format json`` document, written as bytes straight from polars."""
    head = {"jurisdiction": jurisdiction, "parameters_version": ev.parameters_version}
    samples = ev.samples.select(
        pl.col("sample_id"), pl.struct("cooling_water", "unpolluted_water").alias("classifications")
    )
    parts: list[bytes | memoryview] = [
        json.dumps(head, ensure_ascii=False)[:-1].encode(),
        b', "results": ',
    ]
    results = results_frame(ev)
    sink = getattr(out, "buffer", None)
    if sink is not None and results.height >= 100_000 and _seekable(sink):
        out.flush()
        for part in parts:
            sink.write(part)
        _write_results_direct(results, sink)
        parts = []
    else:
        parts += _json_array(results)
    parts += [b', "samples": ', *_json_array(samples)]
    if ev.monthly.height:
        parts += [b', "monthly": ', *_json_array(ev.monthly)]
    parts += [b', "errors": ', *_json_array(ev.errors.select("row", "field", "message")), b"}\n"]
    out.flush()
    sink = getattr(out, "buffer", None)
    for part in parts:
        if sink is not None:
            sink.write(part)
        else:
            out.write(bytes(part).decode())
    if sink is not None:
        sink.flush()


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
        ev.results.drop("findings", "advisories")
        .join(f, on="row", how="left")
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
