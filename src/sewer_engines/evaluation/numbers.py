"""Reported numbers read exactly, whatever their number of digits, with a vectorised fast path.

Laboratory systems and spreadsheets export floats as their shortest round-trip text
(``190.95000000000002``, ``1.2345678901234567e-05``): each is a valid reading of that exact
decimal (a laboratory writes decimals, and a limit is judged on the value written). The engine compares in polars decimals of one fixed scale, :data:`CANON`
(20 places, 18 integer digits). Two paths:

* **Fast** — a plain decimal of at most :data:`FAST_PLACES` places and :data:`FAST_DIGITS`
  integer digits is cast in bulk; every accepted unit conversion adds at most three places and
  six integer digits (``µg/l → mg/l`` × 0.001, ``MGD → gpd`` × 10⁶; checked by the tests), so
  its canonical value is exact in :data:`CANON`.
* **Exact fallback** — anything else that is a number (more places, exponent notation, huge
  magnitudes: rare) is read by :class:`decimal.Decimal`, exactly, once per distinct text. Its
  exact value (in the file's unit) is kept as text in the ``exact`` column, and in the decimal
  columns it is represented by a *comparison key*: the value itself when it fits, otherwise
  the midpoint of the two consecutive multiples of 10⁻¹⁹ around it. No limit lies strictly
  between those multiples (limits have at most :data:`LIMIT_PLACES` places), so every
  comparison of the key with a limit is the comparison of the exact value — exact, not
  rounded. Sums (daily and monthly permit averages) use the ``exact`` column, in fractions.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import polars as pl

from sewer_rules.evaluation.permit_limits import LIMIT_PLACES as RULES_LIMIT_PLACES
from sewer_rules.evaluation.reading import NUMBER

SCALE = 20
CANON = pl.Decimal(38, SCALE)
#: At most this many places in a limit's canonical value (the keys' guarantee).
LIMIT_PLACES = SCALE - 1
assert LIMIT_PLACES == RULES_LIMIT_PLACES, "the limits' places are the keys' guarantee"
FAST_PLACES = SCALE - 3
FAST_DIGITS = 38 - SCALE - 7
_BOUND = Fraction(10) ** (38 - SCALE - 1)  # keys stay below 10^17 in magnitude
_OUTSIDE = _BOUND + Fraction(1, 2)

#: Texts the fast cast may not read exactly: exponents, too many places, too many digits.
_NOT_FAST = rf"[eE]|\.\d{{{FAST_PLACES + 1}}}|\d{{{FAST_DIGITS + 1}}}"
_NUMBER = re.compile(NUMBER, re.ASCII)


def exact_number(text: str) -> Decimal | None:
    """The exact decimal a text writes, or None when it is not a finite number."""
    try:
        d = Decimal(text)
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def comparison_key(x: Fraction) -> Decimal:
    """``x`` itself when :data:`CANON` holds it; otherwise a value of :data:`CANON` that
    compares with every number of at most :data:`LIMIT_PLACES` places exactly as ``x`` does."""
    if abs(x) >= _BOUND:
        return _to_decimal(_OUTSIDE if x > 0 else -_OUTSIDE)
    scaled = x * 10**SCALE
    if scaled.denominator == 1:
        return _to_decimal(x)
    unit = Fraction(1, 10**LIMIT_PLACES)
    below = (x // unit) * unit
    return _to_decimal(below + unit / 2)


def _to_decimal(x: Fraction) -> Decimal:
    return (
        Decimal(x.numerator) / Decimal(x.denominator)
        if x.denominator != 1
        else Decimal(x.numerator)
    )


def read_numbers(text: pl.Series) -> tuple[pl.Series, pl.Series]:
    """``(number, exact)``: each text as a :data:`CANON` value (a comparison key for the
    rare texts the fast path cannot hold) and, for those only, its exact value as text.

    Null ``number`` means not a number. The fast path is one bulk cast; the fallback touches
    only the texts the fast cast cannot read exactly, each distinct text once.
    """
    number = text.cast(CANON, strict=False)
    slow = (text.str.contains(_NOT_FAST) | (number.is_null() & text.is_not_null())).fill_null(False)
    exact = pl.repeat(None, text.len(), dtype=pl.String, eager=True)
    if not slow.any():
        return number, exact
    idx = slow.arg_true()
    slow_text = text.gather(idx)
    table: dict[str, tuple[str | None, Decimal | None]] = {}
    for t in slow_text.unique().to_list():
        d = exact_number(t) if t is not None and _is_number(t) else None
        table[t] = (None, None) if d is None else (_plain(d), comparison_key(Fraction(d)))
    keys = pl.Series([table[t][1] for t in slow_text.to_list()], dtype=CANON)
    texts = pl.Series([table[t][0] for t in slow_text.to_list()], dtype=pl.String)
    return number.scatter(idx, keys), exact.scatter(idx, texts)


def _is_number(t: str) -> bool:
    return _NUMBER.match(t) is not None


def _plain(d: Decimal) -> str:
    """Exact decimal text without exponent (``1.2345678901234567e-05`` → ``0.0000123…``)."""
    return format(d, "f")
