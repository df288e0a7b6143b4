"""The slug engine against the rule read one reading at a time.

The rule is :func:`sewer_rules.monitoring.slugs.slugs_of` (docs/interpretations.md, "Slugs", read
literally in fractions: a reading with less than a window of the series' history before it is
not judged and is normal operation; the baseline is the mean of the readings taken during
normal operation in [t - W, t), and when that window holds none, the mean carried from the
window that ends with the last normal-operation reading; a reading exceeds when value > 5 x
baseline; a run lasts until the next reading, or to its last reading plus the usual interval
at a gap longer than the maximum gap; a slug lasts longer than 15 minutes). Hypothesis draws
regular, jittered and gappy series, with values on a coarse grid so that exact ties at five
times the baseline happen often, and the engine (:func:`sewer_engines.monitoring.slugs.detect_slugs`)
must give the same slugs — start, end, readings, peak, baseline, carried baseline — and the
same counts: the compiled loop and the vectorised passes, on the fast path for regular
stretches, on the merge path, across chunk boundaries (chunks made tiny here), with fixed
baselines from a date, and on Python integers when values are too large for 64-bit products.
The kernel's first pass (the plain trailing mean of every reading, an engine step and no rule)
is checked against :func:`plain_trailing` below.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.monitoring import kernel
from sewer_engines.monitoring import series as series_mod
from sewer_engines.monitoring.kernel import WindowRule, trailing_exceedances
from sewer_engines.monitoring.series import Cadence, Series, cadence, logging_cadence, runs
from sewer_engines.monitoring.slugs import SlugResult, detect_slugs
from sewer_rules.monitoring.instants import US_PER_HOUR, US_PER_MINUTE
from sewer_rules.monitoring.slugs import Baseline, Reading, SlugJudgement, slugs_of
from sewer_rules.parameters import load_jurisdiction

PARAMS = load_jurisdiction("wappinger")
TZ = PARAMS.timezone
T0 = 1_772_341_200_000_000  # 2026-03-01T00:00:00-05:00
MIN = US_PER_MINUTE
MAX_GAP = 5 * MIN


def plain_trailing(
    t: list[int], vals: list[Fraction], window: int, multiple: Fraction
) -> tuple[list[int], int, int, dict[int, Fraction]]:
    """The kernel's first pass, read plainly: (exceeding indices, judged, unjudged, the mean
    at each exceeding reading) against the trailing mean of *every* reading of [t - W, t);
    a reading with less than a window of history, or an empty window, is not judged."""
    hits, judged, unjudged, means = [], 0, 0, {}
    for i in range(len(t)):
        inside = [vals[j] for j in range(i) if t[i] - window <= t[j]]
        if t[i] - t[0] < window or not inside:
            unjudged += 1
            continue
        judged += 1
        mean = sum(inside, Fraction(0)) / len(inside)
        if vals[i] > multiple * mean:
            hits.append(i)
            means[i] = mean
    return hits, judged, unjudged, means


def the_rule(t: list[int], values: list[str], baseline: Baseline) -> SlugJudgement:
    """:func:`slugs_of` on the readings."""
    readings = [Reading(at, Decimal(v)) for at, v in zip(t, values, strict=True)]
    return slugs_of(readings, PARAMS, TZ, baseline)


def rule_of(t: list[int], values: list[str], window: int) -> SlugJudgement:
    """The rule with a trailing window of ``window`` microseconds."""
    return the_rule(t, values, Baseline(hours=Fraction(window, US_PER_HOUR)))


def reference(
    t: list[int], vals: list[Fraction], window: int, multiple: Fraction
) -> tuple[list[int], int, int, list[tuple[int, int]]]:
    """The rule's answer in the shape the engine's steps are tested in: (the readings that
    exceeded, judged, not judged, slugs as (start, end)); the multiple is the law's five."""
    assert multiple == 5
    values = [str(Decimal(v.numerator) / Decimal(v.denominator)) for v in vals]
    rule = rule_of(t, values, window)
    slugs = [(s.start, s.end) for s in rule.slugs]
    return list(rule.exceeding), rule.judged, rule.unjudged, slugs


def agree(result: SlugResult, rule: SlugJudgement) -> None:
    """The engine's slugs and counts are the rule's."""
    assert result.slugs == rule.slugs
    assert (result.hits, result.judged, result.unjudged) == (rule.hits, rule.judged, rule.unjudged)
    assert (result.early, result.carried) == (rule.early, rule.carried)
    assert result.used == rule.used


