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
from sewer_rules.evaluation.times import ISO_PATTERN
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES
from sewer_rules.units import ALIASES, UNITS, conversion

from .numbers import CANON as CANON
from .numbers import comparison_key, read_numbers
from .text import format_text

#: The decimal type of every value and limit the engine compares (see :mod:`.numbers`).
VALUE = CANON
_ND_WORDS = ND_WORDS
_ND_QUALIFIERS = ND_QUALIFIERS
__all__ = [
    "CANON",
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "Prepared",
    "parse_datetimes",
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


def _key(expr: pl.Expr) -> pl.Expr:
    return expr.str.to_lowercase().str.replace_all(r"\s+", " ")


NAIVE_FORMATS = (
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
)
AWARE_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z",
    "%Y-%m-%dT%H:%M%z",
    "%Y-%m-%d %H:%M:%S%z",
    "%Y-%m-%d %H:%M%z",
    "%Y-%m-%dT%H:%M:%S%.f%z",
    "%Y-%m-%d %H:%M:%S%.f%z",
)
UTC = pl.Datetime("us", "UTC")


def parse_datetimes(values: pl.Series, tz: str) -> pl.DataFrame:
    """ISO 8601 text → ``utc`` (aware datetime) and ``day`` (the calendar date in town time).

    Null when unparseable or not a local time. A laboratory file repeats each sample's time on
    every result of the sample, on consecutive lines: each run of one text is parsed once and
    mapped back (finding the runs is a comparison with the previous line, where a hash of every
    text would cost as much as parsing it); for the same reason polars' own cache of parsed
    texts is off (the texts it sees are distinct: it took half the time of the parse). Each
    accepted form is tried in turn on the texts still unparsed, the form of the file's first
    time first (most files use one form). Without an offset a time is town time and its day is
    its own calendar date; an ambiguous hour (the autumn change) is read as the first, and a
    time that does not exist (the spring change) is refused.
    """
    text = values.cast(pl.String).rename("text")
    n = text.len()
    heads = pl.select(
        (pl.int_range(n, dtype=pl.UInt32) == 0) | text.ne_missing(text.shift(1))
    ).to_series()
    runs = int(heads.sum())
    if runs == n:
        utc, day = _parse_all(text, tz)
        return pl.DataFrame({"utc": utc, "day": day})
    utc, day = _parse_all(text.filter(heads), tz)
    run = (heads.cum_sum() - 1).cast(pl.UInt32)
    return pl.DataFrame({"utc": utc.gather(run), "day": day.gather(run)})


def _formats(text: pl.Series, tz: str) -> list[str]:
    """The accepted forms, the one that reads the first non-empty text first."""
    formats = [*NAIVE_FORMATS, *AWARE_FORMATS]
    probe = text.filter(text.is_not_null() & (text != "")).head(1)
    if probe.len():
        first = next((f for f in formats if _parse_as(probe, f, tz).is_not_null().all()), None)
        if first is not None:
            formats.remove(first)
            formats.insert(0, first)
    return formats


def _parse_all(values: pl.Series, tz: str) -> tuple[pl.Series, pl.Series]:
    """``utc`` and ``day`` of every text (null where none of the forms reads it).

    The form of the file's first time reads every text in one pass. Texts it leaves (a file
    that mixes forms) are grouped by their layout — the text with every digit written ``9`` —
    and each group is read in the form its layout has, found on a few of its texts: trying
    every form in turn on every text left cost a mixed file one pass a form.
    """
    text = _accepted(values.str.strip_chars())
    read = _Read(
        text,
        pl.repeat(None, text.len(), dtype=UTC, eager=True),
        pl.repeat(None, text.len(), dtype=pl.Date, eager=True),
        tz,
    )
    formats = _formats(text, tz)
    left = read.group(pl.arange(0, text.len(), eager=True, dtype=pl.UInt32), formats[:1])
    if left.len():
        layouts = text.gather(left).str.replace_all(r"[0-9]", "9")
        for layout in layouts.unique(maintain_order=True):
            group = left.filter(layouts.eq_missing(layout))
            sample = text.gather(group.head(8))
            fits = [f for f in formats[1:] if _parse_as(sample, f, tz).is_not_null().any()]
            read.group(group, fits + [f for f in formats[1:] if f not in fits])
    return read.utc, read.day


