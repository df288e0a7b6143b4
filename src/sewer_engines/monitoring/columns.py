"""The columns of a readings frame: which the reader knows, as the file names them.

Columns ``timestamp`` and ``value`` are required; ``meter``, ``parameter`` and ``unit`` are
optional. Header names are matched without regard to case or surrounding spaces, so that a
spreadsheet's ``Timestamp `` is the timestamp column; a column named twice so is refused, as
is a file without a required column, before any row is read.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sewer_rules.hostile import shorten

from .source import ReadingsError, first_line

REQUIRED = ("timestamp", "value")
OPTIONAL = ("meter", "parameter", "unit")


def check_columns(path: Path, lf: pl.LazyFrame) -> dict[str, tuple[str, pl.DataType]]:
    """Map each known column (lower-cased) to the file's own name and type, checked at once
    (a missing or doubled column is refused before any row is read), for a reader that builds
    the rest of its query later."""
    try:
        schema = lf.collect_schema()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None
    found: dict[str, tuple[str, pl.DataType]] = {}
    for name, dtype in schema.items():
        key = name.strip().lower()
        if key in found:
            raise ReadingsError(f"{path}: column {key!r} appears twice")
        found[key] = (name, dtype)
    for need in REQUIRED:
        if need not in found:
            have = shorten(", ".join(shorten(repr(n)) for n in schema.names()[:20]), 400)
            raise ReadingsError(f"{path}: no column {need!r} (columns: {have})")
    return found


def column_text(name: str, dtype: pl.DataType) -> pl.Expr:
    """The column's cells as text, stripped (a number or a date the file typed is cast)."""
    col = pl.col(name)
    return (col if dtype == pl.String else col.cast(pl.String)).str.strip_chars()


def lf_collect(path: Path, lf: pl.LazyFrame) -> pl.DataFrame:
    """The rows of ``lf``; a file polars cannot read is a :class:`ReadingsError` naming
    it."""
    try:
        return lf.collect()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None
