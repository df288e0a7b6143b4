"""Reading a meter file: lazily, meter by meter, with the hygiene the law's arithmetic needs.

The rules take the file as a polars frame: :mod:`sewer_io.readings` opens it (CSV or
Parquet, lazily), splits a large one and hands the rows to :class:`SeriesSource`; everything
else — columns, times, exact values, units, duplicates, row errors — is this package's.
Columns ``timestamp`` and ``value`` are required; ``meter``, ``parameter`` and ``unit`` are
optional (one meter ``default``, parameter ``flow``, the parameter's canonical unit). Header
names are matched without regard to case or surrounding spaces.

This module groups the rows by meter and parameter and builds the series; the steps before
are their own modules: :mod:`.columns` (the header), :mod:`.time_column` and
:mod:`.value_column` (each cell checked), :mod:`.compact_rows` (the checked rows, on a short
path for the usual export), :mod:`.row_errors` (what a row error says),
:mod:`.scaled_values` and :mod:`.series_builder` (a series' exact values, units and
duplicates).

This is the general reader. A historian's export (``timestamp,value``, every time with its
offset, every value a plain decimal, the times increasing) may be read by the compiled reader
instead (:mod:`.native`, opened by :mod:`sewer_io.historian`): it takes only the files this
reader reads without a remark, and gives the same series (the tests compare them).

Hygiene, as the issue and docs/interpretations.md set it:

- Times with an offset (``2026-03-08T03:00:00-04:00``, ``...Z``) are absolute. Times without
  one are town time (the jurisdiction's zone, America/New_York). A naive time that never
  happened (inside the hour skipped in March, ``2026-03-08T02:30``) is a row error that says
  it does not exist that day and shows it with the offset in force before the change; one
  that happened twice (the hour repeated in November) is a row error asking for the offset,
  and showing the time with the offset of each occurrence (``-04:00`` the first time, ``-05:00``
  the second). It is not guessed from the order of the rows: a file merged or sorted by its
  clock text has the two hours interleaved, and a reading put an hour off would lengthen,
  shorten or split a slug, whose 15 minutes the law counts.
  Neither is "not a timestamp": both are valid ISO 8601. Accepted layouts are ISO 8601 date
  and time, ``T`` or a space between them, with or without seconds and fractions; the layouts
  a file uses are taken from its first 1,000 timestamps (as a spreadsheet would), and a later
  row in another layout is a row error.
- Values are read as the decimals written, never through a binary float, whatever the
  number of digits: ``12.30`` is exactly twelve point three and ``190.95000000000002`` (a
  float exported by a historian) exactly that decimal. Each series is scaled by the most
  decimal places any of its values needs; the scaled values are int64 when they fit, else
  Python integers (:mod:`.series`). A Parquet column of binary floats is read as the
  shortest decimal that gives back the same float (Python's ``repr``). Empty cells and the
  words NA, N/A, NaN, null, none are *missing* values: the reading is a gap, not an error.
  Any other text is a row error (``inf`` too: it is not a finite number), and so is a number
  beyond :data:`.value_column.MAX_DIGITS` digits or
  :data:`.value_column.MAX_DECIMALS` decimal places (more than any
  binary float needs).
- Unknown parameter names or units, and units that do not measure the parameter, are row
  errors; so is a blank meter or parameter cell (a reading of unknown origin), while a blank
  unit cell is the parameter's canonical unit. Mixed units for one series are converted exactly to the parameter's canonical unit
  through :mod:`sewer_rules.units`; a series written in one unit keeps it.
- Readings are sorted by time if needed. Two readings of one series at the same instant are
  an error naming the first of them, unless ``dedupe`` says to keep the ``first`` or the
  ``last`` (in file order) or the ``mean`` (exact where it terminates within three more
  decimal places, else rounded half-even to that precision); the number merged is reported.

Row numbers are those a spreadsheet shows: the header is row 1, the first reading row 2.

Memory: polars scans the file lazily into a compact form (about 40 bytes a reading). A small
file is held whole; a large one is first split by :mod:`sewer_io.readings`, in one streaming
pass, into one Parquet file per meter and parameter in a temporary folder, and the series are
then read and judged one at a time, so that resident memory follows the largest single
series, not the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl

from sewer_rules.analytes import SPELLINGS, normalize_spelling

from .compact_rows import ERROR
from .row_errors import row_error_message
from .series import Series
from .series_builder import SeriesBuilder
from .source import ReadOptions, RowError, Source


def _by_series(df: pl.DataFrame) -> dict[tuple[Any, ...], pl.DataFrame]:
    """The rows of each meter and parameter as written; a file of one meter and one
    parameter (the usual export) is not copied.

    Compared by expressions, not as columns taken out of the frame: a meter or parameter the
    file does not have is one value broadcast over the rows, which taking the column would
    write out row by row. A blank cell (null) is a parameter of its own, never the first
    row's (it is then a row error, wherever it stands)."""
    m0, p0 = df.select(pl.col("meter").first(), pl.col("parameter").first()).row(0)
    if m0 is not None and p0 is not None:
        same = (pl.col("meter").eq_missing(m0) & pl.col("parameter").eq_missing(p0)).all()
        if df.select(same).item():
            return {(m0, p0): df}
    return df.partition_by(["meter", "parameter"], as_dict=True, maintain_order=True)


