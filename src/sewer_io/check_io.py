"""Reading a results file and writing an evaluation: the I/O around the pure engine.

Kept out of ``sewer_rules`` (which does no I/O) so that the engine stays pure; the office's
imports read files the same way through :func:`read_results`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import polars as pl

from sewer_engines.evaluation import Evaluation
from sewer_engines.evaluation.text import format_text
from sewer_rules.evaluation import REQUIRED_COLUMNS

from .lab_mapping import FileDoesNotFit, LabMapping, Mapped


class UnusableFile(Exception):
    """A file that cannot be evaluated at all (exit status 2); the message names file and column."""


def read_results(path: str | Path) -> pl.DataFrame:
    """The results file as text columns (names lower-cased) plus ``row`` (header = line 1)."""
    return frame_with_rows(read_text_table(path), str(path))


def read_text_table(path: str | Path) -> pl.DataFrame:
    """A CSV file as text columns, its header as written (no column required yet)."""
    p = Path(path)
    if not p.is_file():
        raise UnusableFile(f"{p}: no such file")
    try:
        return pl.read_csv(
            p,
            infer_schema=False,
            encoding="utf8",
            raise_if_empty=False,
        )
    except (pl.exceptions.PolarsError, OSError, UnicodeDecodeError) as e:
        raise UnusableFile(f"{p}: unreadable as CSV: {str(e).splitlines()[0]}") from None


def read_mapped(path: str | Path, mapping: LabMapping) -> Mapped:
    """A laboratory's own file read through its mapping (:mod:`sewer_io.lab_mapping`): the
    rows in the project's layout, numbered as the file's lines, and the rows it refuses."""
    return mapped_rows(read_text_table(path), str(path), mapping)


def mapped_rows(frame: pl.DataFrame, source: str, mapping: LabMapping) -> Mapped:
    """:meth:`LabMapping.read` with the file-level refusals of :func:`frame_with_rows`."""
    if not frame.columns or frame.columns == [""]:
        raise UnusableFile(f"{source}: empty file (no header)")
    try:
        mapped = mapping.read(frame, source)
    except FileDoesNotFit as e:
        raise UnusableFile(str(e)) from None
    if frame.height == 0:
        raise UnusableFile(f"{source}: empty file (a header but no rows)")
    return mapped


def with_row_errors(ev: Evaluation, errors: pl.DataFrame) -> Evaluation:
    """The evaluation with the rows a mapping refused among its errors, in row order."""
    if errors.height == 0:
        return ev
    merged = pl.concat([errors.cast(ev.errors.schema), ev.errors.select(errors.columns)])
    return replace(ev, errors=merged.sort("row", maintain_order=True))


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


#: The nested lists of a result, null (not yet filled) where the result has none.
NESTED = ("findings", "advisories")


def results_frame(ev: Evaluation) -> pl.DataFrame:
    """One row per evaluated result, with its findings and advisories nested, in contract order
    (a result without any has null there: :func:`write_json` writes it ``[]``)."""
    return ev.results.select(
        "row",
        "sample_id",
        pl.col("analyte").alias("parameter"),
        pl.col("value_text").alias("value"),
        pl.col("unit_symbol").alias("unit"),
        "status",
        *NESTED,
    )


#: Rows serialised at once: bounds the memory of the report to a few slices, not the array.
SLICE_ROWS = 250_000
#: Slices serialised at the same time (polars releases the interpreter while it serialises, and
#: its JSON encoder uses one core per call: two workers use both cores of a small machine).
WORKERS = 2


def _encoded(frame: pl.DataFrame, empty: tuple[str, ...] = ()) -> pl.DataFrame:
    """One column ``json``: each row of the frame as its JSON object, the list fields named in
    ``empty`` written ``[]`` when null.

    polars' ``struct.json_encode`` writes the objects its NDJSON writer writes, byte for byte
    (tests/test_check_json_writer.py), three times faster on nested rows and into a polars
    column: the report never becomes Python bytes (every copy of which was a fresh mapping of
    memory, faulted in page by page)."""
    filled = [pl.col(c).fill_null(pl.lit([], dtype=frame.schema[c])) for c in empty]
    return frame.with_columns(filled).select(pl.struct(pl.all()).struct.json_encode().alias("json"))


def _write_array(frame: pl.DataFrame, sink: BinaryIO, empty: tuple[str, ...] = ()) -> None:
    """A frame as a JSON array of objects, written into ``sink`` by polars.

    Each object is followed by a comma (``write_csv`` of the JSON texts, unquoted, a comma as
    line terminator: a JSON text never holds a raw newline or needs quoting), except the last.
    Slices of :data:`SLICE_ROWS` are encoded by :data:`WORKERS` threads, at most one slice ahead
    of each, and written in order: memory holds a few slices' texts, never the whole array.
    """
    sink.write(b"[")
    starts = range(0, frame.height, SLICE_ROWS)

    def piece(i: int) -> pl.DataFrame:
        return _encoded(frame.slice(starts[i], SLICE_ROWS), empty)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        pending = [pool.submit(piece, i) for i in range(min(WORKERS, len(starts)))]
        for n in range(len(starts)):
            texts = pending.pop(0).result()
            if n + WORKERS < len(starts):
                pending.append(pool.submit(piece, n + WORKERS))
            last = n == len(starts) - 1
            body = texts.head(texts.height - 1) if last else texts
            if body.height:
                # each text as it is, then a comma
                body.write_csv(sink, include_header=False, quote_style="never", line_terminator=",")
            if last:
                sink.write(texts.item(texts.height - 1, 0).encode())
            del texts, body
    sink.write(b"]")


def json_array(frame: pl.DataFrame, empty: tuple[str, ...] = ()) -> bytes:
    """The bytes :func:`write_json` writes for one of its arrays."""
    buf = io.BytesIO()
    _write_array(frame, buf, empty)
    return buf.getvalue()


def write_json(ev: Evaluation, jurisdiction: str, out: TextIO) -> None:
    """The ``--format json`` document, written as bytes straight from polars."""
    head = {"jurisdiction": jurisdiction, "parameters_version": ev.parameters_version}
    samples = ev.samples.select(
        pl.col("sample_id"), pl.struct("cooling_water", "unpolluted_water").alias("classifications")
    )
    sink: BinaryIO | None = getattr(out, "buffer", None)
    if sink is None:  # a text stream without bytes beneath (a StringIO): written as text
        buf = io.BytesIO()
        _write_document(ev, head, samples, buf)
        out.write(buf.getvalue().decode())
        return
    out.flush()
    _write_document(ev, head, samples, sink)
    sink.flush()


def _write_document(
    ev: Evaluation, head: dict[str, str], samples: pl.DataFrame, sink: BinaryIO
) -> None:
    sink.write(json.dumps(head, ensure_ascii=False)[:-1].encode() + b', "results": ')
    _write_array(results_frame(ev), sink, NESTED)
    sections = [("samples", samples)]
    if ev.monthly.height:
        sections.append(("monthly", ev.monthly))
    sections.append(("errors", ev.errors.select("row", "field", "message")))
    for name, frame in sections:
        sink.write(f', "{name}": '.encode())
        _write_array(frame, sink)
    sink.write(b"}\n")


def summary_frame(ev: Evaluation) -> pl.DataFrame:
    """One line per evaluated row with its citations and messages joined (CSV and table).

    Read from each result's nested findings and advisories (in the engine's order: by
    severity), so no grouping or join over the long forms is needed; results are in row order.
    """
    item = pl.element().struct.field
    results = ev.results

    def joined(column: str, text: pl.Expr, name: str) -> pl.Series:
        # A row's one text is that text: only the rows of several are joined (list.join is
        # the slow step, and most rows have no finding or one).
        texts = results.select(pl.col(column).list.eval(text)).to_series()
        out = texts.list.first().fill_null("").alias(name)
        several = (texts.list.len() > 1).arg_true()
        if several.len():
            out = out.scatter(several, texts.gather(several).list.join("; "))
        return out

    frame = results.select(
        "row",
        "sample_id",
        pl.col("facility").fill_null(""),
        pl.col("analyte").alias("parameter"),
        pl.col("value_text").alias("value"),
        pl.col("unit_symbol").alias("unit"),
        "status",
    ).with_columns(
        joined("findings", item("citation"), "citations"),
        joined("findings", item("message"), "messages"),
        joined("advisories", format_text("{}: {}", item("code"), item("message")), "advisories"),
    )
    return frame if frame.get_column("row").is_sorted() else frame.sort("row")


def text_table(frame: pl.DataFrame) -> pl.Series:
    """The lines of :func:`sewer_cli.output.table` for a frame, built column-wise by polars.

    The same layout (header, dashes, cells left-aligned to each column's width, two spaces
    between, trailing spaces dropped) without a Python loop over a million rows.
    """
    cells = frame.select(pl.col(c).cast(pl.String).fill_null("") for c in frame.columns)
    longest = cells.select(pl.all().str.len_chars().max().fill_null(0).cast(pl.Int64)).row(0)
    widths: list[int] = [max(len(c), int(n)) for c, n in zip(frame.columns, longest, strict=True)]
    head = "  ".join(c.ljust(w) for c, w in zip(frame.columns, widths, strict=True)).rstrip()
    rule = "  ".join("-" * w for w in widths)
    # the last column is not padded: its trailing spaces would be stripped again
    padded = [pl.col(c).str.pad_end(w) for c, w in zip(frame.columns[:-1], widths, strict=False)]
    line = (
        pl.concat_str([*padded, pl.col(frame.columns[-1])], separator="  ")
        .str.strip_chars_end()
        .alias("line")
    )
    return pl.concat([pl.Series("line", [head, rule]), *in_slices(cells, line)], rechunk=False)


def in_slices(frame: pl.DataFrame, expr: pl.Expr) -> list[pl.Series]:
    """``frame.select(expr)`` (one column), worked as :data:`WORKERS` slices of rows at once.

    polars works one string expression over one column on one core; the slices of a large
    report are independent, so they are worked side by side (a frame of at most
    :data:`SLICE_ROWS` rows is one slice)."""
    size = max(SLICE_ROWS, -(-frame.height // WORKERS))
    queries = [
        frame.lazy().slice(start, size).select(expr) for start in range(0, frame.height, size)
    ]
    if len(queries) <= 1:
        return [frame.select(expr).to_series()]
    return [part.to_series() for part in pl.collect_all(queries)]


def write_lines(parts: Iterable[pl.Series], out: TextIO) -> None:
    """Each line of each part and a newline, written as bytes by polars, part after part: no
    Python string of a report that may be a hundred megabytes (it would be built, copied and
    encoded again), and no copy of the parts into one column. Null lines are left out. Given a
    generator, each part is freed once written."""
    options: dict[str, Any] = {
        "include_header": False,
        "quote_style": "never",
        "line_terminator": "\n",
    }
    sink = getattr(out, "buffer", None)
    out.flush()
    for lines in parts:
        frame = (lines.drop_nulls() if lines.null_count() else lines).to_frame("line")
        del lines  # a part is freed once written, before the next is built (a generator's)
        if frame.height:
            if sink is not None:
                frame.write_csv(sink, **options)
            else:
                out.write(frame.write_csv(**options))
        del frame
    if sink is not None:
        sink.flush()


def labelled_lines(frame: pl.DataFrame, template: str, *columns: str) -> pl.Series:
    """One line per row of ``frame``: ``template`` with its ``{}`` filled by ``columns``."""
    return pl.concat(in_slices(frame, format_text(template, *columns).alias("line")), rechunk=False)


def write_csv_report(ev: Evaluation, out: TextIO) -> None:
    """The ``--format csv`` report: one line per evaluated row, then one per row error."""
    summary = summary_frame(ev)
    errors = ev.errors.select(
        pl.col("row"),
        *[pl.lit("").alias(c) for c in summary.columns[1:6]],
        pl.lit("error").alias("status"),
        pl.lit("").alias("citations"),
        format_text("{}: {}", "field", "message").alias("messages"),
        pl.lit("").alias("advisories"),
    )
    frame = pl.concat([summary, errors.cast(summary.schema)])
    # Empty cells as null: polars quotes an empty string ("") where the csv module writes nothing.
    frame = frame.with_columns(pl.col(pl.String).replace("", None))
    sink = getattr(out, "buffer", None)
    out.flush()
    if sink is not None:
        frame.write_csv(sink, line_terminator="\n")
        sink.flush()
    else:
        out.write(frame.write_csv(line_terminator="\n"))
