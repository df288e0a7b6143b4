"""Reading a meter file: lazily, meter by meter, with the hygiene the law's arithmetic needs.

The rules take the file as a polars frame: :mod:`sewer_io.readings` opens it (CSV or
Parquet, lazily), splits a large one and hands the rows to :class:`SeriesSource`; everything
else — columns, times, exact values, units, duplicates, row errors — is here. Columns ``timestamp`` and ``value`` are required; ``meter``, ``parameter`` and ``unit`` are
optional (one meter ``default``, parameter ``flow``, the parameter's canonical unit). Header
names are matched without regard to case or surrounding spaces.

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
  beyond :data:`MAX_DIGITS` digits or :data:`MAX_DECIMALS` decimal places (more than any
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
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from sewer_rules.analytes import BY_NAME, SPELLINGS, normalize_spelling
from sewer_rules.hostile import shorten
from sewer_rules.monitoring.instants import iso, zone
from sewer_rules.units import ALIASES, UNITS, UnitError, conversion

from .series import DEFAULT_METER, DEFAULT_PARAMETER, I64, Series, fewest_places
from .source import ReadingsError, ReadOptions, RowError, Source, first_line
from .stamps import NOT_READ, aware_instants

REQUIRED = ("timestamp", "value")
OPTIONAL = ("meter", "parameter", "unit")
MAX_DECIMALS = 400  # more than any binary float needs (5e-324 has 340); see the docstring
MAX_DIGITS = 400  # digits before the decimal point (1.8e308, the largest float, has 309)
MISSING_WORDS = ("", "na", "n/a", "nan", "null", "none")
SAMPLE = 1000
_FIT = 1 << 62
_NUMBER = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"
_OFFSET = r"[+-]\d{2}:?\d{2}$"
_AWARE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M%z")
_NAIVE_FORMATS = ("%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M")

OK, MISSING, ERROR = 0, 1, 2

#: Row error codes of the compact form, and their field and message (``{}``: the text).
CODES: dict[int, tuple[str, str]] = {
    1: ("timestamp", "missing timestamp"),
    2: ("timestamp", "not a timestamp: '{}'"),
    3: (
        "timestamp",
        "'{}' does not exist in {tz}: the clocks went forward over that time that day; "
        "write the time with its UTC offset (e.g. '{}{offset}')",
    ),
    4: ("meter", "missing meter"),
    5: ("parameter", "missing parameter"),
    6: ("parameter", "unknown parameter '{}'"),
    7: ("unit", "unknown unit '{}'"),
    8: ("unit", "unit '{}' does not measure the parameter"),
    9: ("value", "not a number: '{}'"),
    13: (
        "timestamp",
        "'{}' happened twice in {tz} (the clocks went back that day): "
        "write the time with its UTC offset ('{}{first}' the first time, "
        "'{}{second}' the second)",
    ),
    10: (
        "value",
        "beyond the range read exactly ("
        + str(MAX_DIGITS)
        + " digits before and after the decimal point): '{}'",
    ),
}


# --- the lazy hygiene pipeline ---------------------------------------------------------------


def _columns(path: Path, lf: pl.LazyFrame) -> dict[str, tuple[str, pl.DataType]]:
    """Map each known column (lower-cased) to the file's own name and type."""
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


def check_columns(path: Path, lf: pl.LazyFrame) -> dict[str, tuple[str, pl.DataType]]:
    """The file's columns, checked at once (a missing or doubled column is refused before any
    row is read), for a reader that builds the rest of its query later."""
    return _columns(path, lf)


def _text(name: str, dtype: pl.DataType) -> pl.Expr:
    col = pl.col(name)
    return (col if dtype == pl.String else col.cast(pl.String)).str.strip_chars()


def _normalised(expr: pl.Expr) -> pl.Expr:
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