class SeriesSource(Source):
    """Rows of a readings source turned into series, one meter and parameter at a time (the
    general reader).

    The reading itself (a file, its size, the temporary split of a large one) is
    :class:`sewer_io.readings.Readings`, which hands the rows here as frames.
    """

    def __init__(self, source: str | Path, options: ReadOptions | None = None) -> None:
        super().__init__(source, options)
        self._builder = SeriesBuilder(self.path, self.options)

    def _note_errors(self, df: pl.DataFrame) -> None:
        bad = df.filter(pl.col("state") == ERROR)
        if bad.height == 0:
            return
        first = bad.sort("row").head(self.options.max_errors)
        found = [
            RowError(int(r), *self._message(int(c), raw))
            for r, c, raw in zip(first["row"], first["code"], first["raw"], strict=True)
        ]
        self._add_errors(found, bad.height)

    def _resolve(self, df: pl.DataFrame) -> dict[tuple[str, str], list[pl.DataFrame]]:
        """Group rows by meter and parameter, spellings of one parameter together; rows whose
        parameter is missing or unknown are row errors."""
        self._note_errors(df)
        good = df.filter(pl.col("state") != ERROR)
        groups: dict[tuple[str, str], list[pl.DataFrame]] = {}
        if good.height == 0:
            return groups
        parts = _by_series(good)
        for (meter, raw), part in parts.items():
            text = "" if raw is None else str(raw)
            name = SPELLINGS.get(normalize_spelling(text)) if text else None
            if name is None:
                code = 6 if text else 5
                rows = part["row"].head(self.options.max_errors).to_list()
                found = [RowError(int(r), *self._message(code, text)) for r in rows]
                self._add_errors(found, part.height)
                continue
            groups.setdefault((str(meter), name), []).append(part)
        return groups

    def _message(self, code: int, raw: str | None) -> tuple[str, str]:
        return row_error_message(code, raw, self.options.timezone)

    def _build(self, groups: dict[tuple[str, str], list[pl.DataFrame]]) -> Iterator[Series]:
        for (meter, name), parts in sorted(groups.items()):
            frame = parts[0] if len(parts) == 1 else pl.concat(parts)
            series, errors = self._builder.build(meter, name, frame)
            self._add_errors(errors, len(errors))
            if series is not None:
                yield series

    def series_of(self, rows: pl.DataFrame) -> Iterator[Series]:
        """The series of compact ``rows`` (:mod:`.compact_rows`), sorted by meter then parameter."""
        yield from self._build(self._resolve(rows))

    @staticmethod
    def spelled(raw: str) -> str:
        """The analyte a parameter spelling stands for, or a key of its own (sorted last) for
        a spelling that names none: how a split file's parts are grouped."""
        return SPELLINGS.get(normalize_spelling(raw)) or f"\x00{raw}"


def canonical_parameter(text: str) -> str:
    """The analyte name a ``--parameter`` spelling stands for (KeyError if none)."""
    return SPELLINGS[normalize_spelling(text)]
