"""Exported decimals are read as written, exactly, whatever their number of digits:
only what is not a number is a row error, and every comparison with a limit stays exact."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sewer_io.check_io as check_io
from sewer_engines.evaluation import evaluate_table
from sewer_engines.evaluation.numbers import LIMIT_PLACES, comparison_key, read_numbers
from sewer_rules.analytes import ANALYTES
from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.units import KNOWN_CONVERSIONS, UNITS, conversion, registry

COLUMNS = ("sample_id", "sampled_at", "sample_type", "parameter", "value", "unit", "facility")
PARAMS = load_jurisdiction("demo")


def evaluate(rows: list[tuple[str, ...]], limits: PermitLimits | None = None):  # type: ignore[no-untyped-def]
    raw = pl.DataFrame(
        [dict(zip(COLUMNS, r, strict=True)) for r in rows], schema=dict.fromkeys(COLUMNS, pl.String)
    ).with_row_index("row", offset=2)
    return evaluate_table(raw.with_columns(pl.col("row").cast(pl.Int64)), PARAMS, limits)


def row(parameter: str, value: str, unit: str, sample: str = "S1", day: str = "2025-05-01"):  # type: ignore[no-untyped-def]
    stype = "grab" if parameter in ("pH", "Temperature") else "composite"
    return (sample, f"{day}T08:00", stype, parameter, value, unit, "F1")


def statuses(ev) -> dict[int, str]:  # type: ignore[no-untyped-def]
    return dict(ev.results.select("row", "status").iter_rows())


def test_float_exports_are_valid_readings_of_their_exact_decimal() -> None:
    ev = evaluate(
        [
            row("copper", "190.95000000000002", "ug/l"),
            row("zinc", "1.2345678901234567e-05", "mg/l"),
            row("BOD", "1.5E2", "mg/l"),
            row("TSS", "0.1000000000000000055511151231257827", "mg/l"),
        ]
    )
    assert ev.errors.height == 0
    assert ev.results.get_column("value_text").to_list()[:2] == [
        "190.95000000000002",
        "1.2345678901234567e-05",
    ]


def test_only_what_is_not_a_number_is_a_row_error() -> None:
    bad = ["seven", "1e", "inf", "nan", "1_000", "--1", "1.2.3", "0x10"]
    ev = evaluate([row("TSS", v, "mg/l") for v in bad])
    assert ev.results.height == 0
    assert ev.errors.get_column("field").to_list() == ["value"] * len(bad)
    assert all(m.startswith("unparseable value") for m in ev.errors.get_column("message"))


def test_comparisons_beyond_the_fast_scale_are_exact() -> None:
    ev = evaluate(
        [
            row("pH", "5.4999999999999999999999999", "SU"),  # below 5.5 by 1e-25: prohibited
            row("pH", "5.50000000000000000000000000001", "SU"),  # above: compliant
            row("pH", "5.5000000000000000000000000000", "SU"),  # exactly 5.5: compliant
            # 65.5555…56 °C is 150.00…008 °F: above the 150 °F limit only by the last digit
            row("Temperature", "65.55555555555555555555555555556", "C"),
            row("Temperature", "65.55555555555555555555555555555", "C"),
            row("Temperature", "150.00000000000000000000001", "F"),
            row("pH", "14.00000000000000000000001", "SU"),  # outside 0–14: an error
        ]
    )
    assert statuses(ev) == {
        2: "prohibited",
        3: "compliant",
        4: "compliant",
        5: "review",
        6: "compliant",
        7: "review",
    }
    assert ev.errors.select("row", "field").rows() == [(8, "value")]


def _limits(kind: str) -> PermitLimits:
    return PermitLimits.from_records(
        [
            {
                "facility": "F1",
                "parameter": "copper",
                "limit_type": kind,
                "value": "1",
                "unit": "mg/l",
            }
        ]
    )


def test_daily_mean_of_values_beyond_the_fast_scale_is_exact() -> None:
    # Their comparison keys sum to exactly 2 (a mean of 1, not above 1); the values sum to
    # 2 + 2e-25: the mean is above the daily maximum.
    ev = evaluate(
        [
            row("copper", "1.0000000000000000000000003", "mg/l"),
            row("copper", "0.9999999999999999999999999", "mg/l", sample="S2"),
        ],
        _limits("daily_maximum"),
    )
    permit = ev.findings.filter(pl.col("citation") == "§ 196-16 E")
    assert permit.get_column("status").to_list() == ["prohibited", "prohibited"]
    assert "daily value 1.0000000000000000000000001 mg/l" in permit.get_column("message")[0]


def test_monthly_average_of_values_beyond_the_fast_scale_is_exact() -> None:
    ev = evaluate(
        [
            row("copper", "1.0000000000000000000000003", "mg/l", day="2025-05-01"),
            row("copper", "0.9999999999999999999999999", "mg/l", sample="S2", day="2025-05-02"),
        ],
        _limits("monthly_average"),
    )
    (month,) = ev.monthly.to_dicts()
    assert month["status"] == "prohibited" and month["average"] == "1.0000000000000000000000001"


def test_a_permit_limit_finer_than_the_keys_guarantee_is_refused() -> None:
    fine = "0." + "0" * LIMIT_PLACES + "1"
    with pytest.raises(PermitLimitError, match="decimal places"):
        PermitLimits.from_records(
            [
                {
                    "facility": "F",
                    "parameter": "copper",
                    "limit_type": "daily_maximum",
                    "value": fine,
                    "unit": "mg/l",
                }
            ]
        )


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    x=st.fractions(min_value=-(10**18), max_value=10**18),
    limit=st.integers(-(10**36), 10**36),
)
def test_comparison_key_compares_with_any_limit_as_the_exact_value(x: Fraction, limit: int) -> None:
    lim = Fraction(limit, 10**LIMIT_PLACES)
    key = Fraction(comparison_key(x))
    assert (key > lim) == (x > lim) and (key < lim) == (x < lim) and (key == lim) == (x == lim)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None))
def test_any_finite_decimal_text_is_read(d: Decimal) -> None:
    texts = [str(d), format(d, "f"), format(d, "e")]
    number, _exact = read_numbers(pl.Series(texts, dtype=pl.String))
    for key in number.to_list():
        assert key is not None
        assert Fraction(key) == Fraction(comparison_key(Fraction(d)))


def test_known_conversions_are_pints() -> None:
    reg = registry()
    for (source, target), (factor, offset) in KNOWN_CONVERSIONS.items():
        src, dst = UNITS[source].pint_expr, UNITS[target].pint_expr
        zero = Fraction(reg.Quantity(Fraction(0), src).to(dst).magnitude)
        one = Fraction(reg.Quantity(Fraction(1), src).to(dst).magnitude)
        assert (one - zero, zero) == (factor, offset), (source, target)


def test_the_fast_path_holds_every_conversion_exactly() -> None:
    """numbers.FAST_PLACES and FAST_DIGITS assume that converting a result to its analyte's
    canonical unit adds at most 3 places and 6 integer digits."""
    for analyte in ANALYTES:
        canonical = analyte.canonical_unit
        for symbol, unit in UNITS.items():
            if unit.dimension != UNITS[canonical].dimension:
                continue
            conv = conversion(symbol, canonical)
            assert (conv.factor * 1000).denominator == 1, (symbol, canonical)
            assert (conv.offset * 1000).denominator == 1, (symbol, canonical)
            assert abs(conv.factor) <= 10**6 and abs(conv.offset) < 10**6


@pytest.mark.parametrize("slice_rows", [1, 3, 250_000])
def test_json_array_is_polars_json_whatever_the_slices(
    monkeypatch: pytest.MonkeyPatch, slice_rows: int
) -> None:
    monkeypatch.setattr(check_io, "SLICE_ROWS", slice_rows)
    frame = pl.DataFrame(
        {
            "row": [2, 3, 4, 5, 6],
            "text": ['a "quoted"\nline', "§ 196-19 C(3)", None, "tab\there", "\u2028"],
            "items": [[{"k": "v"}], [], None, [{"k": None}], [{"k": "x"}, {"k": "y"}]],
        }
    )
    written = check_io.json_array(frame)
    expected = io.BytesIO()
    frame.write_json(expected)
    assert json.loads(written) == json.loads(expected.getvalue())
    assert json.loads(check_io.json_array(frame.clear())) == []