def _parse_times(
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


_PLAIN = r"^[+-]?(\d+\.?\d*|\.\d+)$"
_EXPONENT = r"^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$"


def _places_needed(v: pl.Expr) -> pl.Expr:
    """The decimal places a number written as ``v`` needs (trailing zeros of its fraction
    dropped, an exponent applied; 0 for a whole number), or null when it is not a number."""
    dotted = v.str.contains(".", literal=True)
    trimmed = v.str.strip_chars_end("0")
    plain = pl.when(dotted).then(
        trimmed.str.len_bytes().cast(pl.Int64)
        - trimmed.str.find(".", literal=True).cast(pl.Int64)
        - 1
    )
    mantissa = v.str.extract(r"^[^eE]*", 0)
    fraction = mantissa.str.extract(r"\.(\d*)", 1).str.strip_chars_end("0")
    exponent = v.str.extract(r"[eE]([+-]?\d+)$", 1).cast(pl.Int64, strict=False)
    sci = fraction.str.len_bytes().fill_null(0).cast(pl.Int64) - exponent
    whole = pl.lit(0, dtype=pl.Int64)
    return (
        pl.when(v.str.contains(_PLAIN))
        .then(plain.fill_null(whole))
        .when(v.str.contains(_EXPONENT))
        .then(pl.max_horizontal(sci, whole))
    )


def _digits(v: pl.Expr) -> pl.Expr:
    """How many digits the number written as ``v`` has before its decimal point (an
    exponent applied), to refuse only numbers beyond :data:`MAX_DIGITS`."""
    mantissa = v.str.extract(r"^[+-]?0*(\d*)", 1).str.len_bytes().cast(pl.Int64)
    exponent = v.str.extract(r"[eE]([+-]?\d+)$", 1).cast(pl.Int64, strict=False).fill_null(0)
    return mantissa + exponent


def _parse_values(name: str, dtype: pl.DataType) -> tuple[pl.Expr, list[pl.Expr], pl.Expr]:
    """The value's text (first stage); ``__missing``, ``__dec`` (the decimal places it needs)
    and ``__vc`` (its error code) (second stage); the missing flag.

    A float column (Parquet) is read as the shortest decimal that gives back the same binary
    float (polars' float-to-text, as Python's ``repr``); text is read as written, whatever
    the number of digits.
    """
    v = pl.col("__v")
    if dtype.is_float():
        text = pl.col(name).cast(pl.String).alias("__v")
        missing = pl.col(name).is_null() | pl.col(name).is_nan()
    else:
        text = _text(name, dtype).alias("__v")
        missing = v.is_null() | v.str.to_lowercase().is_in(list(MISSING_WORDS))
    dec = _places_needed(v)
    code = (
        pl.when(missing)
        .then(0)
        .when(dec.is_null())
        .then(9)
        .when((dec > MAX_DECIMALS) | (_digits(v) > MAX_DIGITS))
        .then(10)
        .otherwise(0)
    )
    second = [missing.alias("__missing"), dec.alias("__dec"), code.cast(pl.UInt8).alias("__vc")]
    return text, second, pl.col("__missing")


def compact(
    path: Path, lf: pl.LazyFrame, options: ReadOptions, numbered: bool = False
) -> pl.LazyFrame:
    """The lazy query turning the user's columns into the compact, checked form:
    ``row, meter, parameter (as written), unit (as written), t (µs UTC), v (the value's text),
    dec (the decimal places it needs; :func:`compact_now`: at least those),
    state, code, raw``. Parameter names and units, a handful of distinct spellings, are
    resolved per series afterwards (:class:`_Builder`), not per row.

    Built in stages so that each helper column is computed once per row. ``numbered``: ``lf``
    already has its spreadsheet row numbers in ``__row``.
    """
    cols = _columns(path, lf)
    tz = options.timezone
    ts_name, ts_type = cols["timestamp"]
    v_name, v_type = cols["value"]
    ts_first, ts_second, t, t_code = _parse_times(path, lf, ts_name, ts_type, tz)
    v_text, v_second, missing = _parse_values(v_name, v_type)

    first: list[pl.Expr] = [pl.col("__row"), pl.col(ts_name), pl.col(v_name), v_text, *ts_first]
    for key, default in (
        ("meter", DEFAULT_METER),
        ("parameter", DEFAULT_PARAMETER),
        ("unit", None),
    ):
        if key in cols:
            first.append(_text(*cols[key]).alias(f"__{key}"))
        else:
            first.append(pl.lit(default, dtype=pl.String).alias(f"__{key}"))
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
    cols = _columns(path, lf)
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
            exact = _decimals_of(raw.get_column(v_name), places)
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
    labels: list[pl.Expr] = []
    for key, default in (
        ("meter", DEFAULT_METER),
        ("parameter", DEFAULT_PARAMETER),
        ("unit", None),
    ):
        if key in cols:
            labels.append(_text(*cols[key]).alias(f"__{key}"))
        else:
            labels.append(pl.lit(default, dtype=pl.String).alias(f"__{key}"))
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


def lf_collect(path: Path, lf: pl.LazyFrame) -> pl.DataFrame:
    try:
        return lf.collect()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None


# --- series from the compact rows ------------------------------------------------------------


def _decimals(x: Fraction) -> tuple[int, int]:
    """``x`` as ``(integer, places)`` with ``x = integer / 10**places``; UnitError if it
    does not terminate."""
    places = 0
    while x.denominator != 1:
        x *= 10
        places += 1
        if places > 30:
            raise UnitError(f"{x} has no exact decimal form")
    return int(x), places


def _decimals_of(text: pl.Series, places: int) -> pl.Series | None:
    """Each value's text as an exact decimal of ``places`` places (polars' decimal parser, 128
    bits), or None when one does not fit 38 digits (or places exceed 30)."""
    if places > 30:
        return None
    wide = text.cast(pl.Decimal(38, places), strict=False)
    return wide if wide.null_count() == 0 else None


def _scaled(text: pl.Series, places: int) -> npt.NDArray[Any]:
    """Each value as the exact integer ``value × 10**places``: int64 where every value fits
    (polars' decimal parser, 128 bits, then a checked cast), else Python integers. ``text``:
    the values' texts, or their exact decimals (:func:`compact_now`), which may carry more
    places than ``places`` but no value needs more (taking them to ``places`` drops zeros)."""
    exact: pl.Series | None
    if isinstance(text.dtype, pl.Decimal):
        same = text.dtype.scale == places
        exact = text if same else text.cast(pl.Decimal(38, places))
    else:
        exact = _decimals_of(text, places)
    if exact is not None:
        wide = exact.to_physical()
        narrow = wide.cast(pl.Int64, strict=False)
        if narrow.null_count() == 0:
            return narrow.to_numpy().astype(np.int64, copy=False)
        return np.array(wide.to_list(), dtype=object)
    unit = 10**places
    return np.array([int(Fraction(x) * unit) for x in text.to_list()], dtype=object)


def _converted(
    m: npt.NDArray[Any],
    factor: I64,
    shift: I64,
    units: npt.NDArray[Any],
    offsets: dict[str, tuple[int, int]],
    scale: int,
) -> npt.NDArray[Any]:
    """``m × factor × 10**shift`` plus each unit's offset, exactly: in int64 when the result
    cannot overflow (the common case: one unit, values of a meter), else Python integers."""
    if not offsets and not bool(shift.any()):
        return m
    est = np.abs(m.astype(np.float64)) * factor.astype(np.float64) * np.power(10.0, shift)
    for o_int, o_places in offsets.values():
        est += abs(o_int) * 10.0 ** (scale - o_places)
    small = m.dtype != object and float(est.max(initial=0.0)) < float(_FIT) / 4
    if small:
        v = m * factor * np.power(10, np.minimum(shift, 18)).astype(np.int64)
    else:
        power = np.array([10 ** int(x) for x in range(int(shift.max(initial=0)) + 1)], dtype=object)
        v = m.astype(object) * factor.astype(object) * power[shift]
    for u, (o_int, o_places) in offsets.items():
        v[units == u] += o_int * 10 ** (scale - o_places)
    return np.asarray(v)


def _offset_text(offset: timedelta | None) -> str:
    if offset is None:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _offsets_of_repeated(text: str, tz: str) -> tuple[str, str]:
    """The UTC offsets of the two occurrences of a time the clocks repeated (``-04:00`` and
    ``-05:00`` for 01:30 on the fall-back day in New York), for a row error; "" if none."""
    try:
        naive = datetime.fromisoformat(text)
    except ValueError:
        return "", ""
    if naive.tzinfo is not None:
        return "", ""
    where = zone(tz)
    return (
        _offset_text(naive.replace(tzinfo=where, fold=0).utcoffset()),
        _offset_text(naive.replace(tzinfo=where, fold=1).utcoffset()),
    )


def _offset_before(text: str, tz: str) -> str:
    """The UTC offset in force just before a time the clocks skipped (``-05:00`` for 02:30 on
    the spring-forward day in New York), for the example of a row error; "" if none."""
    try:
        naive = datetime.fromisoformat(text)
    except ValueError:
        return ""
    offset = naive.replace(tzinfo=zone(tz), fold=0).utcoffset()
    if naive.tzinfo is not None or offset is None:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


class _Builder:
    """Turns one meter's rows of one parameter into a :class:`Series` (plus row errors)."""

    def __init__(self, path: Path, options: ReadOptions) -> None:
        self.path = path
        self.options = options

    def build(
        self, meter: str, parameter: str, df: pl.DataFrame
    ) -> tuple[Series | None, list[RowError]]:
        """``df``: the compact rows (errors excluded) of one meter and one parameter."""
        missing = int((df["state"] == MISSING).sum())
        state = df.get_column("state")
        ok, errors = self._units(
            parameter, df if bool((state == OK).all()) else df.filter(state == OK)
        )
        if ok.height == 0:
            return None, errors
        rows = ok["row"].to_numpy().astype(np.int64)
        t = ok["t"].to_numpy().astype(np.int64)
        # by an expression: a unit the file does not write is one value over every row, which
        # taking the column out would write row by row (5,000,000 texts, 80 MB)
        present = sorted(set(ok.select(pl.col("unit").unique()).to_series().to_list()))
        target = present[0] if len(present) == 1 else BY_NAME[parameter].canonical_unit
        written = max(0, int(ok["dec"].to_numpy().max()))
        m, places = fewest_places(_scaled(ok["v"], written), written)
        if len(present) == 1:
            # one unit (the usual file): the values as written, no conversion
            v, scale = m, places
        else:
            v, scale = self._convert(meter, parameter, ok, m, places, present, target)

        if t.size > 1 and not bool(np.all(t[1:] >= t[:-1])):
            order = np.lexsort((rows, t))
            rows, t, v = rows[order], t[order], v[order]
        merged = 0
        if t.size > 1:
            same = t[1:] == t[:-1]
            if bool(same.any()):
                rows, t, v, scale, merged = self._dedupe(meter, parameter, rows, t, v, scale, same)
        series = Series(meter, parameter, target, t, v, scale, rows, missing, merged)
        return series, errors

    def _convert(
        self,
        meter: str,
        parameter: str,
        ok: pl.DataFrame,
        m: npt.NDArray[Any],
        places: int,
        present: list[str],
        target: str,
    ) -> tuple[npt.NDArray[Any], int]:
        """Values in several units, converted exactly to ``target``: the scaled values and
        their scale."""
        units = ok["unit"].to_numpy()
        factor = np.ones(m.shape[0], dtype=np.int64)
        extra = np.zeros(m.shape[0], dtype=np.int64)
        offsets: dict[str, tuple[int, int]] = {}
        for u in present:
            if u == target:
                continue
            conv = conversion(u, target)
            try:
                f_int, f_places = _decimals(conv.factor)
                o_int, o_places = _decimals(conv.offset)
            except UnitError:
                raise ReadingsError(
                    f"{self.path}: {u} cannot be converted exactly to {target} "
                    f"(meter {meter!r}, {parameter})"
                ) from None
            sel = units == u
            factor[sel] = f_int
            extra[sel] = f_places
            offsets[u] = (o_int, o_places)
        scale = max(places + int(extra.max()), *(p for _, p in offsets.values()), 0)
        shift = scale - places - extra
        return _converted(m, factor, shift, units, offsets, scale), scale

    def _units(self, parameter: str, ok: pl.DataFrame) -> tuple[pl.DataFrame, list[RowError]]:
        """Resolve the units as written (a few spellings per series): blank is the
        parameter's canonical unit; unknown units and units of another dimension are row
        errors."""
        analyte = BY_NAME[parameter]
        mapping: dict[str, str] = {}
        bad: dict[str, int] = {}
        for raw in ok.select(pl.col("unit").drop_nulls().unique()).to_series().to_list():
            symbol = ALIASES.get(" ".join(str(raw).lower().split()))
            if not str(raw).strip():
                mapping[raw] = analyte.canonical_unit
            elif symbol is None:
                bad[raw] = 7
            elif UNITS[symbol].dimension != analyte.dimension:
                bad[raw] = 8
            else:
                mapping[raw] = symbol
        errors: list[RowError] = []
        if bad:
            wrong = ok.filter(pl.col("unit").is_in(list(bad)))
            for r, raw in zip(
                wrong["row"].head(self.options.max_errors), wrong["unit"], strict=False
            ):
                field, message = self._message(bad[raw], raw)
                errors.append(
                    RowError(int(r), field, message + (f" ({parameter})" if bad[raw] == 8 else ""))
                )
            ok = ok.filter(~pl.col("unit").is_in(list(bad)))
        resolved = pl.col("unit").replace_strict(mapping, default=None, return_dtype=pl.String)
        ok = ok.with_columns(resolved.fill_null(analyte.canonical_unit).alias("unit"))
        return ok, errors

    def _message(self, code: int, raw: str | None) -> tuple[str, str]:
        field, template = CODES[code]
        text = raw if raw is not None else ""
        tz = self.options.timezone
        first, second = _offsets_of_repeated(text, tz)
        offset = _offset_before(text, tz)
        quoted = shorten(text)  # a 200,000-digit value is not echoed whole
        return field, template.format(
            quoted, quoted, quoted, tz=tz, offset=offset, first=first, second=second
        )

    def _dedupe(
        self,
        meter: str,
        parameter: str,
        rows: I64,
        t: I64,
        v: I64,
        scale: int,
        same: npt.NDArray[np.bool_],
    ) -> tuple[I64, I64, I64, int, int]:
        how = self.options.dedupe
        if how is None:
            where = np.flatnonzero(same)[:3]
            shown = "; ".join(
                f"rows {int(rows[i])} and {int(rows[i + 1])} at "
                f"{iso(int(t[i]), self.options.timezone)}"
                for i in where
            )
            raise ReadingsError(
                f"{self.path}: duplicate timestamps for meter {meter!r}, {parameter}: {shown} "
                "(de-duplicate with --dedupe first|last|mean)"
            )
        starts = np.flatnonzero(np.concatenate(([True], ~same)))
        counts = np.diff(np.concatenate((starts, [t.size])))
        merged = int(t.size - starts.size)
        if how == "first":
            return rows[starts], t[starts], v[starts], scale, merged
        if how == "last":
            pick = starts + counts - 1
            return rows[pick], t[pick], v[pick], scale, merged
        sums = [sum(int(x) for x in chunk) for chunk in np.split(v, starts[1:])]
        cnts = [int(c) for c in counts]
        extra = next(
            (
                d
                for d in range(4)
                if all((s * 10**d) % c == 0 for s, c in zip(sums, cnts, strict=True))
            ),
            3,
        )
        means = [
            int(
                (Decimal(s * 10**extra) / Decimal(c)).quantize(Decimal(1), rounding=ROUND_HALF_EVEN)
            )
            for s, c in zip(sums, cnts, strict=True)
        ]
        wide = max((abs(x) for x in means), default=0) >= _FIT
        merged_v = np.array(means, dtype=object if wide else np.int64)
        return rows[starts], t[starts], merged_v, scale + extra, merged


# --- rows to series, series by series -------------------------------------------------------


class SeriesSource(Source):
    """Rows of a readings source turned into series, one meter and parameter at a time (the
    general reader).

    The reading itself (a file, its size, the temporary split of a large one) is
    :class:`sewer_io.readings.Readings`, which hands the rows here as frames.
    """

    def __init__(self, source: str | Path, options: ReadOptions | None = None) -> None:
        super().__init__(source, options)
        self._builder = _Builder(self.path, self.options)

    def _note_errors(self, df: pl.DataFrame) -> None:
        bad = df.filter(pl.col("state") == ERROR)
        if bad.height == 0:
            return
        first = bad.sort("row").head(self.options.max_errors)
        found = [
            RowError(int(r), *self._builder._message(int(c), raw))
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
        return self._builder._message(code, raw)

    def _build(self, groups: dict[tuple[str, str], list[pl.DataFrame]]) -> Iterator[Series]:
        for (meter, name), parts in sorted(groups.items()):
            frame = parts[0] if len(parts) == 1 else pl.concat(parts)
            series, errors = self._builder.build(meter, name, frame)
            self._add_errors(errors, len(errors))
            if series is not None:
                yield series

    def series_of(self, rows: pl.DataFrame) -> Iterator[Series]:
        """The series of compact ``rows`` (:func:`compact`), sorted by meter then parameter."""
        yield from self._build(self._resolve(rows))

    @staticmethod
    def spelled(raw: str) -> str:
        """The analyte a parameter spelling stands for, or a key of its own (sorted last) for
        a spelling that names none: how a split file's parts are grouped."""
        return SPELLINGS.get(normalize_spelling(raw)) or f"\x00{raw}"


def canonical_parameter(text: str) -> str:
    """The analyte name a ``--parameter`` spelling stands for (KeyError if none)."""
    return SPELLINGS[normalize_spelling(text)]