@st.composite
def meter_series(draw: st.DrawFn, max_size: int = 220) -> tuple[list[int], list[str]]:
    """Times regular, jittered or gappy; values mostly a steady 10 with noise on a coarse grid
    (ties at exactly five times are common), and now and then a plateau long enough to be a
    slug."""
    n = draw(st.one_of(st.integers(0, 40), st.integers(max(0, max_size - 70), max_size)))
    kind = draw(st.sampled_from(["regular", "jitter", "gappy", "mixed"]))
    if kind == "regular":
        steps = [MIN] * max(0, n - 1)
    elif kind == "jitter":
        steps = [
            MIN + x * 1_000_000
            for x in draw(
                st.lists(st.integers(-20, 20), min_size=max(0, n - 1), max_size=max(0, n - 1))
            )
        ]
    else:
        choices = (
            [MIN, MIN, MIN, MIN, 2 * MIN, 7 * MIN]
            if kind == "gappy"
            else [MIN, MIN, MIN, 30_000_000, 90_000_000, 6 * MIN]
        )
        steps = draw(
            st.lists(st.sampled_from(choices), min_size=max(0, n - 1), max_size=max(0, n - 1))
        )
    t = [T0]
    for step in steps:
        t.append(t[-1] + step)
    t = t[:n]
    grid = st.sampled_from(["10"] * 12 + ["2", "12", "10.5", "0", "50", "50", "60"])
    values = draw(st.lists(grid, min_size=n, max_size=n))
    if n and draw(st.integers(0, 3)):
        at = draw(st.integers(max(n // 2, n - 45), n - 1))
        length = draw(st.integers(1, 30))
        high = draw(st.sampled_from(["50", "51", "500", "500"]))
        values[at : at + length] = [high] * len(values[at : at + length])
    return t, values


def _engine(
    t: list[int], values: list[str], baseline: Baseline, force_general: bool = False
) -> tuple[Series, Cadence, SlugResult]:
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    cad = logging_cadence(s.t, PARAMS, TZ)
    if force_general:
        cad = Cadence(cad.interval, None, cad.gaps, cad.max_gap)
    return s, cad, detect_slugs(s, PARAMS, TZ, cad, baseline)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    meter_series(),
    st.sampled_from(["0.1", "0.25", "2", "2.5"]),
    st.booleans(),
    st.sampled_from([4, 8, 16, 128]),
    st.booleans(),
)
def test_engine_matches_the_rule_read_one_reading_at_a_time(
    data, hours, force_general, block, compiled
) -> None:
    """Slugs, baselines and counts are the rule's, judged by the compiled loop or by the
    vectorised passes (``compiled``); the kernel's plain first pass is the plain mean's."""
    t, values = data
    window = int(Fraction(hours) * 60 * MIN)
    hits, judged, unjudged, means = plain_trailing(
        t, [Fraction(v) for v in values], window, Fraction(5)
    )
    baseline = Baseline(hours=Decimal(hours))
    rule = the_rule(t, values, baseline)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernel, "CHUNK", 5)
        mp.setattr(kernel, "BLOCK", block)  # blocks screened at once (a power of two)
        mp.setattr(kernel, "SUSPECT_SHARE", 1.0)
        mp.setattr(kernel, "MIN_BLOCKS", 1)
        mp.setattr(series_mod, "CHUNK", 3)
        mp.setenv("SEWER_USE_NATIVE", "1" if compiled else "0")
        s, cad, result = _engine(t, values, baseline, force_general)
        got = trailing_exceedances(s.t, s.v, cad, [WindowRule(0, len(s), window, 5, 1)])
    assert got.hits.tolist() == hits
    sums = [] if got.sums is None else got.sums.tolist()
    counts = [] if got.counts is None else got.counts.tolist()
    got_means = [Fraction(int(a), int(b)) / 10**s.scale for a, b in zip(sums, counts, strict=True)]
    assert got_means == [means[i] for i in hits]
    assert (got.judged, got.unjudged) == (judged, unjudged)
    agree(result, rule)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meter_series(), st.sampled_from(["0.1", "0.25"]), st.data(), st.booleans())
