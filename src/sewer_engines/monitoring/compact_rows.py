"""A meter file's rows in the compact, checked form the series are built from.

One row a reading: ``row, meter, parameter (as written), unit (as written), t (µs UTC), v
(the value's text), dec (the decimal places it needs), state, code, raw`` — about 40 bytes a
reading in polars, so that a file of millions of readings is held in memory, or split by
meter and parameter (:mod:`sewer_io.readings`) when it is larger. The times are read by
:mod:`.time_column`, the values checked by :mod:`.value_column`; parameter names and units, a
handful of distinct spellings, are resolved per series afterwards (:mod:`.series_builder`),
not per row. A row is :data:`OK`, :data:`MISSING` (a gap: no value) or :data:`ERROR` (its
``code`` says why, :mod:`.row_errors`).

:func:`compact` is the general query, for every layout; :func:`compact_now` takes the layouts
meters and historians write on a shorter path and gives the same rows.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from sewer_rules.analytes import SPELLINGS

from .columns import OPTIONAL, REQUIRED, check_columns, column_text, lf_collect
from .scaled_values import decimals_of
from .series import DEFAULT_METER, DEFAULT_PARAMETER
from .source import ReadingsError, ReadOptions, first_line
from .stamps import NOT_READ, aware_instants
from .time_column import parse_times
from .value_column import MAX_DIGITS, parse_values

#: The states of a compact row: a reading, a gap (no value), a row error.
OK, MISSING, ERROR = 0, 1, 2


def _labels(cols: dict[str, tuple[str, pl.DataType]]) -> list[pl.Expr]:
    """``__meter``, ``__parameter``, ``__unit``: the file's text, or the default of a column
    it does not have (one meter ``default``, parameter ``flow``, the parameter's canonical
    unit, written as null)."""
    labels: list[pl.Expr] = []
    for key, default in (
        ("meter", DEFAULT_METER),
        ("parameter", DEFAULT_PARAMETER),
        ("unit", None),
    ):
        if key in cols:
            labels.append(column_text(*cols[key]).alias(f"__{key}"))
        else:
            labels.append(pl.lit(default, dtype=pl.String).alias(f"__{key}"))
    return labels


def compact(
    path: Path, lf: pl.LazyFrame, options: ReadOptions, numbered: bool = False
) -> pl.LazyFrame:
    """The lazy query turning the user's columns into the compact, checked form:
    ``row, meter, parameter (as written), unit (as written), t (µs UTC), v (the value's text),
    dec (the decimal places it needs; :func:`compact_now`: at least those),
    state, code, raw``. Parameter names and units, a handful of distinct spellings, are
    resolved per series afterwards (:class:`.series_builder.SeriesBuilder`), not per row.

    Built in stages so that each helper column is computed once per row. ``numbered``: ``lf``
    already has its spreadsheet row numbers in ``__row``.
    """
    cols = check_columns(path, lf)
    tz = options.timezone
    ts_name, ts_type = cols["timestamp"]
    v_name, v_type = cols["value"]
    ts_first, ts_second, t, t_code = parse_times(path, lf, ts_name, ts_type, tz)
    v_text, v_second, missing = parse_values(v_name, v_type)

    first: list[pl.Expr] = [pl.col("__row"), pl.col(ts_name), pl.col(v_name), v_text, *ts_first]
    first += _labels(cols)
    meter = pl.col("__meter")
    code = (
        pl.when(pl.col("__tc") > 0)
        .then(pl.col("__tc"))
        .when(meter.is_null() | (meter == ""))
        .then(4)
        .otherwise(pl.col("__vc"))
        .cast(pl.UInt8)
    )
    ts_text = pl.col("__ts") if ts_type == pl.String else pl.col(ts_name).cast(pl.String)
    c = pl.col("code")
    raw = (
        pl.when(c.is_in([2, 3, 13]))
        .then(ts_text)
        .when(c.is_in([9, 10]))
        .then(pl.col("__v"))
        .otherwise(pl.lit(None, dtype=pl.String))
    )
    state = (
        pl.when(c > 0)
        .then(pl.lit(ERROR, dtype=pl.UInt8))
        .when(missing)
        .then(pl.lit(MISSING, dtype=pl.UInt8))
        .otherwise(pl.lit(OK, dtype=pl.UInt8))
    )
    out = (lf if numbered else lf.with_row_index("__row", offset=2)).select(first)
    return (
        _chosen(out, options)
        .with_columns(*ts_second, *v_second)
        .with_columns(t.alias("t"), t_code.alias("__tc"))
        .with_columns(code.alias("code"))
        .select(
            pl.col("__row").cast(pl.Int64).alias("row"),
            pl.col("__meter").alias("meter"),
            pl.col("__parameter").alias("parameter"),
            pl.col("__unit").alias("unit"),
            "t",
            pl.col("__v").alias("v"),
            pl.col("__dec").cast(pl.Int32).alias("dec"),
            state.alias("state"),
            "code",
            raw.alias("raw"),
        )
    )


def _chosen(out: pl.LazyFrame, options: ReadOptions) -> pl.LazyFrame:
    """Only the rows of the meter and parameter asked for (``__meter``, ``__parameter``)."""
    if options.meter is not None:
        out = out.filter(pl.col("__meter") == options.meter)
    if options.parameter is not None:
        spellings = [k for k, name in SPELLINGS.items() if name == options.parameter]
        spelled = pl.col("__parameter").str.to_lowercase().str.replace_all(r"\s+", " ")
        out = out.filter(spelled.is_in(spellings))
    return out


_FAST_VALUE = r"^-?\d+(\.\d+)?$"  # 12, 12.30, -0.5, 190.95000000000002


def compact_now(path: Path, lf: pl.LazyFrame, options: ReadOptions) -> pl.DataFrame:
    """The rows of :func:`compact`, collected, on a shorter path for the layouts meters and
    historians write: a time ``YYYY-MM-DDTHH:MM:SS±HH:MM`` and a plain decimal. Those rows
    need no normalising, no layout detection and no check for missing words; every other row
    (another layout, a naive time, a missing or bad value) goes through :func:`compact`
    itself, so the result is the same row for row (the tests compare both), with two
    differences the builder absorbs: ``dec`` of a short-path row is the decimal places
    written (``12.30``: two), at least those the value needs; and when every row took the
    short path, ``v`` holds the values already read as exact decimals (polars ``Decimal``,
    the file's most places written) instead of their texts."""
    cols = check_columns(path, lf)
    ts_name, ts_type = cols["timestamp"]
    v_name, v_type = cols["value"]
    if ts_type != pl.String or v_type != pl.String:
        return lf_collect(path, compact(path, lf, options))
    names = [cols[k][0] for k in (*REQUIRED, *OPTIONAL) if k in cols]
    try:
        raw = lf.with_row_index("__row", offset=2).select("__row", *names).collect()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None
    value = pl.col(v_name)
    # the places written (trailing zeros too: "12.30" has two), as many as the value needs
    # or more; the builder takes the series to the fewest its values need (fewest_places)
    point = value.str.find(".", literal=True).cast(pl.Int64)
    dec = (value.str.len_bytes().cast(pl.Int64) - point - 1).fill_null(0)
    # The times (Arrow and numpy) are read in a thread while polars reads the values, and
    # when every value is a plain decimal, their exact decimals too (the series' scale is then
    # known: the file's most decimal places): both release the interpreter, so the two columns
    # take the time of the longer one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(aware_instants, raw.get_column(ts_name))
        valued = raw.with_columns(
            # a value longer than MAX_DIGITS characters takes the checked path (its digits)
            (value.str.contains(_FAST_VALUE) & (value.str.len_bytes() <= MAX_DIGITS)).alias("__pf"),
            dec.cast(pl.Int32).alias("__dec"),
        )
        plain = valued.get_column("__pf")
        exact = None
        if plain.null_count() == 0 and bool(plain.all()):
            places = max(0, int(valued.select(pl.col("__dec").max()).item() or 0))
            exact = decimals_of(raw.get_column(v_name), places)
        instants = pending.result()
    marked = valued.with_columns(pl.Series("__tf", instants, dtype=pl.Int64))
    quick = (pl.col("__tf") != NOT_READ) & pl.col("__pf").fill_null(False)
    flags = marked.select(quick.alias("q")).get_column("q")
    helpers = ["__tf", "__pf", "__dec"]
    v_out = value
    if bool(flags.all()):  # the usual export: every row on the short path, nothing copied
        # ... and the texts already read (the times; the values when their exact decimals
        # were read beside the times) are let go before the rows are collected
        fast, slow = marked.drop(ts_name), marked.clear().drop(helpers)
        if exact is not None:
            fast = fast.drop(v_name).with_columns(exact.alias("__exact"))
            v_out = pl.col("__exact")
    else:
        fast = marked.filter(flags)
        slow = marked.filter(~flags).drop(helpers)
    del raw, valued, marked
    labels = _labels(cols)
    meter = pl.col("__meter")
    bad_meter = meter.is_null() | (meter == "")
    quick_rows = _chosen(fast.lazy().with_columns(labels), options).select(
        pl.col("__row").cast(pl.Int64).alias("row"),
        pl.col("__meter").alias("meter"),
        pl.col("__parameter").alias("parameter"),
        pl.col("__unit").alias("unit"),
        pl.col("__tf").cast(pl.Int64).alias("t"),
        v_out.alias("v"),
        pl.col("__dec").alias("dec"),
        pl.when(bad_meter).then(ERROR).otherwise(OK).cast(pl.UInt8).alias("state"),
        pl.when(bad_meter).then(4).otherwise(0).cast(pl.UInt8).alias("code"),
        pl.lit(None, dtype=pl.String).alias("raw"),
    )
    parts = [lf_collect(path, quick_rows)]
    if slow.height:
        parts.append(lf_collect(path, compact(path, slow.lazy(), options, numbered=True)))
    return pl.concat(parts, how="vertical_relaxed")
