"""The timestamp column of a meter file, read as instants (µs UTC) and row error codes.

Times with an offset are absolute; times without one are town time, and a naive time the
clocks skipped (code 3) or repeated (code 13) is a row error, never guessed (the readings'
hygiene: :mod:`.readings`). Accepted layouts are ISO 8601, ``T`` or a space between date and
time, with or without seconds and fractions; the layouts a file uses are taken from its first
:data:`SAMPLE` timestamps (as a spreadsheet would), and a later row in another layout is a row
error (code 2). The two layouts meters and historians write, ``YYYY-MM-DDTHH:MM:SS±HH:MM`` and
``YYYY-MM-DDTHH:MM:SS``, take polars' fast parser plus slicing (:data:`FAST`); the others,
polars' general one. A column the file already typed as datetimes (Parquet) is converted,
not parsed.

The result is polars expressions, in two stages so that each helper column is computed once a
row; :func:`.compact_rows.compact` places them in its query.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from .source import ReadingsError, first_line

SAMPLE = 1000
_OFFSET = r"[+-]\d{2}:?\d{2}$"
_AWARE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M%z")
_NAIVE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M")


def _normalised(expr: pl.Expr) -> pl.Expr:
    """A space for the ``T`` and ``Z`` for ``+00:00``: the layouts that differ only so are
    parsed as one."""
    return expr.str.replace(" ", "T", literal=True).str.replace("Z", "+00:00", literal=True)


FAST = "fast"  # the common layouts, parsed by polars' fast path plus slicing
_FAST_AWARE = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$"  # ...T03:00:00-04:00
_FAST_NAIVE = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"  # 2026-03-08T03:00:00


def _formats(path: Path, lf: pl.LazyFrame, name: str) -> tuple[list[str], list[str]]:
    """The timestamp layouts (with an offset, without) used by the first :data:`SAMPLE`
    timestamps of the file; a file of one layout is parsed with that layout only."""
    try:
        head = lf.select(_normalised(pl.col(name).str.strip_chars()).alias("x")).head(SAMPLE)
        sample = head.collect()["x"].drop_nulls()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None
    aware: list[str] = []
    naive: list[str] = []
    fast_aware = sample.str.contains(_FAST_AWARE)
    fast_naive = sample.str.contains(_FAST_NAIVE)
    if fast_aware.any():
        aware.append(FAST)
    if fast_naive.any():
        naive.append(FAST)
    rest = sample.filter(~fast_aware & ~fast_naive)
    for chosen, formats, tz_name in ((aware, _AWARE_FORMATS, "UTC"), (naive, _NAIVE_FORMATS, None)):
        for fmt in formats:
            parsed = rest.str.to_datetime(fmt, strict=False, time_unit="us", time_zone=tz_name)
            if parsed.null_count() < rest.len():
                chosen.append(fmt)
    if not aware and not naive:
        return [FAST, *_AWARE_FORMATS], [FAST, *_NAIVE_FORMATS]
    return aware, naive


def _fast_aware(norm: pl.Expr) -> pl.Expr:
    """``YYYY-MM-DDTHH:MM:SS±HH:MM`` in µs UTC, null for any other text: the date and time
    by polars' fast parser, the offset by slicing."""
    clock = norm.str.head(19).str.to_datetime("%Y-%m-%dT%H:%M:%S", strict=False, time_unit="us")
    sign = pl.when(norm.str.slice(19, 1) == "-").then(-1).when(norm.str.slice(19, 1) == "+").then(1)
    hours = norm.str.slice(20, 2).cast(pl.Int64, strict=False)
    mins = norm.str.slice(23, 2).cast(pl.Int64, strict=False)
    shape = (norm.str.len_bytes() == 25) & (norm.str.slice(22, 1) == ":")
    offset = sign * (hours * 60 + mins) * 60_000_000
    return pl.when(shape).then(clock.dt.epoch("us") - offset)


def _fast_naive(norm: pl.Expr) -> pl.Expr:
    """``YYYY-MM-DDTHH:MM:SS`` as a naive datetime, null for any other text."""
    parsed = norm.str.to_datetime("%Y-%m-%dT%H:%M:%S", strict=False, time_unit="us")
    return pl.when(norm.str.len_bytes() == 19).then(parsed)


def parse_times(
    path: Path, lf: pl.LazyFrame, name: str, dtype: pl.DataType, tz: str
) -> tuple[list[pl.Expr], list[pl.Expr], pl.Expr, pl.Expr]:
    """Expressions: first-stage and second-stage helper columns, then the instant (µs UTC)
    and the error code (0 for none)."""
    col = pl.col(name)
    if isinstance(dtype, pl.Datetime):
        if dtype.time_zone:
            t = col.dt.convert_time_zone("UTC").dt.epoch("us")
            code = pl.when(col.is_null()).then(1).otherwise(0).cast(pl.UInt8)
        else:
            local = col.dt.replace_time_zone(tz, ambiguous="null", non_existent="null")
            t = local.dt.epoch("us")
            gap = col.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null").is_null()
            code = (
                pl.when(col.is_null())
                .then(1)
                .when(t.is_null())
                .then(pl.when(gap).then(3).otherwise(13))
                .otherwise(0)
            )
            code = code.cast(pl.UInt8)
        return [], [t.alias("__t")], pl.col("__t"), code
    if dtype != pl.String:
        raise ReadingsError(f"{path}: column {name!r} holds {dtype}, not timestamps")
    aware_fmts, naive_fmts = _formats(path, lf, name)
    norm = pl.col("__ts")
    first = [_normalised(col.str.strip_chars()).alias("__ts")]
    opts: dict[str, Any] = {"strict": False, "time_unit": "us"}
    none = pl.lit(None, dtype=pl.Int64)
    absolute = (
        pl.coalesce(
            *(
                _fast_aware(norm)
                if f == FAST
                else norm.str.to_datetime(f, time_zone="UTC", **opts).dt.epoch("us")
                for f in aware_fmts
            )
        )
        if aware_fmts
        else none
    )
    naive = (
        pl.coalesce(
            *(
                _fast_naive(norm) if f == FAST else norm.str.to_datetime(f, **opts)
                for f in naive_fmts
            )
        )
        if naive_fmts
        else None
    )
    local = (
        naive.dt.replace_time_zone(tz, ambiguous="null", non_existent="null").dt.epoch("us")
        if naive is not None
        else none
    )
    gap = (
        naive.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null").is_null()
        if naive is not None
        else pl.lit(False)
    )
    second = [
        norm.str.contains(_OFFSET).alias("__aware"),
        absolute.alias("__abs"),
        (naive.is_null() if naive is not None else pl.lit(True)).alias("__naive_bad"),
        local.alias("__local"),
        gap.alias("__gap"),
    ]
    a = pl.col("__aware")
    t = pl.when(a).then(pl.col("__abs")).otherwise(pl.col("__local"))
    code = (
        pl.when(norm.is_null() | (norm == ""))
        .then(1)
        .when(a & pl.col("__abs").is_null())
        .then(2)
        .when(~a & pl.col("__naive_bad"))
        .then(2)
        .when(~a & pl.col("__local").is_null())
        .then(pl.when(pl.col("__gap")).then(3).otherwise(13))
        .otherwise(0)
        .cast(pl.UInt8)
    )
    return first, second, t, code
