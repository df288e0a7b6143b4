"""Baselines "during normal operation": the vectorised passes against the sequential rule.

The reference is :func:`tests.test_slugs_engine.reference`, one reading at a time in
Fractions. Here: the magnitudes that change the engine's arithmetic (int64, 32-bit limbs with
a floating-point screen, Python integers), the cases that need many passes, and the count of
passes the module docstring of :mod:`sewer_engines.monitoring.normal` promises.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.monitoring.kernel import WindowRule, trailing_exceedances
from sewer_engines.monitoring.normal import by_passes, normal_exceedances
from sewer_engines.monitoring.series import Series, cadence

from .test_slugs_engine import MAX_GAP, MIN, T0, meter_series, reference


def _judge(t: list[int], v: np.ndarray, window: int):  # type: ignore[no-untyped-def]
    tt = np.asarray(t, dtype=np.int64)
    return by_passes(tt, v, cadence(tt, MAX_GAP), [WindowRule(0, len(t), window, 5, 1)])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_series(max_size=120), st.sampled_from([6, 15, 40]))
def test_every_magnitude_decides_alike(data, window_minutes) -> None:
    """Scaled by 10**14 (window sums beyond int64: limbs and the floating-point screen, ties
    decided on Python integers) or by 10**30 (values beyond int64: Python integers), the
    readings exceeding are those of the sequential rule."""
    t, values = data
    window = window_minutes * MIN
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    tt = np.asarray(t, dtype=np.int64)
    rule = [WindowRule(0, len(t), window, 5, 1)]
    for v in (s.v, s.v * 10**14, s.v.astype(object) * 10**30):
        # by passes, and as the engine chooses (the compiled loop where v is int64)
        for got in (_judge(t, v, window), normal_exceedances(tt, v, cadence(tt, MAX_GAP), rule)):
            assert got.hits.tolist() == hits
            assert (got.judged, got.unjudged) == (judged, unjudged)


def _level(n_before: int, values: list[str]) -> tuple[list[int], list[str]]:
    vals = ["10"] * n_before + values
    return [T0 + i * MIN for i in range(len(vals))], vals


def test_a_long_discharge_does_not_raise_its_own_threshold() -> None:
    """300 minutes at ten times a day of normal flow: the plain trailing mean stops at 160
    readings; during normal operation all 300 exceed, in three passes."""
    t, values = _level(1440, ["100"] * 300 + ["10"] * 60)
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    tt = np.asarray(t, dtype=np.int64)
    rule = [WindowRule(0, len(t), 1440 * MIN, 5, 1)]
    plain = trailing_exceedances(tt, s.v, cadence(tt, MAX_GAP), rule)
    assert plain.hits.tolist() == list(range(1440, 1600))
    got = _judge(t, s.v, 1440 * MIN)
    assert got.hits.tolist() == list(range(1440, 1740))
    assert got.passes == 3


def test_a_level_just_above_five_times_needs_a_pass_a_reading_and_is_exact() -> None:
    """The worst case of the module docstring: a new level 5.01 times the old. Each pass adds
    about one reading to the run, until the window holds none of the old level; from there
    the baseline is carried (the old level's mean, 10): every reading of the new level
    exceeds 50, all 150 of them — a lasting jump stays a slug."""
    window = 60 * MIN
    t, values = _level(60, ["50.1"] * 150)
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    got = _judge(t, s.v, window)
    assert got.hits.tolist() == hits == list(range(60, 210))
    assert (got.judged, got.unjudged) == (judged, unjudged) == (150, 60)
    # readings 120..209: their window [t - 60 min, t) holds only readings of the new level
    assert got.carried == 90
    assert 50 <= got.passes <= 64  # about one a reading of the run, never more than that + 4


def test_a_day_above_the_old_level_stays_a_slug_on_the_carried_baseline() -> None:
    """Every reading of the window excluded: the next reading's baseline is carried from the
    window ending with the last normal reading (reading 59: the mean of readings 0..59, 10),
    so 100 > 50 still exceeds, and so does every reading of the new level after it."""
    window = 60 * MIN
    t, values = _level(60, ["100"] * 90 + ["10"] * 5)
    got = _judge(t, Series.from_decimals("m", "flow", "gpd", t, values).v, window)
    assert got.hits.tolist() == list(range(60, 150))
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    assert got.hits.tolist() == hits
    assert (got.judged, got.unjudged) == (judged, unjudged) == (95, 60)
    # 120..149 carried (their windows hold only readings of 100), and 150, normal again
    assert got.carried == 31
    assert got.normal is not None and not bool(got.normal[149]) and bool(got.normal[150])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62), min_size=0, max_size=300))
def test_exact_sums_of_large_values(values: list[int]) -> None:
    """Sums of values near 64 bits (limbs) and of Python integers are the exact sums."""
    from sewer_engines.monitoring.windows import exact_sum

    assert exact_sum(np.array(values, dtype=np.int64)) == sum(values)
    assert exact_sum(np.array([x * 10**30 for x in values], dtype=object)) == sum(values) * 10**30


def test_the_drawn_baseline_is_that_of_normal_operation() -> None:
    """The plot's threshold follows the decision: during a long discharge the drawn mean
    stays that of the normal-operation readings (10), not the plain mean its readings raise."""
    from decimal import Decimal

    from sewer_engines.monitoring.slugs import baseline_curve, detect_slugs
    from sewer_rules.monitoring.slugs import Baseline
    from sewer_rules.parameters import load_jurisdiction

    params = load_jurisdiction("wappinger")
    t, values = _level(1440, ["100"] * 300)
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    tt = np.asarray(t, dtype=np.int64)
    result = detect_slugs(
        s, params, params.timezone, cadence(tt, MAX_GAP), Baseline(hours=Decimal(24))
    )
    assert result.normal is not None
    drawn = baseline_curve(s, 1440 * MIN, result.normal)
    plain = baseline_curve(s, 1440 * MIN)
    assert abs(drawn[-1] - 10) < 1e-9 and plain[-1] > 28


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    meter_series(max_size=150),
    st.sampled_from([6, 15, 40]),
    st.sampled_from([1, 3, 17]),
    st.sampled_from([1, 2, 3]),
)
def test_passes_worked_in_batches_decide_alike(data, window_minutes, batch, workers) -> None:
    """A correction pass judges its readings a batch at a time (``normal.BATCH``, cache-sized),
    the batches shared among ``normal.WORKERS`` threads; in batches of a few readings, pieces
    of ranges and windows reaching back across batches, on one thread or several, the readings
    exceeding are still those of the sequential rule."""
    from sewer_engines.monitoring import normal

    t, values = data
    window = window_minutes * MIN
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    saved = normal.BATCH, normal.WORKERS
    normal.BATCH, normal.WORKERS = batch, workers
    try:
        for v in (s.v, s.v * 10**14):
            got = _judge(t, v, window)
            assert got.hits.tolist() == hits
            assert (got.judged, got.unjudged) == (judged, unjudged)
    finally:
        normal.BATCH, normal.WORKERS = saved


@given(
    st.lists(st.tuples(st.integers(0, 50), st.integers(1, 40)), min_size=1, max_size=20),
    st.integers(1, 30),
)
def test_pieces_and_batches_cover_every_range_once_in_order(ranges, size) -> None:
    from sewer_engines.monitoring.normal import _batches, _pieces

    a, b, end = [], [], 0
    for gap, length in ranges:  # disjoint sorted ranges, as _downstream gives
        a.append(end + gap)
        b.append(end + gap + length)
        end = b[-1]
    first, last = _pieces(np.array(a, dtype=np.int64), np.array(b, dtype=np.int64), size)
    assert int((last - first).max()) <= size and bool(((last - first) > 0).all())
    covered = [i for x, y in zip(first.tolist(), last.tolist(), strict=True) for i in range(x, y)]
    assert covered == [i for x, y in zip(a, b, strict=True) for i in range(x, y)]
    spans = last - first
    groups = _batches(spans, size)
    assert groups[0][0] == 0 and groups[-1][1] == spans.size
    assert all(i < j for i, j in groups)
    assert all(g[1] == h[0] for g, h in itertools.pairwise(groups))
    # a group goes past the batch size only by its last range
    assert all(int(spans[i : j - 1].sum()) < size for i, j in groups)


@st.composite
def carried_cases(draw: st.DrawFn) -> tuple[list[int], list[str], int]:
    """Short windows (5 to 20 minutes) with plateaus longer than them and outages longer than
    them: the cases where a window holds no normal-operation reading and the baseline is
    carried — one or many times in a series, at levels at, just above and far above five
    times, and back to normal between them."""
    window = draw(st.sampled_from([5, 7, 12, 20])) * MIN
    n = draw(st.integers(30, 160))
    t = [T0]
    for _ in range(n - 1):
        step = draw(st.sampled_from([MIN] * 8 + [2 * MIN, window, window + MIN, 3 * window]))
        t.append(t[-1] + step)
    values = [draw(st.sampled_from(["10", "10", "10", "9", "12", "2"])) for _ in range(n)]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, n - 1))
        length = draw(st.integers(1, 60))
        level = draw(st.sampled_from(["50", "51", "60", "100", "500"]))
        values[at : at + length] = [level] * len(values[at : at + length])
    return t, values, window


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(carried_cases(), st.sampled_from([1, 10**14]))
def test_carried_baselines_are_judged_alike_by_every_path(data, factor) -> None:
    """The reference, the vectorised passes and the compiled loop give the same readings,
    counts and carried readings (the passes settle, carry, and start again: many rounds)."""
    from .test_slugs_engine import rule_of

    t, values, window = data
    hits, judged, unjudged, _ = reference(t, [Fraction(x) for x in values], window, Fraction(5))
    carried = rule_of(t, values, window).carried
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    tt = np.asarray(t, dtype=np.int64)
    rule = [WindowRule(0, len(t), window, 5, 1)]
    v = s.v * factor
    passes = _judge(t, v, window)
    compiled = normal_exceedances(tt, v, cadence(tt, MAX_GAP), rule)
    for got in (passes, compiled):
        assert got.hits.tolist() == hits
        assert (got.judged, got.unjudged, got.carried) == (judged, unjudged, carried)
