"""The compiled judgement (:mod:`sewer_engines.monitoring.native`) against the numpy paths.

The sequential judgement gives the readings, counts and normal-operation marks of the
vectorised passes and of the one-reading-at-a-time reference, under dated rules that split a
series (windows, multiples, rules not in force). The compiled reader of meter files is
checked against the general reader in ``test_native_reader.py``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.monitoring import native
from sewer_engines.monitoring.kernel import WindowRule
from sewer_engines.monitoring.normal import by_passes, normal_exceedances
from sewer_engines.monitoring.series import Series, cadence

from .test_slugs_engine import MAX_GAP, MIN, meter_series, reference

# --- the sequential judgement ------------------------------------------------------------------


@st.composite
def dated_rules(draw: st.DrawFn, n: int) -> list[WindowRule]:
    """The series cut into up to four periods, each with its window, multiple (p/q) and
    whether a multiple is in force — as dated parameters cut a series."""
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=3))) | {0, n})
    rules = []
    for a, b in itertools.pairwise(cuts):
        window = draw(st.sampled_from([0, 6, 15, 40])) * MIN
        p, q = draw(st.sampled_from([(5, 1), (5, 1), (3, 1), (11, 2), (0, 1)]))
        rules.append(WindowRule(a, b, window, p, q, in_force=draw(st.booleans()) or p == 5))
    return rules


def _equal(a, b) -> None:  # type: ignore[no-untyped-def]
    assert a.hits.tolist() == b.hits.tolist()
    assert (a.judged, a.unjudged) == (b.judged, b.unjudged)
    if a.hits.size:
        assert a.normal is not None and b.normal is not None
        assert a.normal.tolist() == b.normal.tolist()
    else:
        assert a.normal is None and b.normal is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), meter_series(max_size=150), st.sampled_from([1, 10**14, -1]))
def test_the_compiled_judgement_is_that_of_the_passes(data, series, factor) -> None:  # type: ignore[no-untyped-def]
    """Under dated rules (several windows and multiples, rules not in force, no window), with
    values near 64 bits and negative ones: the same readings, counts and normal marks."""
    t, values = series
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    v = s.v * factor
    rules = data.draw(dated_rules(len(t)))
    tt = np.asarray(t, dtype=np.int64)
    compiled = native.normal_judgement(tt, v, rules)
    assert compiled is not None
    _equal(compiled, by_passes(tt, v, cadence(tt, MAX_GAP), rules))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_series(max_size=150), st.sampled_from([6, 15, 40]))
def test_the_compiled_judgement_is_the_rule_read_literally(series, window_minutes) -> None:  # type: ignore[no-untyped-def]
    t, values = series
    window = window_minutes * MIN
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    got = native.normal_judgement(
        np.asarray(t, dtype=np.int64), s.v, [WindowRule(0, len(t), window, 5, 1)]
    )
    assert got is not None
    assert got.hits.tolist() == hits
    assert (got.judged, got.unjudged) == (judged, unjudged)


def test_what_the_compiled_loop_cannot_hold_goes_to_the_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python integers (values beyond 64 bits), overlapping rules, a factor beyond 31 bits,
    or ``SEWER_USE_NATIVE=0``: None, and :func:`normal_exceedances` takes the passes."""
    t = np.arange(100, dtype=np.int64) * MIN
    v = np.full(100, 10, dtype=np.int64)
    v[60:80] = 100
    rule = [WindowRule(0, 100, 30 * MIN, 5, 1)]
    assert native.normal_judgement(t, v, rule) is not None
    assert native.normal_judgement(t, v.astype(object) * 10**30, rule) is None
    overlapping = [WindowRule(0, 60, 30 * MIN, 5, 1), WindowRule(50, 100, 30 * MIN, 5, 1)]
    assert native.normal_judgement(t, v, overlapping) is None
    assert native.normal_judgement(t, v, [WindowRule(0, 100, 30 * MIN, 2**31, 1)]) is None
    passes = normal_exceedances(t, v.astype(object) * 10**30, cadence(t, MAX_GAP), rule)
    assert passes.passes >= 2 and passes.hits.tolist() == list(range(60, 80))
    monkeypatch.setenv("SEWER_USE_NATIVE", "0")
    assert native.normal_judgement(t, v, rule) is None
    assert normal_exceedances(t, v, cadence(t, MAX_GAP), rule).passes >= 2
