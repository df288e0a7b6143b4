"""Units of measure, through pint, with exact conversions.

Laboratories and meters write units many ways (``mg/l``, ``mg/L``, ``ppm``; ``°F``, ``degF``,
``F``). :func:`parse_unit` reads the spellings the town accepts and refuses anything else
(an unknown unit is an error, never a guess). Conversions are computed by pint over exact
fractions, so that ``2000 µg/l`` is exactly ``2 mg/l`` and ``65.3 °C`` is exactly
``149.54 °F``; comparisons with limits are then made in decimal.

Documented assumption (docs/interpretations.md): *parts per million by weight* equal
milligrams per litre for these waters (density 1 kg/l), and parts per billion equal
micrograms per litre. pint's own ``ppm`` is a pure number; it is redefined here.

Colour in platinum-cobalt units (PCU) is milligrams of platinum per litre by definition of the
unit, which is how the law's "color shall not exceed 50 parts per million" is read.

Pure spellings ``F`` and ``C`` mean degrees Fahrenheit and Celsius (not farad and coulomb):
in a wastewater report there is no other reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pint is imported when a conversion first needs it (start-up cost, below)
    import pint


class UnitError(ValueError):
    """A unit the town does not accept, or one that does not fit the quantity measured."""


@dataclass(frozen=True)
class Unit:
    """A unit the town accepts: its display symbol, pint expression and dimension."""

    symbol: str
    pint_expr: str
    dimension: str


UNITS: dict[str, Unit] = {
    u.symbol: u
    for u in (
        Unit("mg/l", "milligram / liter", "concentration"),
        Unit("µg/l", "microgram / liter", "concentration"),
        Unit("°F", "degree_Fahrenheit", "temperature"),
        Unit("°C", "degree_Celsius", "temperature"),
        Unit("SU", "standard_unit", "ph"),
        Unit("gpd", "gallon / day", "flow"),
        Unit("gpm", "gallon / minute", "flow"),
        Unit("MGD", "megagallon / day", "flow"),
        Unit("in", "inch", "length"),
        Unit("ft", "foot", "length"),
        Unit("acre", "acre", "area"),
        Unit("in/ft", "inch / foot", "slope"),
        Unit("hp", "horsepower", "power"),
        Unit("gal", "gallon", "volume"),
        Unit("min", "minute", "time"),
        Unit("h", "hour", "time"),
        Unit("day", "day", "time"),
        Unit("lb", "pound", "mass"),
        Unit("USD", "", "money"),
        Unit("USD/lb", "", "money_rate"),
        Unit("PCU", "milligram / liter", "concentration"),
        Unit("pCi/l", "picocurie / liter", "radioactivity"),
        Unit("1", "", "ratio"),
    )
}

#: Spellings accepted in files, lower-cased, mapped to a symbol of :data:`UNITS`.
ALIASES: dict[str, str] = {
    "mg/l": "mg/l",
    "mg/liter": "mg/l",
    "ppm": "mg/l",  # parts per million by weight = mg/l (documented assumption)
    "µg/l": "µg/l",
    "μg/l": "µg/l",  # Greek mu
    "ug/l": "µg/l",
    "ppb": "µg/l",  # parts per billion by weight = µg/l
    "°f": "°F",
    "degf": "°F",
    "deg f": "°F",
    "f": "°F",
    "°c": "°C",
    "degc": "°C",
    "deg c": "°C",
    "c": "°C",
    "su": "SU",
    "s.u.": "SU",
    "ph units": "SU",
    "gpd": "gpd",
    "gal/d": "gpd",
    "gal/day": "gpd",
    "gpm": "gpm",
    "gal/min": "gpm",
    "mgd": "MGD",
    "acre": "acre",
    "acres": "acre",
    "in": "in",
    "inch": "in",
    "inches": "in",
    "ft": "ft",
    "feet": "ft",
    "in/ft": "in/ft",
    "inch/ft": "in/ft",
    "inches per foot": "in/ft",
    "hp": "hp",
    "gal": "gal",
    "gallons": "gal",
    "min": "min",
    "minutes": "min",
    "h": "h",
    "hours": "h",
    "day": "day",
    "days": "day",
    "lb": "lb",
    "usd": "USD",
    "usd/lb": "USD/lb",
    "pcu": "PCU",
    "pt-co": "PCU",
    "pci/l": "pCi/l",
}


@cache
def registry() -> pint.UnitRegistry[Fraction]:
    """The pint registry, computing over exact fractions."""
    import pint

    try:  # pint's own cache of its parsed definitions makes start-up ~10x faster
        reg: pint.UnitRegistry[Fraction] = pint.UnitRegistry(
            non_int_type=Fraction, autoconvert_offset_to_baseunit=True, cache_folder=":auto:"
        )
    except OSError:
        reg = pint.UnitRegistry(non_int_type=Fraction, autoconvert_offset_to_baseunit=True)
    reg.define("standard_unit = [ph_scale] = SU")
    return reg


def parse_unit(text: str) -> Unit:
    """The accepted unit a file's spelling stands for; :class:`UnitError` otherwise."""
    key = " ".join(text.strip().lower().split())
    symbol = ALIASES.get(key)
    if symbol is None:
        raise UnitError(f"unknown unit {text.strip()!r}")
    return UNITS[symbol]


@dataclass(frozen=True)
class Conversion:
    """``target = value × factor + offset``, exact; ``exact_decimal`` when both terminate."""

    factor: Fraction
    offset: Fraction

    def apply(self, value: Fraction) -> Fraction:
        return value * self.factor + self.offset

    @property
    def exact_decimal(self) -> bool:
        return _terminates(self.factor) and _terminates(self.offset)

    @property
    def decimal_factor(self) -> Decimal:
        return _to_decimal(self.factor)

    @property
    def decimal_offset(self) -> Decimal:
        return _to_decimal(self.offset)