def test_fixed_baselines_from_a_date_agree_with_the_rule(data, hours, more, compiled) -> None:
    """A fixed baseline from an instant inside the series (the Town's record of a new
    normal), and a later one: the readings before it on the trailing mean, those after on the
    fixed values, as the rule reads them one by one."""
    t, values = data
    if not t:
        return
    at = more.draw(st.integers(t[0] - MIN, t[-1] + MIN))
    fixed = Fraction(more.draw(st.sampled_from(["2", "10", "12", "0"])))
    then = tuple(
        (at + k * 7 * MIN, Fraction(more.draw(st.sampled_from(["1", "10", "100"]))))
        for k in range(more.draw(st.integers(0, 2)))
    )
    since = more.draw(st.sampled_from([None, at]))
    baseline = Baseline(fixed=fixed, hours=Decimal(hours), fixed_from=since, then=then)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SEWER_USE_NATIVE", "1" if compiled else "0")
        _, _, result = _engine(t, values, baseline)
    agree(result, the_rule(t, values, baseline))


@settings(max_examples=60, deadline=None)
@given(meter_series(max_size=50), st.sampled_from(["0.1", "0.2"]))
def test_python_integers_agree_with_int64(data, hours) -> None:
    """Values too large for 64-bit products are judged on Python integers, identically."""
    t, values = data
    window = int(Fraction(hours) * 60 * MIN)
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    cad = cadence(s.t, MAX_GAP)
    small = trailing_exceedances(s.t, s.v, cad, [WindowRule(0, len(s), window, 5, 1)])
    huge = trailing_exceedances(s.t, s.v * (1 << 40), cad, [WindowRule(0, len(s), window, 5, 1)])
    assert huge.hits.tolist() == small.hits.tolist()
    assert (huge.judged, huge.unjudged) == (small.judged, small.unjudged)


@settings(max_examples=60, deadline=None)
@given(meter_series(), st.integers(1, 4), st.integers(-(10**9), 10**9))
def test_slugs_do_not_depend_on_units_scale_or_the_clock(data, digits, shift) -> None:
    """Writing the same values with more decimals, and moving the series in time, change
    nothing: the rule is about ratios and durations."""
    t, values = data
    _, _, plain = _engine(t, values, Baseline(hours=Decimal("0.2")))
    padded = [str(Decimal(v).quantize(Decimal(1).scaleb(-digits))) for v in values]
    _, _, scaled = _engine(
        [x + shift * 1_000_000 for x in t], padded, Baseline(hours=Decimal("0.2"))
    )
    assert [(x.start + shift * 1_000_000, x.end + shift * 1_000_000) for x in plain.slugs] == [
        (x.start, x.end) for x in scaled.slugs
    ]


@settings(max_examples=60, deadline=None)
@given(meter_series(), st.data())
def test_raising_a_reading_keeps_it_exceeding(data, more) -> None:
    """A reading's own value is not in its baseline: raising it never makes it comply."""
    t, values = data
    if not values:
        return
    s, cad, _ = _engine(t, values, Baseline(hours=Decimal("0.2")))
    window = int(Fraction("0.2") * 60 * MIN)
    hits = trailing_exceedances(s.t, s.v, cad, [WindowRule(0, len(s), window, 5, 1)]).hits
    if hits.size == 0:
        return
    i = int(more.draw(st.sampled_from(hits.tolist())))
    raised = list(values)
    raised[i] = str(Decimal(values[i]) + 7)
    s2 = Series.from_decimals("m", "flow", "gpd", t, raised)
    hits2 = trailing_exceedances(
        s2.t, s2.v, cadence(s2.t, MAX_GAP), [WindowRule(0, len(s2), window, 5, 1)]
    ).hits
    assert i in hits2.tolist()


