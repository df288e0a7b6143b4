from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sewer_rules.analytes import UnknownAnalyte, resolve
from sewer_rules.units import UnitError, convert, format_decimal, parse_unit


@pytest.mark.parametrize(
    ("spelling", "symbol"),
    [
        ("mg/l", "mg/l"),
        ("mg/L", "mg/l"),
        ("ppm", "mg/l"),
        ("µg/l", "µg/l"),
        ("ug/L", "µg/l"),
        ("ppb", "µg/l"),
        ("°F", "°F"),
        ("degF", "°F"),
        ("F", "°F"),
        ("°C", "°C"),
        ("degC", "°C"),
        ("C", "°C"),
        ("SU", "SU"),
        ("gpd", "gpd"),
        ("gpm", "gpm"),
        ("MGD", "MGD"),
        ("inches", "in"),
        ("in/ft", "in/ft"),
        ("hp", "hp"),
    ],
)
def test_accepted_spellings(spelling: str, symbol: str) -> None:
    assert parse_unit(spelling).symbol == symbol


@pytest.mark.parametrize("spelling", ["mg/kg/x", "furlong", "", "mg"])
def test_unknown_units_are_errors(spelling: str) -> None:
    with pytest.raises(UnitError, match="unknown unit"):
        parse_unit(spelling)


def test_exact_conversions() -> None:
    assert convert(Decimal("2000"), "µg/l", "mg/l") == 2
    assert convert(Decimal("65.3"), "°C", "°F") == Fraction("149.54")
    assert convert(Decimal("150"), "°F", "°C") == Fraction(590, 9)
    assert convert(Decimal("1"), "gpm", "gpd") == 1440
    assert convert(Decimal("0.02"), "MGD", "gpd") == 20000
    assert format_decimal(convert(Decimal("0.5"), parse_unit("ppm").symbol, "mg/l")) == "0.5"


@given(st.decimals(min_value=-1000, max_value=100000, places=4, allow_nan=False))
def test_temperature_round_trip(value: Decimal) -> None:
    there = convert(value, "°C", "°F")
    assert convert(there, "°F", "°C") == Fraction(value)


@given(
    st.decimals(min_value=0, max_value=10**9, places=6, allow_nan=False),
    st.sampled_from([("µg/l", "mg/l"), ("gpm", "gpd"), ("MGD", "gpd"), ("gpm", "MGD")]),
)
def test_concentration_and_flow_round_trip(value: Decimal, pair: tuple[str, str]) -> None:
    a, b = pair
    assert convert(convert(value, a, b), b, a) == Fraction(value)


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("BOD", "bod5"),
        ("BOD5", "bod5"),
        ("Suspended Solids", "tss"),
        ("TSS", "tss"),
        ("O&G", "oil_grease"),
        ("FOG", "oil_grease"),
        ("Oil and Grease", "oil_grease"),
        ("Cyanide, total", "cyanide_total"),
        ("CN", "cyanide_total"),
        ("00310", "bod5"),
        ("00530", "tss"),
        ("pH", "ph"),
        ("Temperature", "temperature"),
        ("copper", "copper"),
        ("chromium", "chromium"),
        ("zinc", "zinc"),
        ("iron", "iron"),
        ("phenols", "phenols"),
        ("chloride", "chloride"),
        ("dissolved solids", "dissolved_solids"),
        ("color", "color"),
    ],
)
def test_analyte_aliases(spelling: str, name: str) -> None:
    assert resolve(spelling).name == name


def test_unknown_analyte() -> None:
    with pytest.raises(UnknownAnalyte):
        resolve("unobtainium")
