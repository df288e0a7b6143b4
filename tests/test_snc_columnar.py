"""The columnar (A)/(B) counts of the office equal the reference ``determine`` (row by row)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.evaluation.numbers import CANON
from sewer_engines.federal.snc_columnar import determine_table
from sewer_engines.federal.snc_inputs import measurements
from sewer_rules.federal.snc_chronic_and_trc import Limit
from sewer_rules.federal.snc_determination import determine
from sewer_rules.federal.snc_periods import parse_period
from sewer_rules.parameters import load_jurisdiction

PARAMS = load_jurisdiction("wappinger")
FAR = date(2099, 12, 31)
# analyte, limit type, limit: TRC 1.2 (copper), 1.4 (bod5), none (pH, a minimum)
SERIES = (
    ("copper", "daily_maximum", Decimal("0.17")),
    ("bod5", "daily_maximum", Decimal("250")),
    ("ph", "instantaneous_minimum", Decimal("6.0")),
    ("copper", "monthly_average", Decimal("0.1")),
)


def _limits(facilities: list[str], split: date | None) -> list[Limit]:
    out = []
    for f in facilities:
        for analyte, kind, value in SERIES:
            if split is None or kind == "monthly_average":
                out.append(Limit(f, analyte, kind, value, date(2020, 1, 1), FAR, str(value)))
            else:  # two versions of the limit: the first ends the day before ``split``
                out.append(Limit(f, analyte, kind, value, date(2020, 1, 1), split, str(value)))
                tighter = value * Decimal("0.9")
                out.append(Limit(f, analyte, kind, tighter, split + timedelta(1), FAR, ""))
    return out


def _frame(rows: list[tuple[str, str, Decimal, bool, date]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "row": list(range(2, len(rows) + 2)),
            "sample_id": [f"S{i}" if i % 3 else None for i in range(len(rows))],
            "facility": [r[0] for r in rows],
            "analyte": [r[1] for r in rows],
            "canon": [r[2] for r in rows],
            "nd": [r[3] for r in rows],
            "day": [r[4] for r in rows],
        },
        schema={
            "row": pl.Int64,
            "sample_id": pl.String,
            "facility": pl.String,
            "analyte": pl.String,
            "canon": CANON,
            "nd": pl.Boolean,
            "day": pl.Date,
        },
    )


def _value(analyte: str) -> st.SearchStrategy[Decimal]:
    """Values on and around the boundaries: the limit, limit × 1.2 / 1.4, a hair either side."""
    lim = {"copper": Decimal("0.17"), "bod5": Decimal("250"), "ph": Decimal("6.0")}[analyte]
    hair = Decimal("0.000001")
    edges = [lim, lim * Decimal("1.2"), lim * Decimal("1.4"), lim * Decimal("0.9")]
    edges += [e + d for e in list(edges) for d in (hair, -hair)]
    return st.one_of(
        st.sampled_from(edges),
        st.decimals(Decimal(0), lim * 2, places=3, allow_nan=False, allow_infinity=False),
    )


@st.composite
def series(draw: Any) -> tuple[pl.DataFrame, list[Limit], str, bool]:
    facilities = ["F1", "F2"][: draw(st.integers(1, 2))]
    split = draw(st.one_of(st.none(), st.dates(date(2026, 1, 1), date(2026, 12, 31))))
    rows = []
    for _ in range(draw(st.integers(0, 60))):
        analyte = draw(st.sampled_from(["copper", "bod5", "ph"]))
        rows.append(
            (
                draw(st.sampled_from(facilities)),
                analyte,
                draw(_value(analyte)),
                draw(st.booleans()) and draw(st.booleans()),
                draw(st.dates(date(2025, 10, 1), date(2027, 1, 31))),
            )
        )
    rolling = draw(st.booleans())
    period = draw(st.sampled_from(["2026H1", "2026", "2026-01..2026-12"]))
    return _frame(rows), _limits(facilities, split), period, rolling


def _both(frame: pl.DataFrame, limits: list[Limit], period: str, rolling: bool) -> None:
    window = parse_period(period)
    ref = determine(measurements(frame), limits, window, PARAMS, rolling=rolling)
    fast = determine_table(frame, limits, window, PARAMS, rolling=rolling)
    assert fast.as_dict() == ref.as_dict()
    for a, b in zip(fast.determinations, ref.determinations, strict=True):
        for wa, wb in zip(a.windows, b.windows, strict=True):  # every window's lists
            assert wa.counted == wb.counted
            assert (wa.measurements, wa.exceeding, wa.trc_exceeding) == (
                wb.measurements,
                wb.exceeding,
                wb.trc_exceeding,
            )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(series())
def test_columnar_equals_determine_on_generated_series(case: Any) -> None:
    _both(*case)


def _exact(analyte: str, n: int, hits: int, hit: Decimal, miss: Decimal) -> pl.DataFrame:
    days = [date(2026, 1, 1) + timedelta(days=i) for i in range(n)]
    return _frame(
        [("F1", analyte, hit if i < hits else miss, False, d) for i, d in enumerate(days)]
    )


def test_exactly_66_percent_is_chronic_and_65_is_not() -> None:
    limits = _limits(["F1"], None)
    for hits, chronic in ((66, True), (65, False)):
        frame = _exact("copper", 100, hits, Decimal("0.171"), Decimal("0.17"))
        _both(frame, limits, "2026H1", False)
        fast = determine_table(frame, limits, parse_period("2026H1"), PARAMS, rolling=False)
        daily = next(
            d
            for d in fast.determinations
            if d.limit.analyte == "copper" and d.limit.limit_type == "daily_maximum"
        )
        assert ("A" in daily.criteria) is chronic
        assert daily.windows[0].exceeding == hits


def test_exactly_33_percent_at_limit_times_trc_is_b() -> None:
    limits = _limits(["F1"], None)
    cases = (
        ("copper", Decimal("0.204"), Decimal("0.203999")),  # 0.17 × 1.2, exactly
        ("bod5", Decimal("350"), Decimal("349.999")),  # 250 × 1.4, exactly
    )
    for analyte, at_trc, below in cases:
        for hits, met in ((33, True), (32, False)):
            frame = _exact(analyte, 100, hits, at_trc, below)
            _both(frame, limits, "2026H1", False)
            fast = determine_table(frame, limits, parse_period("2026H1"), PARAMS, rolling=False)
            d = next(
                d
                for d in fast.determinations
                if d.limit.analyte == analyte and d.limit.limit_type == "daily_maximum"
            )
            assert d.windows[0].trc_exceeding == hits
            assert ("B" in d.criteria) is met


def test_ph_is_never_judged_by_trc() -> None:
    limits = _limits(["F1"], None)
    frame = _exact("ph", 10, 10, Decimal("1.0"), Decimal("7"))
    _both(frame, limits, "2026H1", False)
    fast = determine_table(frame, limits, parse_period("2026H1"), PARAMS, rolling=False)
    ph = next(d for d in fast.determinations if d.limit.analyte == "ph")
    assert ph.trc is None and ph.windows[0].trc_exceeding is None
    assert ph.criteria == ["A"]
    assert all(c.at_or_above_trc is None for c in ph.windows[0].counted)


def test_a_period_without_any_result_is_determined_the_same_both_ways() -> None:
    """Limits in force and nothing measured: both readings give every limit its determination,
    none in SNC — from a table without rows, and from one without even columns."""
    limits = _limits(["F1"], None)
    for frame in (pl.DataFrame(), _frame([])):
        _both(frame, limits, "2026H1", False)
        fast = determine_table(frame, limits, parse_period("2026H1"), PARAMS, rolling=False)
        assert fast.determinations and not any(d.snc for d in fast.determinations)
