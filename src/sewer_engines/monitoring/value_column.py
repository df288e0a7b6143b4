"""The value column of a meter file: each value's text, whether it is missing, the decimal
places it needs, and its row error code.

Values are read as the decimals written, never through a binary float, whatever the number of
digits (the readings' hygiene: :mod:`.readings`). Here only the text is checked: the places
each value needs (trailing zeros dropped, an exponent applied) give the series its scale, and
the value itself is read once the series is known (:mod:`.scaled_values`). Empty cells and the
:data:`MISSING_WORDS` are missing values (a gap, not an error); any other text that is not a
finite decimal is code 9, and a number beyond :data:`MAX_DIGITS` digits or
:data:`MAX_DECIMALS` decimal places is code 10.
"""

from __future__ import annotations

import polars as pl

from .columns import column_text

MAX_DECIMALS = 400  # more than any binary float needs (5e-324 has 340); see the docstring
MAX_DIGITS = 400  # digits before the decimal point (1.8e308, the largest float, has 309)
MISSING_WORDS = ("", "na", "n/a", "nan", "null", "none")


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


def parse_values(name: str, dtype: pl.DataType) -> tuple[pl.Expr, list[pl.Expr], pl.Expr]:
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
        text = column_text(name, dtype).alias("__v")
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
