"""The town days of a meter's readings (sewer_engines.monitoring.daily): counts and exact sums,
23- and 25-hour days when the clocks change, and sums that never round."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from sewer_engines.monitoring.daily import DayTotal, exact_sum, merge, summarize
from sewer_rules.monitoring.instants import local_date, to_us

TZ = "America/New_York"


def minutes(start: datetime, n: int) -> list[int]:
    return [to_us(start + timedelta(minutes=i)) for i in range(n)]


def test_spring_forward_day_has_23_hours_and_fall_back_25() -> None:
    # 2026-03-08 and 2026-11-01: the clocks change in America/New_York
    spring = datetime(2026, 3, 8, 5, 0, tzinfo=UTC)  # local midnight (EST, -05:00)
    days = summarize(minutes(spring, 23 * 60), ["1"] * (23 * 60), TZ)
    assert days == {date(2026, 3, 8): DayTotal(1380, Decimal(1380))}
    autumn = datetime(2026, 11, 1, 4, 0, tzinfo=UTC)  # local midnight (EDT, -04:00)
    days = summarize(minutes(autumn, 25 * 60 + 1), ["2"] * (25 * 60 + 1), TZ)
    assert days == {
        date(2026, 11, 1): DayTotal(1500, Decimal(3000)),
        date(2026, 11, 2): DayTotal(1, Decimal(2)),
    }


def test_sums_are_exact_whatever_the_digits() -> None:
    long = "0." + "0" * 300 + "1"
    big = "9" * 400
    assert exact_sum(["190.95000000000002", "0.1"]) == Decimal("191.05000000000002")
    total = exact_sum([long, big])
    assert str(total) == big + "." + "0" * 300 + "1"
    assert exact_sum(["0.1"] * 10) == Decimal("1.0")


def test_merge_adds_days() -> None:
    a = {date(2026, 1, 1): DayTotal(2, Decimal("3.5"))}
    merge(
        a,
        {date(2026, 1, 1): DayTotal(1, Decimal("0.5")), date(2026, 1, 2): DayTotal(1, Decimal(1))},
    )
    assert a == {
        date(2026, 1, 1): DayTotal(3, Decimal("4.0")),
        date(2026, 1, 2): DayTotal(1, Decimal(1)),
    }


@given(
    st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=7 * 24 * 60),
            st.decimals(min_value=0, max_value=10**6, places=5, allow_nan=False),
        ),
        min_size=1,
        max_size=300,
    ),
    st.integers(min_value=0, max_value=364),
)
def test_days_equal_a_reading_by_reading_grouping(
    steps: list[tuple[int, Decimal]], offset: int
) -> None:
    t = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=offset)
    times, values = [], []
    for gap, value in steps:
        t += timedelta(minutes=gap)
        times.append(to_us(t))
        values.append(str(value))
    expected: dict[date, DayTotal] = {}
    for us, v in zip(times, values, strict=True):
        d = local_date(us, TZ)
        expected[d] = expected.get(d, DayTotal(0, Decimal(0))).plus(DayTotal(1, Decimal(v)))
    assert summarize(times, values, TZ) == expected
