"""The excursion engine against the rules read one reading at a time.

:func:`sewer_rules.monitoring.excursions.excursions_of` judges each reading of a pH or
temperature series against the article's limits in force on its date (§ 196-19 C(3), D(8),
D(1)), in fractions; :func:`sewer_engines.monitoring.excursions.excursions` compares scaled
integers on whole arrays. Hypothesis draws series around the limits (exactly at 5.5, 9.5 and
150 °F often, where a reading is lawful), in °F and in °C (the limit converted exactly), with
gaps, and both must give the same excursions, counts and parameters used.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_engines.monitoring.excursions import excursions
from sewer_engines.monitoring.series import Series, logging_cadence
from sewer_rules.monitoring.excursions import excursions_of
from sewer_rules.monitoring.instants import US_PER_MINUTE
from sewer_rules.monitoring.slugs import Reading
from sewer_rules.parameters import load_jurisdiction

PARAMS = load_jurisdiction("wappinger")
TZ = PARAMS.timezone
T0 = 1_772_341_200_000_000  # 2026-03-01T00:00:00-05:00

GRIDS = {
    ("ph", "SU"): ["7", "7", "7", "5.5", "5.49", "5", "9.5", "9.51", "12", "5.50"],
    ("temperature", "°F"): ["70", "70", "150", "150.01", "151", "149.99", "200"],
    ("temperature", "°C"): ["20", "20", "65", "65.55", "65.56", "65.6", "66", "90"],
}


@st.composite
def series(draw: st.DrawFn) -> tuple[str, str, list[int], list[str]]:
    parameter, unit = draw(st.sampled_from(sorted(GRIDS)))
    n = draw(st.integers(0, 120))
    steps = draw(
        st.lists(
            st.sampled_from([US_PER_MINUTE] * 6 + [2 * US_PER_MINUTE, 9 * US_PER_MINUTE]),
            min_size=n,
            max_size=n,
        )
    )
    t, at = [], T0
    for step in steps:
        t.append(at)
        at += step
    values = draw(st.lists(st.sampled_from(GRIDS[(parameter, unit)]), min_size=n, max_size=n))
    return parameter, unit, t, values


@settings(max_examples=200, deadline=None)
@given(series())
def test_engine_matches_the_rules_read_one_reading_at_a_time(data) -> None:
    parameter, unit, t, values = data
    s = Series.from_decimals("m", parameter, unit, t, values)
    got = excursions(s, PARAMS, TZ, logging_cadence(s.t, PARAMS, TZ))
    readings = [Reading(at, Decimal(v)) for at, v in zip(t, values, strict=True)]
    rule = excursions_of(readings, parameter, unit, PARAMS, TZ)
    assert got.excursions == rule.excursions
    assert (got.judged, got.unjudged) == (rule.judged, rule.unjudged)
    assert got.used == rule.used