class _Read:
    """The instants and days read so far, filled in group by group."""

    def __init__(self, text: pl.Series, utc: pl.Series, day: pl.Series, tz: str) -> None:
        self.text, self.utc, self.day, self.tz = text, utc, day, tz

    def group(self, positions: pl.Series, formats: list[str]) -> pl.Series:
        """Read the texts at ``positions`` in each of ``formats`` in turn (each on what the
        ones before left); the positions of the non-empty texts none of them read."""
        whole = positions.len() == self.text.len()
        pending = self.text if whole else self.text.gather(positions)
        for fmt in formats:
            keep = pending.is_not_null() & (pending != "")
            if not keep.all():
                pending, positions = pending.filter(keep), positions.filter(keep)
            if pending.len() == 0:
                break
            parsed, parsed_day = _parse_with_day(pending, fmt, self.tz)
            if pending.len() == self.text.len():
                self.utc, self.day = parsed, parsed_day
            else:
                self.utc = self.utc.scatter(positions, parsed)
                self.day = self.day.scatter(positions, parsed_day)
            left = parsed.is_null()
            pending, positions = pending.filter(left), positions.filter(left)
        keep = pending.is_not_null() & (pending != "")
        return positions.filter(keep)


#: The forms :mod:`sewer_rules.evaluation.times` accepts, whole texts only. The parser's own
#: formats read more (one-digit fields, a leap second, a ``+`` before the year): a text is
#: parsed only when it has one of the accepted forms.
_ISO_WHOLE = f"^(?:{ISO_PATTERN})$".replace("?P<", "?<")


def _accepted(text: pl.Series) -> pl.Series:
    """``text`` where it has an accepted form, null elsewhere (one pass, no copy when all do)."""
    ok = text.str.contains(_ISO_WHOLE)
    if ok.all():
        return text
    return pl.select(pl.when(ok).then(text)).to_series()


def _parse_with_day(text: pl.Series, fmt: str, tz: str) -> tuple[pl.Series, pl.Series]:
    """The instants read in one form and their calendar dates in town time.

    A naive time is town time: its date is its own (no conversion back from UTC)."""
    if fmt.endswith("%z"):
        utc = _parse_as(text, fmt, tz)
        return utc, utc.dt.convert_time_zone(tz).dt.date()
    naive = text.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)
    utc = naive.dt.replace_time_zone(
        tz, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")
    day = pl.select(pl.when(utc.is_not_null()).then(naive.dt.date())).to_series()
    return utc, day


def _parse_as(text: pl.Series, fmt: str, tz: str) -> pl.Series:
    if fmt.endswith("%z"):
        return text.str.replace(r"Z$", "+00:00").str.strptime(UTC, fmt, strict=False, cache=False)
    return (
        text.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)
        .dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
        .dt.convert_time_zone("UTC")
    )


def _naive(text: pl.Expr) -> pl.Expr:
    """The text read as a naive local time in any accepted form (null when it is none)."""
    naive = pl.coalesce(
        [text.str.strptime(pl.Datetime("us"), fmt, strict=False) for fmt in NAIVE_FORMATS]
    )
    without_offset = text.str.contains(_ISO_WHOLE) & ~text.str.contains(r"(?:Z|[+-][0-9:]{4,5})$")
    return pl.when(without_offset).then(naive)


def _date_message(col: str, tz: str, example: str = "") -> pl.Expr:
    """The message for an unreadable date: a local time that never happened, or not ISO 8601.

    A naive time inside the spring-forward gap (``2024-03-10T02:30`` in America/New_York) is
    valid ISO 8601 but names no instant: the message says so and shows how to write the time
    with its offset (the same clock time an hour later, with the offset then in force). Only
    the failing rows are ever evaluated here, so the extra parsing costs nothing on valid files.
    """
    text = _clean(col).fill_null("")
    naive = _naive(text)
    later = (naive + pl.duration(hours=1)).dt.replace_time_zone(tz, non_existent="null")
    offset_example = later.dt.strftime("%Y-%m-%dT%H:%M%:z")
    gap = format_text(
        "local time '{}' does not exist on {} in {} (the clocks moved forward): "
        "give the UTC offset, e.g. {}",
        text,
        naive.dt.date().cast(pl.String),
        pl.lit(tz),
        offset_example.fill_null("2024-03-10T03:30-04:00"),
    )
    hint = f", {example}" if example else ""
    bad = format_text(f"bad date '{{}}' (ISO 8601 expected{hint})", text)
    return pl.when(naive.is_not_null()).then(gap).otherwise(bad)


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
            _date_message("sampled_at", tz, "e.g. 2026-03-02T08:30"),
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
            _date_message("analyzed_at", tz),
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
