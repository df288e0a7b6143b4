"""Who the SNC criteria apply to (40 CFR 403.8(f)(2)(viii)): SIU histories from dated decisions,
the day-precise filter of measurements and reports, and the two engines still equal after it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.federal.snc_columnar import determine_table
from sewer_engines.federal.snc_inputs import measurements, split_rows
from sewer_rules.federal.snc_chronic_and_trc import Limit, Measurement
from sewer_rules.federal.snc_determination import determine
from sewer_rules.federal.snc_late_reports import Report
from sewer_rules.federal.snc_periods import parse_period
from sewer_rules.federal.snc_scope import (
    ANY_USER,
    NEVER_DECIDED,
    SIU_ONLY,
    Scope,
    SIUHistory,
    Status,
    always,
    applies_to_any_user,
    not_counted,
    split_measurements,
    split_reports,
)
from sewer_rules.parameters import load_jurisdiction

from .test_snc_columnar import series

PARAMS = load_jurisdiction("wappinger")
D = date.fromisoformat


def test_the_criteria_of_siu_only_and_of_any_user() -> None:
    assert sorted(SIU_ONLY) == list("ABEFG") and sorted(ANY_USER) == list("CDH")
    assert [c for c in "ABCDEFGH" if applies_to_any_user(c)] == ["C", "D", "H"]
    with pytest.raises(ValueError, match="criteria A to H"):
        applies_to_any_user("I")


def test_a_newer_decision_replaces_the_older_from_its_day() -> None:
    h = SIUHistory.of(
        [Status(D("2025-12-01"), True, "designated"), Status(D("2026-04-01"), False, "found not")]
    )
    assert not h.was_siu(D("2025-11-30"))  # before any decision: not an SIU
    assert h.was_siu(D("2025-12-01")) and h.was_siu(D("2026-03-31"))
    assert not h.was_siu(D("2026-04-01")) and not h.was_siu(D("2030-01-01"))
    assert h.why_not(D("2026-04-01")) == "found not"
    assert h.why_not(D("2025-01-01")) == "not designated a significant industrial user by then"
    assert h.siu_spans(D("2026-01-01"), D("2026-06-30")) == [(D("2026-01-01"), D("2026-03-31"))]


def test_a_correction_dated_back_replaces_a_later_dated_decision() -> None:
    # recorded second, dated before the first: from its day on, it alone holds
    h = SIUHistory.of([Status(D("2026-03-01"), True), Status(D("2026-02-01"), False)])
    assert [s.decided_on for s in h.segments] == [D("2026-02-01")]
    assert not h.was_siu(D("2026-03-15"))
    # two decisions of one day: the one recorded later holds
    same = SIUHistory.of([Status(D("2026-02-01"), False), Status(D("2026-02-01"), True)])
    assert same.was_siu(D("2026-02-01"))


def test_spans_and_a_user_never_decided_about() -> None:
    h = SIUHistory.of(
        [
            Status(D("2026-01-10"), True),
            Status(D("2026-02-01"), False),
            Status(D("2026-05-01"), True),
        ]
    )
    assert h.siu_spans(D("2026-01-01"), D("2026-06-30")) == [
        (D("2026-01-10"), D("2026-01-31")),
        (D("2026-05-01"), D("2026-06-30")),
    ]
    assert NEVER_DECIDED.siu_spans(D("2026-01-01"), D("2026-06-30")) == []
    assert not Scope({}).was_siu("X", D("2026-01-01"))
    assert Scope({}, always(True, "files")).was_siu("X", D("2026-01-01"))
    with pytest.raises(ValueError, match="increasing days"):
        SIUHistory((Status(D("2026-02-01"), True), Status(D("2026-01-01"), False)))


def test_criteria_apply_by_the_day_of_their_evidence() -> None:
    scope = Scope({"F1": SIUHistory.of([Status(D("2026-03-01"), True)])})
    assert not scope.applies("A", "F1", D("2026-02-28"))
    assert scope.applies("A", "F1", D("2026-03-01"))
    for letter in "CDH":  # any industrial user, whatever its status
        assert scope.applies(letter, "F1", D("2026-02-28"))
        assert scope.applies(letter, "NEVER", D("2026-02-28"))
    for letter in "EFG":
        assert not scope.applies(letter, "NEVER", D("2026-06-01"))


def _m(facility: str, day: str, value: str = "2") -> Measurement:
    return Measurement(facility, "copper", D(day), Fraction(value), False, (1,))


def test_measurements_and_reports_split_on_the_sampling_and_due_days() -> None:
    scope = Scope(
        {"F1": SIUHistory.of([Status(D("2026-01-01"), True), Status(D("2026-04-01"), False)])}
    )
    ms = [_m("F1", "2026-03-31"), _m("F1", "2026-04-01"), _m("F2", "2026-02-01")]
    kept, left = split_measurements(ms, scope)
    assert kept == ms[:1] and left == ms[1:]
    reports = [
        Report("F1", "periodic", D("2026-03-31"), None),
        Report("F1", "b", D("2026-04-01"), None),
    ]
    assert split_reports(reports, scope) == (reports[:1], reports[1:])


def test_a_user_out_of_scope_is_not_in_snc_however_chronic() -> None:
    lim = Limit("F1", "copper", "daily_maximum", Decimal("1"), D("2020-01-01"), D("2099-12-31"))
    ms = [_m("F1", f"2026-0{k}-10") for k in range(1, 7)]  # 6 of 6 over the limit
    period = parse_period("2026H1")
    assert determine(ms, [lim], period, PARAMS, rolling=False).found
    never = Scope({})
    kept, left = split_measurements(ms, never)
    assert not determine(kept, [lim], period, PARAMS, rolling=False).found and len(left) == 6
    # found not significant on 2026-04-01: only January to March count (3 of 3 still chronic)
    mid = Scope(
        {
            "F1": SIUHistory.of(
                [
                    Status(D("2025-12-01"), True),
                    Status(D("2026-04-01"), False, "found not significant"),
                ]
            )
        }
    )
    kept, left = split_measurements(ms, mid)
    result = determine(kept, [lim], period, PARAMS, rolling=False)
    assert result.determinations[0].deciding.measurements == 3 and result.found
    text = not_counted("3 results sampled", "F1", [m.day for m in left], mid, "(A), (B)")
    assert text.startswith("3 results sampled 2026-04-10..2026-06-10 not counted for (A), (B): ")
    assert "found not significant" in text and text.endswith("(40 CFR 403.8(f)(2)(viii))")


@st.composite
def scopes(draw: Any) -> Scope:
    """Random decisions for F1 and F2 around 2026 (sometimes none: never decided about)."""
    histories = {}
    for f in ("F1", "F2"):
        n = draw(st.integers(0, 3))
        recorded = [
            Status(D("2025-10-01") + timedelta(days=draw(st.integers(0, 480))), draw(st.booleans()))
            for _ in range(n)
        ]
        if recorded or draw(st.booleans()):
            histories[f] = SIUHistory.of(recorded)
    return Scope(histories, draw(st.sampled_from([NEVER_DECIDED, always(True, "files")])))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(series(), scopes())
def test_both_engines_stay_equal_on_the_scoped_inputs(case: Any, scope: Scope) -> None:
    frame, limits, period, rolling = case
    window = parse_period(period)
    every = measurements(frame)
    kept, left = split_measurements(every, scope)
    kept_rows, left_rows = split_rows(frame, scope)
    assert measurements(kept_rows) == kept and measurements(left_rows) == left
    assert kept_rows.height + left_rows.height == frame.height
    assert all(scope.was_siu(m.facility, m.day) for m in kept)
    assert not any(scope.was_siu(m.facility, m.day) for m in left)
    ref = determine(kept, limits, window, PARAMS, rolling=rolling)
    fast = determine_table(kept_rows, limits, window, PARAMS, rolling=rolling)
    assert fast.as_dict() == ref.as_dict()
