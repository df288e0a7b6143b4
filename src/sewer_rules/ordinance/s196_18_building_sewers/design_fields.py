"""Reading the fields of a building sewer design: ids, elevations, sources, lifts, lengths.

Each reader takes one field of the JSON (unvalidated input) and returns its exact value, or
raises :class:`DesignError` naming the field, so that the applicant can correct it: elevations
are read as decimals, diameters and slopes as exact fractions in the unit the law states
(§ 196-18 F: inches, inches per foot).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from sewer_rules.json_input import JsonObject, JsonValue
from sewer_rules.units import UnitError, parse_unit, registry

from .vocabulary import LIFTS, SANITARY_SOURCES, SURFACE_OR_GROUNDWATER_SOURCES

_QUANTITY = re.compile(
    r"^\s*(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s*/\s*\d+)?)\s*(?P<unit>.*?)\s*$"
)
_SLOPE_UNITS = {
    "%": "percent",
    "percent": "percent",
    "ft/ft": "foot / foot",
    "in/in": "inch / inch",
}


class DesignError(ValueError):
    """A design description that cannot be read; ``field`` is the JSON path at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Length:
    """A length or slope as written, and its exact value in the unit the law states."""

    text: str
    value: Fraction
    unit: str

    def __str__(self) -> str:
        return self.text


def refuse_unknown(raw: JsonObject, allowed: frozenset[str], where: str) -> None:
    """A misspelt key would silently drop a value the checks need: every unknown key is refused."""
    for key in raw:
        if key not in allowed:
            field = f"{where}.{key}" if where else str(key)
            raise DesignError(
                field, f"unknown field (expected one of: {', '.join(sorted(allowed))})"
            )


def read_list(data: JsonObject, key: str) -> Sequence[JsonValue]:
    """A required, non-empty list (a design without buildings or building sewers checks nothing)."""
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise DesignError(key, "required: a non-empty list")
    return value


def read_id(raw: JsonObject, where: str) -> str:
    """The id a building or building sewer is named by in the checks' messages."""
    value = raw.get("id")
    if not isinstance(value, str) or not value.strip():
        raise DesignError(f"{where}.id", "required: a non-empty text id")
    return value


def require_unique(ids: list[str], where: str) -> None:
    """Ids are how buildings name their building sewer: two alike would be ambiguous."""
    for value, count in Counter(ids).items():
        if count > 1:
            raise DesignError(where, f"id {value!r} appears {count} times")


def read_elevation(raw: JsonObject, key: str, where: str) -> Decimal | None:
    """Feet as an exact decimal (a JSON number or a decimal string); None when not given."""
    field = f"{where}.{key}" if where else key
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        raise DesignError(field, f"a number of feet was expected, not {value!r}")
    if isinstance(value, float):
        value = repr(value)
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise DesignError(field, f"a number of feet was expected, not {value!r}") from None
    if not number.is_finite():
        raise DesignError(field, f"a number of feet was expected, not {value!r}")
    return number


def read_sources(raw: JsonObject, key: str, field: str) -> tuple[str, ...] | None:
    """The connected sources, each one of the contract's words (§ 196-18 H checks them)."""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise DesignError(field, "must be a list of source names")
    known = {**SANITARY_SOURCES, **SURFACE_OR_GROUNDWATER_SOURCES}
    for i, s in enumerate(value):
        if s not in known:
            raise DesignError(
                f"{field}[{i}]", f"unknown source {s!r} (known: {', '.join(sorted(known))})"
            )
    return tuple(value)


def read_lift(raw: JsonObject, where: str) -> str | None:
    """The declared lift, one of :data:`~.vocabulary.LIFTS`, or None (§ 196-18 G)."""
    field = f"{where}.lift" if where else "lift"
    value = raw.get("lift")
    if value is None:
        return None
    if not isinstance(value, str) or value not in LIFTS:
        raise DesignError(
            field, f"unknown lift {value!r} (known: {', '.join(sorted(LIFTS))}, or null)"
        )
    return value


def split_quantity(value: JsonValue, field: str, example: str) -> tuple[Fraction, str, str]:
    """(exact number, unit as written, text) of ``"1/4 in/ft"``; fractions are read exactly."""
    if isinstance(value, bool) or not isinstance(value, str):
        raise DesignError(field, f"required: a number with its unit, e.g. {example!r}")
    m = _QUANTITY.match(value)
    if not m:
        raise DesignError(field, f"{value!r} is not a number with a unit, e.g. {example!r}")
    num, unit = m["num"].replace(" ", ""), m["unit"]
    if not unit:
        raise DesignError(field, f"{value!r} has no unit, e.g. {example!r}")
    if "/" in num:
        top, bottom = num.split("/")
        if int(bottom) == 0:
            raise DesignError(field, f"{value!r} divides by zero")
        number = Fraction(Decimal(top)) / int(bottom)
    else:
        number = Fraction(Decimal(num))
    return number, unit, value.strip()


def read_diameter(value: JsonValue, field: str) -> Length:
    """A positive pipe diameter in a unit of length (compared in inches by § 196-18 F)."""
    number, unit_text, text = split_quantity(value, field, "4 in")
    try:
        unit = parse_unit(unit_text)
    except UnitError as e:
        raise DesignError(field, str(e)) from None
    if unit.dimension != "length":
        raise DesignError(field, f"{unit.symbol} is not a unit of length")
    if number <= 0:
        raise DesignError(field, f"a pipe diameter must be positive, not {text!r}")
    return Length(text, number, unit.symbol)


def read_slope(value: JsonValue, field: str) -> Length:
    """A non-negative slope: ``%``, ``ft/ft`` and ``in/in`` converted exactly to in/ft, another
    unit of slope kept as written (the check converts it)."""
    number, unit_text, text = split_quantity(value, field, "1/4 in/ft")
    if number < 0:
        raise DesignError(field, f"a slope must not be negative, not {text!r}")
    key = " ".join(unit_text.lower().split())
    if key in _SLOPE_UNITS:
        converted = registry().Quantity(number, _SLOPE_UNITS[key]).to("inch / foot").magnitude
        number = Fraction(converted)
        return Length(text, number, "in/ft")
    try:
        unit = parse_unit(unit_text)
    except UnitError:
        raise DesignError(
            field, f"unknown slope unit {unit_text!r} (use in/ft, % or ft/ft)"
        ) from None
    if unit.dimension != "slope":
        raise DesignError(field, f"{unit.symbol} is not a unit of slope (use in/ft, % or ft/ft)")
    return Length(text, number, unit.symbol)
