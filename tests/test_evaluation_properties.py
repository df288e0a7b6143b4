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


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=28),  # day of March 2026
            st.decimals(min_value=0, max_value=3, places=3),  # copper, mg/l
            st.booleans(),  # reported as a non-detect below that value
        ),
        min_size=1,
        max_size=40,
    ),
    st.decimals(min_value=Decimal("0.1"), max_value=2, places=2),
)
def test_monthly_average_is_the_mean_of_daily_means_exactly(
    results: list[tuple[int, Decimal, bool]], limit: Decimal
) -> None:
    """The monthly average of a permit limit (§ 196-16 E conditions), against a plain fraction
    computation: a day's value is the mean of its results; a non-detect counts between zero and
    its reporting limit; prohibited when even the low bound is above the limit."""
    from fractions import Fraction

    import polars as pl

    from sewer_engines.evaluation import evaluate_table
    from sewer_rules.evaluation.permit_limits import PermitLimits
    from sewer_rules.parameters import load_jurisdiction
    from sewer_rules.units import format_decimal

    raw = pl.DataFrame(
        {
            "row": list(range(2, len(results) + 2)),
            "sample_id": [f"S{i}" for i in range(len(results))],
            "sampled_at": [f"2026-03-{d:02d}T08:00" for d, _, _ in results],
            "sample_type": ["composite"] * len(results),
            "parameter": ["copper"] * len(results),
            "value": [f"<{v}" if nd else str(v) for _, v, nd in results],
            "unit": ["mg/l"] * len(results),
            "facility": ["F1"] * len(results),
        }
    )
    limits = PermitLimits.from_records(
        [
            {
                "facility": "F1",
                "parameter": "copper",
                "limit_type": "monthly_average",
                "value": str(limit),
                "unit": "mg/l",
            }
        ]
    )
    ev = evaluate_table(raw, load_jurisdiction("demo"), limits)
    days: dict[int, list[tuple[Fraction, Fraction]]] = {}
    for d, v, nd in results:
        days.setdefault(d, []).append((Fraction(0) if nd else Fraction(v), Fraction(v)))
    lo = sum((sum(x[0] for x in r) / len(r) for r in days.values()), Fraction(0)) / len(days)
    hi = sum((sum(x[1] for x in r) / len(r) for r in days.values()), Fraction(0)) / len(days)
    lim = Fraction(limit)
    expected = "prohibited" if lo > lim else "inconclusive" if hi > lim else "compliant"
    row = ev.monthly.row(0, named=True)
    assert (row["days_measured"], row["average"], row["status"]) == (
        len(days),
        format_decimal(lo),
        expected,
    )