def test_regular_and_merge_paths_agree_on_a_long_series() -> None:
    """Two days of one-minute data with jitter in places and a gap, in default-size chunks."""
    rng = np.random.default_rng(7)
    n = 3 * 1440
    t = T0 + np.arange(n, dtype=np.int64) * MIN
    t[2000:2100] += rng.integers(-20, 20, 100) * 1_000_000  # jitter
    t[3000:] += 40 * MIN  # a 40-minute gap
    v = rng.integers(100, 200, n).astype(np.int64)
    v[2500:2530] = 2000
    v[3500:3520] = 2000
    cad = cadence(t, MAX_GAP)
    assert cad.irregular is not None and cad.interval == MIN
    rule = [WindowRule(0, n, 24 * 60 * MIN, 5, 1)]
    fast = trailing_exceedances(t, v, cad, rule)
    slow = trailing_exceedances(t, v, Cadence(cad.interval, None, cad.gaps, MAX_GAP), rule)
    assert fast.hits.tolist() == slow.hits.tolist()
    assert (fast.judged, fast.unjudged) == (slow.judged, slow.unjudged)
    found = runs(t, fast.hits, cad)
    assert [int(x) for x in found.duration // MIN] == [30, 20]


def test_cadence_reports_median_interval_and_gaps() -> None:
    t = np.array([0, 60, 120, 180, 600, 660, 690], dtype=np.int64) * 1_000_000
    cad = cadence(t, MAX_GAP)
    assert cad.interval == MIN
    assert cad.gaps == 1
    assert cad.irregular is not None
    assert cad.irregular.tolist() == [4, 6]


def test_an_irregular_series_uses_the_exact_median() -> None:
    t = np.cumsum(np.array([0, 10, 20, 30, 40, 50, 70], dtype=np.int64)) * 1_000_000
    cad = cadence(t, MAX_GAP)
    assert cad.irregular is None
    assert cad.interval == 35_000_000


@st.composite
def plateaus(draw: st.DrawFn) -> tuple[list[int], list[str]]:
    """Two hours and more of steady flow, then a plateau of 10 to 30 readings: about the
    length where a plateau stops (or does not stop) being a slug."""
    n = draw(st.integers(150, 200))
    jitter = draw(st.booleans())
    t = [T0]
    for _ in range(n - 1):
        t.append(t[-1] + MIN + (draw(st.integers(-5, 5)) * 1_000_000 if jitter else 0))
    noisy = draw(st.booleans())
    values = [
        draw(st.sampled_from(["10", "10", "9", "11", "3", "17"])) if noisy else "10"
        for _ in range(n)
    ]
    at = draw(st.integers(121, n - 10))
    length = draw(st.integers(10, 30))
    high = draw(st.sampled_from(["500", "250", "120", "50"]))
    values[at : at + length] = [high] * len(values[at : at + length])
    if draw(st.booleans()):
        gap_at = draw(st.integers(at, min(n - 1, at + length)))
        shift = draw(st.sampled_from([2, 6])) * MIN
        t[gap_at:] = [x + shift for x in t[gap_at:]]
    return t, values


@settings(max_examples=80, deadline=None)
@given(plateaus(), st.booleans(), st.sampled_from([8, 16, 32, 64]))
def test_engine_matches_the_rule_on_plateaus(data, force_general, block) -> None:
    t, values = data
    baseline = Baseline(hours=Decimal(2))
    rule = the_rule(t, values, baseline)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernel, "BLOCK", block)
        mp.setattr(kernel, "SUSPECT_SHARE", 1.0)
        mp.setattr(kernel, "MIN_BLOCKS", 1)
        _, _, result = _engine(t, values, baseline, force_general)
    agree(result, rule)


@settings(max_examples=80, deadline=None)
@given(st.one_of(plateaus(), meter_series()), st.sampled_from([4, 8, 16]))
def test_screened_blocks_of_wide_values_decide_as_narrow_ones(data, block) -> None:
    """Values scaled as floats exported with 17 significant digits are (10**14 here) make
    window sums beyond int64: the readings of suspect blocks are then judged on sums in 32-bit
    limbs with a floating-point screen (``kernel._suspects_in_limbs``). The same readings
    exceed, with the same sums (times the scale) and counts, as at the small scale."""
    t, values = data
    s = Series.from_decimals("m", "flow", "gpd", t, values)
    cad = cadence(s.t, MAX_GAP)
    rules = [WindowRule(0, len(s), 2 * 60 * MIN, 5, 1)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernel, "BLOCK", block)
        mp.setattr(kernel, "SUSPECT_SHARE", 1.0)
        mp.setattr(kernel, "MIN_BLOCKS", 1)
        narrow = trailing_exceedances(s.t, s.v, cad, rules)
        wide = trailing_exceedances(s.t, s.v * 10**14, cad, rules)
    assert wide.hits.tolist() == narrow.hits.tolist()
    assert (wide.judged, wide.unjudged) == (narrow.judged, narrow.unjudged)
    narrow_sums = [] if narrow.sums is None else [int(x) * 10**14 for x in narrow.sums]
    assert ([] if wide.sums is None else [int(x) for x in wide.sums]) == narrow_sums
    assert (wide.counts is None) == (narrow.counts is None)
    if wide.counts is not None and narrow.counts is not None:
        assert wide.counts.tolist() == narrow.counts.tolist()
