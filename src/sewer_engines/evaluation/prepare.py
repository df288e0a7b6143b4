"""Validation of a results table: every row parsed or refused, each refusal naming its field.

The input is text, as a laboratory writes it. A row that cannot be evaluated — unknown
parameter, unparseable value, unknown unit, pH outside 0–14, negative concentration, bad date —
is reported with its row and field; the other rows are still evaluated (``sewer-use check``)
or, for an import, nothing is stored (the office). Row numbers are 1-based lines of the file
with the header as line 1.

Reported values: a number; ``<x`` (a non-detect below x); ``ND`` (a non-detect, with the
``reporting_limit`` column); or a number with the qualifier ``U``/``ND`` (non-detect at that
reporting limit). Dates: ISO 8601, with or without offset; without one they are town time.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

import polars as pl

from sewer_rules.analytes import ANALYTES, SPELLINGS
from sewer_rules.evaluation.reading import (
    ND_QUALIFIERS,
    ND_WORDS,
    NON_NEGATIVE,
    OPTIONAL_COLUMNS,
    REQUIRED_COLUMNS,
)
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES
from sewer_rules.units import ALIASES, UNITS, conversion

from .numbers import CANON as CANON
from .numbers import comparison_key, read_numbers
from .text import format_text
from .times import date_message, parse_datetimes

#: The decimal type of every value and limit the engine compares (see :mod:`.numbers`).
VALUE = CANON
_ND_WORDS = ND_WORDS
_ND_QUALIFIERS = ND_QUALIFIERS
__all__ = [
    "CANON",
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "Prepared",
    "prepare",
]


#: What the engine keeps of a valid row (every later step copies these, so they are few).
ROW_COLUMNS = (
    "row",
    "sample_id",
    "facility",
    "method",
    "sample_type",
    "analyte",
    "unit_symbol",
    "canonical_unit",
    "value_text",
    "nd",
    "number",
    "exact",
    "sampled_utc",
    "analyzed_utc",
    "day",
    "source",  # the sample's declared source, read as text by classify.py (§ 196-15 COOLING WATER)
)


@dataclass(frozen=True)
class Prepared:
    rows: pl.DataFrame  # valid rows, typed
    errors: pl.DataFrame  # row, field, message


ERROR_SCHEMA = {"row": pl.Int64, "field": pl.String, "message": pl.String}


def _clean(col: str) -> pl.Expr:
    return pl.col(col).cast(pl.String).str.strip_chars()


def _lookup(values: pl.Series, mapping: dict[str, str]) -> pl.Series:
    """Map a low-cardinality text column through ``mapping`` by its distinct spellings.

    Laboratory files repeat a handful of parameter names, units and sample types; normalising
    each distinct spelling once (trim, lower case, single spaces) keeps the per-row work to a
    hash lookup.
    """
    distinct = values.unique().drop_nulls().to_list()
    table = {v: mapping.get(" ".join(str(v).strip().lower().split())) for v in distinct}
    return values.replace_strict(table, default=None, return_dtype=pl.String)


def prepare(raw: pl.DataFrame, tz: str, first_day: date) -> Prepared:
    """Validate and type a results table (all columns text, plus an integer ``row``)."""
    for col in OPTIONAL_COLUMNS:
        if col not in raw.columns:
            raw = raw.with_columns(pl.lit(None, dtype=pl.String).alias(col))
    analyte_dim = {a.name: a.dimension for a in ANALYTES}
    analyte_unit = {a.name: a.canonical_unit for a in ANALYTES}
    unit_dim = {s: u.dimension for s, u in UNITS.items()}
    # The sample times are read in a thread while the other columns are cleaned and looked up:
    # polars releases the interpreter, and each of these works one column on one core, so on
    # a large file the two take the time of the longer (on a few dozen rows, no difference).
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(parse_datetimes, raw.get_column("sampled_at"), tz)
        analyzed = parse_datetimes(raw.get_column("analyzed_at"), tz).get_column("utc")
        # Each cleaned text is computed once and kept as a column: an expression repeated in
        # several conditions would be evaluated again over every row for each of them.
        df = raw.with_columns(
            _clean("value").alias("value_text"),
            _clean("qualifier").alias("_qualifier"),
            _clean("reporting_limit").alias("_rl"),
            _clean("sample_id").alias("sample_id"),
            _clean("facility").alias("facility"),
            _lookup(raw.get_column("sample_type"), {t: t for t in SAMPLE_TYPES}).alias(
                "sample_type"
            ),
            _clean("sample_type").alias("sample_type_text"),
            _lookup(raw.get_column("parameter"), SPELLINGS).alias("analyte"),
            _lookup(raw.get_column("unit"), ALIASES).alias("unit_symbol"),
            analyzed.alias("analyzed_utc"),
        )
        sampled = pending.result()
    df = df.with_columns(
        sampled.get_column("utc").alias("sampled_utc"), sampled.get_column("day").alias("day")
    )
    value_text, rl_text = pl.col("value_text"), pl.col("_rl")
    df = df.with_columns(
        pl.when(value_text.str.starts_with("<"))
        .then(value_text.str.strip_prefix("<").str.strip_chars())
        .alias("_lt"),
        value_text.str.contains(_ND_WORDS).alias("_nd_word"),
        pl.col("_qualifier").str.contains(_ND_QUALIFIERS).fill_null(False).alias("_nd_qual"),
    )
    lt, nd_word, nd_qual = pl.col("_lt"), pl.col("_nd_word"), pl.col("_nd_qual")
    df = df.with_columns(
        (lt.is_not_null() | nd_word | nd_qual).alias("nd"),
        pl.when(lt.is_not_null())
        .then(lt)
        .when(nd_word)
        .then(rl_text)
        .when(nd_qual)
        .then(pl.coalesce(rl_text, value_text))
        .otherwise(value_text)
        .alias("number_text"),
    )
    number, exact = read_numbers(df.get_column("number_text"))
    df = df.with_columns(
        number.alias("number"),
        exact.alias("exact"),
        pl.col("analyte").replace_strict(analyte_dim, default=None).alias("dimension"),
        pl.col("analyte").replace_strict(analyte_unit, default=None).alias("canonical_unit"),
        pl.col("unit_symbol").replace_strict(unit_dim, default=None).alias("unit_dimension"),
    )
    checks: list[tuple[str, pl.Expr, pl.Expr]] = [
        ("sample_id", pl.col("sample_id").fill_null("") == "", pl.lit("missing sample_id")),
        (
            "sampled_at",
            pl.col("sampled_utc").is_null(),
            date_message(_clean("sampled_at"), tz, "e.g. 2026-03-02T08:30"),
        ),
        (
            "sampled_at",
            pl.col("day") < first_day,
            format_text(
                "sampled before the article took effect ({})", pl.lit(first_day.isoformat())
            ),
        ),
        (
            "sample_type",
            ~pl.col("sample_type").is_in(SAMPLE_TYPES).fill_null(False),
            format_text(
                "sample_type '{}' is not one of grab, composite, continuous",
                pl.col("sample_type_text").fill_null(""),
            ),
        ),
        (
            "parameter",
            pl.col("analyte").is_null(),
            format_text("unknown parameter '{}'", _clean("parameter").fill_null("")),
        ),
        (
            "unit",
            pl.col("unit_symbol").is_null(),
            format_text("unknown unit '{}'", _clean("unit").fill_null("")),
        ),
        (
            "unit",
            pl.col("unit_symbol").is_not_null()
            & pl.col("analyte").is_not_null()
            & (pl.col("unit_dimension") != pl.col("dimension")),
            format_text("unit '{}' does not measure {}", _clean("unit"), pl.col("analyte")),
        ),
        (
            "reporting_limit",
            nd_word & rl_text.fill_null("").eq(""),
            pl.lit("a non-detect 'ND' needs a reporting_limit"),
        ),
        (
            "reporting_limit",
            pl.col("nd")
            & pl.col("number_text").is_not_null()
            & pl.col("number").is_null()
            & nd_word,
            format_text("unparseable reporting_limit '{}'", rl_text.fill_null("")),
        ),
        (
            "value",
            pl.col("number_text").fill_null("").ne("") & pl.col("number").is_null() & ~nd_word,
            format_text("unparseable value '{}'", pl.col("value_text").fill_null("")),
        ),
        ("value", pl.col("value_text").fill_null("") == "", pl.lit("missing value")),
        (
            "value",
            (pl.col("analyte") == "ph") & ((pl.col("number") < 0) | (pl.col("number") > 14)),
            format_text("pH {} is outside 0–14", pl.col("value_text")),
        ),
        (
            "value",
            pl.col("dimension").is_in(list(NON_NEGATIVE)) & (pl.col("number") < 0),
            format_text(
                "negative {} {} is not a measurement", pl.col("dimension"), pl.col("value_text")
            ),
        ),
        (
            "analyzed_at",
            _clean("analyzed_at").fill_null("").ne("") & pl.col("analyzed_utc").is_null(),
            date_message(_clean("analyzed_at"), tz),
        ),
        (
            "analyzed_at",
            pl.col("analyzed_utc") < pl.col("sampled_utc"),
            pl.lit("analysed before it was sampled"),
        ),
    ]
    df = df.with_columns(
        *[cond.fill_null(False).alias(f"_bad{i}") for i, (_, cond, _) in enumerate(checks)]
    )
    bad = df.select(pl.any_horizontal([pl.col(f"_bad{i}") for i in range(len(checks))]))
    any_bad = bad.to_series()
    failing = df.filter(any_bad)
    errors = pl.concat(
        [
            failing.filter(pl.col(f"_bad{i}")).select(
                "row", pl.lit(field).alias("field"), msg.cast(pl.String).alias("message")
            )
            for i, (field, _, msg) in enumerate(checks)
        ]
    ).sort("row", maintain_order=True)
    # The valid rows' columns only (a filter copies every column it keeps; none when all pass).
    ok = df.select(ROW_COLUMNS)
    del df, failing
    if errors.height:
        ok = ok.filter(~any_bad)
    return Prepared(_canonical(ok), errors)


def _canonical(df: pl.DataFrame) -> pl.DataFrame:
    """Each value in its analyte's canonical unit, exactly (every accepted unit converts so).

    A valid row's unit measures its analyte's dimension, and each dimension has one canonical
    unit, so the conversion depends on the unit alone. Most rows are already in their canonical
    unit; only the others are computed. The rare values read by the exact fallback (``exact``
    not null) are converted exactly in fractions and given their comparison key.
    """
    canon = df.get_column("number").cast(CANON)
    units = df.get_column("unit_symbol")
    for unit, canonical in df.select("unit_symbol", "canonical_unit").unique().iter_rows():
        conv = conversion(unit, canonical)
        if conv.factor == 1 and conv.offset == 0:
            continue
        idx = (units == unit).arg_true()
        factor, offset = _scalar(conv.decimal_factor), _scalar(conv.decimal_offset)
        converted = canon.gather(idx) * factor + offset
        canon = canon.scatter(idx, converted.cast(CANON))
    slow = df.get_column("exact").is_not_null()
    if slow.any():
        idx = slow.arg_true()
        part = df.select("exact", "unit_symbol", "canonical_unit").gather(idx)
        keys = [
            comparison_key(conversion(unit, canonical).apply(Fraction(Decimal(text))))
            for text, unit, canonical in part.iter_rows()
        ]
        canon = canon.scatter(idx, pl.Series(keys, dtype=CANON))
    return df.with_columns(canon.alias("canon"))


def _scalar(value: Decimal) -> pl.Series:
    """A one-value decimal series of ``value``'s own scale, built from its text.

    Built so, not from the :class:`~decimal.Decimal` object: polars' constructor for Python
    decimals imports numpy (a seventh of a second of start-up for ``sewer-use check``)."""
    exponent = value.as_tuple().exponent
    places = max(0, -exponent) if isinstance(exponent, int) else 0
    return pl.Series("scalar", [f"{value:f}"]).cast(pl.Decimal(38, places))