#: The conversions laboratory results need, exact, so that ``sewer-use check`` starts without
#: pint (importing it and building its registry is a quarter of a second, a tenth of the whole
#: command on a million rows). Each entry is checked against pint by the tests.
KNOWN_CONVERSIONS: dict[tuple[str, str], tuple[Fraction, Fraction]] = {
    ("µg/l", "mg/l"): (Fraction(1, 1000), Fraction(0)),
    ("mg/l", "µg/l"): (Fraction(1000), Fraction(0)),
    ("PCU", "mg/l"): (Fraction(1), Fraction(0)),
    ("mg/l", "PCU"): (Fraction(1), Fraction(0)),
    ("°C", "°F"): (Fraction(9, 5), Fraction(32)),
    ("°F", "°C"): (Fraction(5, 9), Fraction(-160, 9)),
    ("gpm", "gpd"): (Fraction(1440), Fraction(0)),
    ("MGD", "gpd"): (Fraction(1_000_000), Fraction(0)),
    ("gpd", "gpm"): (Fraction(1, 1440), Fraction(0)),
    ("gpd", "MGD"): (Fraction(1, 1_000_000), Fraction(0)),
}


@cache
def conversion(source: str, target: str) -> Conversion:
    """The exact linear map from unit ``source`` to unit ``target`` (symbols of :data:`UNITS`)."""
    src, dst = UNITS[source], UNITS[target]
    if src.dimension != dst.dimension:
        raise UnitError(f"cannot convert {source} to {target}")
    if src.symbol == dst.symbol or not src.pint_expr:
        return Conversion(Fraction(1), Fraction(0))
    if (source, target) in KNOWN_CONVERSIONS:
        return Conversion(*KNOWN_CONVERSIONS[source, target])
    reg = registry()
    zero = reg.Quantity(Fraction(0), src.pint_expr).to(dst.pint_expr).magnitude
    one = reg.Quantity(Fraction(1), src.pint_expr).to(dst.pint_expr).magnitude
    return Conversion(Fraction(one) - Fraction(zero), Fraction(zero))


def convert(value: Decimal | Fraction, source: str, target: str) -> Fraction:
    """``value`` in unit ``source`` expressed exactly in unit ``target``."""
    return conversion(source, target).apply(Fraction(value))


def terminates(x: Fraction) -> bool:
    """Whether a fraction has an exact (finite) decimal form."""
    return _terminates(x)


def _terminates(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def _to_decimal(x: Fraction) -> Decimal:
    if not _terminates(x):
        raise UnitError(f"{x} has no exact decimal form")
    return Decimal(x.numerator) / Decimal(x.denominator)


def fraction_to_decimal(x: Fraction, places: int = 6) -> Decimal:
    """Display form of an exact fraction: exact when it terminates, else rounded to ``places``."""
    if _terminates(x):
        return _normalize(Decimal(x.numerator) / Decimal(x.denominator))
    q = Decimal(x.numerator) / Decimal(x.denominator)
    return _normalize(q.quantize(Decimal(1).scaleb(-places)))


def _normalize(d: Decimal) -> Decimal:
    """Drop trailing zeros without switching to exponent notation."""
    n = d.normalize()
    return n.quantize(Decimal(1)) if n == n.to_integral() else n


def approx_decimal(x: Fraction) -> str:
    """A computed value for display: exact when its decimal terminates, else ``≈`` and 6 places
    (the comparisons themselves stay exact)."""
    text = format_decimal(x)
    return text if _terminates(x) else f"≈{text}"


def format_decimal(d: Decimal | Fraction) -> str:
    """A decimal as people write it: ``5.5``, ``2000``, ``0.204`` (no exponent)."""
    dec = fraction_to_decimal(d) if isinstance(d, Fraction) else _normalize(d)
    return format(dec, "f")


@dataclass(frozen=True)
class Measurement:
    """A measured quantity as given, and the same quantity exactly in the unit of a limit."""

    value: Fraction
    unit: str
    converted: Fraction
    target: str

    def shown(self) -> str:
        """``0.75 hp``, or ``12.7 mm (= 0.5 in)`` when the units differ."""
        text = f"{format_decimal(self.value)} {self.unit}"
        if self.unit != self.target:
            text += f" (= {format_decimal(self.converted)} {self.target})"
        return text


def unit_of(spelling: str, dimension: str, what: str) -> Unit:
    """The accepted unit ``spelling`` stands for, which must measure ``dimension``.

    Errors are :class:`UnitError` naming ``what`` (e.g. "discharge flow").
    """
    try:
        unit = parse_unit(spelling)
    except UnitError as e:
        raise UnitError(f"{what}: {e}") from None
    if unit.dimension != dimension:
        raise UnitError(f"{what}: {unit.symbol} is not a unit of {dimension}")
    return unit


def measure_in(
    value: Decimal | Fraction, unit_text: str, dimension: str, target: str, what: str
) -> Measurement:
    """Read a non-negative measurement of ``dimension`` and express it exactly in ``target``.

    Errors are :class:`UnitError` naming ``what`` (e.g. "grinder motor rating"): an unknown unit,
    a unit of another dimension, a negative amount.
    """
    unit = unit_of(unit_text, dimension, what)
    if value < 0:
        raise UnitError(f"{what} cannot be negative ({value} {unit.symbol})")
    return Measurement(Fraction(value), unit.symbol, convert(value, unit.symbol, target), target)
