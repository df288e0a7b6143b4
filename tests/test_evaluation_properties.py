"""Properties of the engine that hold for any value (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_rules.findings import Status
from tests.case_kinds.result import evaluate

ANALYTES = st.sampled_from(
    [
        ("pH", "SU", 0, 14),
        ("cyanide", "mg/l", 0, 10),
        ("O&G", "mg/l", 0, 500),
        ("BOD", "mg/l", 0, 1000),
        ("Temperature", "°F", 0, 300),
        ("copper", "mg/l", 0, 10),
        ("TSS", "ppm", 0, 1000),
    ]
)


def _status(parameter: str, unit: str, value: Decimal) -> Status:
    ev = evaluate(
        {"date": "2026-03-02", "jurisdiction": "demo"},
        [{"parameter": parameter, "value": str(value), "unit": unit}],
    )
    return Status(ev.results.get_column("status")[0])


@settings(max_examples=60, deadline=None)
@given(ANALYTES, st.data())
def test_raising_a_concentration_never_lowers_the_severity(
    analyte: tuple[str, str, int, int], data: st.DataObject
) -> None:
    parameter, unit, lo, hi = analyte
    a = data.draw(st.decimals(min_value=lo, max_value=hi, places=3))
    b = data.draw(st.decimals(min_value=a, max_value=hi, places=3))
    if parameter == "pH":
        # pH is bounded on both sides: raising it can only matter above the middle of the range.
        a, b = max(a, Decimal(7)), max(b, Decimal(7))
    sa, sb = _status(parameter, unit, a), _status(parameter, unit, b)
    assert sb.rank <= sa.rank, f"{parameter} {a} → {sa}, {b} → {sb}"


@settings(max_examples=30, deadline=None)
@given(
    st.decimals(min_value=0, max_value=7, places=3), st.decimals(min_value=0, max_value=7, places=3)
)
def test_lowering_ph_never_lowers_the_severity(x: Decimal, y: Decimal) -> None:
    low, high = min(x, y), max(x, y)
    assert _status("pH", "SU", low).rank <= _status("pH", "SU", high).rank


@settings(max_examples=30, deadline=None)
@given(st.decimals(min_value=0, max_value=5000, places=1))
def test_micrograms_and_milligrams_agree(value: Decimal) -> None:
    assert _status("cyanide", "µg/l", value) == _status("cyanide", "mg/l", value / 1000)
