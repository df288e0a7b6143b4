"""A series' values as exact scaled integers: ``value × 10**places``, converted between units.

Each series is scaled by the most decimal places any of its values needs; the scaled values
are int64 when they fit, else Python integers (:mod:`.series`). Values are read by polars'
decimal parser (128 bits) where they fit 38 digits, else through Python fractions; a unit
conversion multiplies by the factor and adds the offset of :mod:`sewer_rules.units`, both exact
decimals, in int64 when the result cannot overflow.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from sewer_rules.units import UnitError

from .series import I64

#: A scaled value this large or larger (in magnitude) is kept as a Python integer: below it,
#: int64 with room to spare.
FIT = 1 << 62


def exact_decimal(x: Fraction) -> tuple[int, int]:
    """``x`` as ``(integer, places)`` with ``x = integer / 10**places``; UnitError if it
    does not terminate."""
    places = 0
    while x.denominator != 1:
        x *= 10
        places += 1
        if places > 30:
            raise UnitError(f"{x} has no exact decimal form")
    return int(x), places


def decimals_of(text: pl.Series, places: int) -> pl.Series | None:
    """Each value's text as an exact decimal of ``places`` places (polars' decimal parser, 128
    bits), or None when one does not fit 38 digits (or places exceed 30)."""
    if places > 30:
        return None
    wide = text.cast(pl.Decimal(38, places), strict=False)
    return wide if wide.null_count() == 0 else None


def scaled_values(text: pl.Series, places: int) -> npt.NDArray[Any]:
    """Each value as the exact integer ``value × 10**places``: int64 where every value fits
    (polars' decimal parser, 128 bits, then a checked cast), else Python integers. ``text``:
    the values' texts, or their exact decimals (:func:`.compact_rows.compact_now`), which may carry more
    places than ``places`` but no value needs more (taking them to ``places`` drops zeros)."""
    exact: pl.Series | None
    if isinstance(text.dtype, pl.Decimal):
        same = text.dtype.scale == places
        exact = text if same else text.cast(pl.Decimal(38, places))
    else:
        exact = decimals_of(text, places)
    if exact is not None:
        wide = exact.to_physical()
        narrow = wide.cast(pl.Int64, strict=False)
        if narrow.null_count() == 0:
            return narrow.to_numpy().astype(np.int64, copy=False)
        return np.array(wide.to_list(), dtype=object)
    unit = 10**places
    return np.array([int(Fraction(x) * unit) for x in text.to_list()], dtype=object)


def converted(
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
    small = m.dtype != object and float(est.max(initial=0.0)) < float(FIT) / 4
    if small:
        v = m * factor * np.power(10, np.minimum(shift, 18)).astype(np.int64)
    else:
        power = np.array([10 ** int(x) for x in range(int(shift.max(initial=0)) + 1)], dtype=object)
        v = m.astype(object) * factor.astype(object) * power[shift]
    for u, (o_int, o_places) in offsets.items():
        v[units == u] += o_int * 10 ** (scale - o_places)
    return np.asarray(v)
