"""Properties of the § 196-22 clock and fines (hypothesis).

- Fines never decrease as the correction date moves later (nor as the as-of day moves later
  while the violation is not corrected).
- The days counted are exactly the days after the deadline up to the correction (or as-of)
  day, and the fine is exactly the sum, day by day, of the amount in force on each day —
  checked against a brute-force day-by-day sum, under randomly dated amounts.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sewer_rules.calendars import non_business_day
from sewer_rules.ordinance.s196_22_computation import Span, counted_spans
from sewer_rules.ordinance.s196_22_penalties import accrued_fines
from sewer_rules.parameters import ParameterSet, load_jurisdiction, parse_parameter_text

DEMO = load_jurisdiction("demo")
WAPPINGER = load_jurisdiction("wappinger")

served_dates = st.dates(min_value=date(2004, 4, 1), max_value=date(2030, 12, 31))
offsets = st.integers(min_value=0, max_value=120)
cents = st.integers(min_value=0, max_value=100_000).map(lambda c: Decimal(c).scaleb(-2))


@st.composite
def dated_amounts(draw: st.DrawFn) -> ParameterSet:
    """The demo jurisdiction with 0–6 extra daily amounts on random dates (some unset)."""
    changes = draw(
        st.dictionaries(
            st.dates(min_value=date(2004, 4, 1), max_value=date(2031, 6, 30)),
            st.one_of(st.none(), cents),
            max_size=6,
        )
    )
    values = {
        d: {"value": None if v is None else str(v), "authority": "hypothesis"}
        for d, v in changes.items()
    }
    if not values:
        return DEMO
    text = yaml.safe_dump(
        {"jurisdiction": "demo+h", "parameters": {"fine.daily_amount": {"values": values}}}
    )
    return parse_parameter_text(text, "hypothesis", DEMO)


def _fine(served: date, corrected: date | None, as_of: date, params: ParameterSet) -> Decimal:
    fc = accrued_fines(served, corrected, as_of, params)
    assert fc.total is not None
    return fc.total


@given(served=served_dates, a=offsets, b=offsets)
def test_fines_never_decrease_as_the_correction_moves_later(served: date, a: int, b: int) -> None:
    early, late = sorted((a, b))
    c1, c2 = served + timedelta(days=early), served + timedelta(days=late)
    assert _fine(served, c1, c2, DEMO) <= _fine(served, c2, c2, DEMO)
    # the count of days too, where no amount is configured at all
    d1 = accrued_fines(served, c1, c2, WAPPINGER).days
    d2 = accrued_fines(served, c2, c2, WAPPINGER).days
    assert d1 <= d2


@given(params=dated_amounts(), served=served_dates, a=offsets, b=offsets)
@settings(max_examples=150)
def test_fines_never_decrease_under_any_dated_amounts(
    params: ParameterSet, served: date, a: int, b: int
) -> None:
    early, late = sorted((a, b))
    c1, c2 = served + timedelta(days=early), served + timedelta(days=late)
    f1 = accrued_fines(served, c1, c2, params)
    f2 = accrued_fines(served, c2, c2, params)
    assert f1.days <= f2.days
    assert f1.configured_subtotal <= f2.configured_subtotal
    if f1.total is not None and f2.total is not None:
        assert f1.total <= f2.total
    # a day not configured early on stays not configured later
    assert f1.unconfigured_days <= f2.unconfigured_days


@given(served=served_dates, a=offsets, b=offsets)
def test_fines_never_decrease_as_the_as_of_day_moves_later(served: date, a: int, b: int) -> None:
    early, late = sorted((a, b))
    d1, d2 = served + timedelta(days=early), served + timedelta(days=late)
    assert _fine(served, None, d1, DEMO) <= _fine(served, None, d2, DEMO)


@given(params=dated_amounts(), served=served_dates, offset=offsets)
@settings(max_examples=150)
def test_days_and_total_match_a_day_by_day_count(
    params: ParameterSet, served: date, offset: int
) -> None:
    corrected = served + timedelta(days=offset)
    fc = accrued_fines(served, corrected, corrected, params)
    nominal = served + timedelta(days=10)
    # the deadline is the first business day on or after the tenth day (Gen. Constr. Law § 25-a)
    assert fc.deadline >= nominal
    assert non_business_day(fc.deadline, params.holidays) is None
    passed = [nominal + timedelta(days=i) for i in range((fc.deadline - nominal).days)]
    assert all(non_business_day(d, params.holidays) is not None for d in passed)
    deadline = fc.deadline
    days = [deadline + timedelta(days=i) for i in range(1, (corrected - deadline).days + 1)]
    assert fc.days == len(days)
    amounts = [params.get("fine.daily_amount", d).value for d in days]
    # segments are contiguous and cover exactly those days
    covered = [s.first_day + timedelta(days=i) for s in fc.segments for i in range(s.days)]
    assert covered == days
    if any(a is None for a in amounts):
        assert fc.total is None
        assert fc.unconfigured_days == sum(1 for a in amounts if a is None)
    else:
        assert fc.total == sum((a for a in amounts if a is not None), Decimal(0)).quantize(
            Decimal("0.01")
        )


# --- the day the violation ceased, its verification, later notices -------------------------

later_offsets = st.lists(
    st.tuples(st.integers(min_value=0, max_value=60), st.integers(min_value=10, max_value=40)),
    max_size=3,
)


@given(served=served_dates, ceased=offsets, wait=st.integers(min_value=0, max_value=60))
def test_the_verification_day_never_adds_a_day(served: date, ceased: int, wait: int) -> None:
    """The Town's delay in verifying is not the offender's violation (§ 196-22 B)."""
    stopped = served + timedelta(days=ceased)
    verified = stopped + timedelta(days=wait)
    with_verification = accrued_fines(served, stopped, verified, DEMO, verified=verified)
    without = accrued_fines(served, stopped, stopped, DEMO)
    assert with_verification.days == without.days
    assert with_verification.total == without.total


@given(params=dated_amounts(), served=served_dates, steps=later_offsets, offset=offsets)
@settings(max_examples=150)
def test_later_notices_take_their_own_periods_out_of_a_day_by_day_count(
    params: ParameterSet, served: date, steps: list[tuple[int, int]], offset: int
) -> None:
    """Brute force: a day counts iff it is after the first deadline, not after the day the
    violation ceased, and not within any later notice's day-after-service..deadline."""
    later: list[tuple[date, int | None]] = []
    day = served
    for gap, period in steps:
        day = day + timedelta(days=gap)
        later.append((day, period))
    ceased = max([served, *(d for d, _ in later)]) + timedelta(days=offset)
    fc = accrued_fines(served, ceased, ceased, params, later_notices=later)
    stops = [(n.served + timedelta(days=1), n.deadline) for n in fc.later]
    days = [
        fc.deadline + timedelta(days=i)
        for i in range(1, (ceased - fc.deadline).days + 1)
        if not any(a <= fc.deadline + timedelta(days=i) <= b for a, b in stops)
    ]
    covered = [s.first_day + timedelta(days=i) for s in fc.segments for i in range(s.days)]
    assert covered == days and fc.days == len(days)
    assert sum(p.days for p in fc.spans) == fc.days
    # a later notice never adds a day to the count without it
    assert fc.days <= accrued_fines(served, ceased, ceased, params).days


def _day_by_day(deadline: date, end: date, suspended: list[Span]) -> set[date]:
    """The reading of § 196-22 B one day at a time: every day after the deadline up to the end,
    unless a later notice's period holds it."""
    days, day = set(), deadline + timedelta(days=1)
    while day <= end:
        if not any(s.first <= day <= s.last for s in suspended):
            days.add(day)
        day += timedelta(days=1)
    return days


spans_drawn = st.lists(
    st.tuples(st.integers(min_value=-30, max_value=400), st.integers(min_value=-5, max_value=90)),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(
    deadline=served_dates,
    length=st.integers(min_value=-5, max_value=500),
    cuts=spans_drawn,
)
def test_counted_spans_are_the_days_counted_one_by_one(
    deadline: date, length: int, cuts: list[tuple[int, int]]
) -> None:
    end = deadline + timedelta(days=length)
    suspended = [
        Span(deadline + timedelta(days=a), deadline + timedelta(days=a + n)) for a, n in cuts
    ]
    spans = counted_spans(deadline, end, suspended)
    counted = {s.first + timedelta(days=i) for s in spans for i in range(s.days)}
    assert counted == _day_by_day(deadline, end, suspended)
    assert sum(s.days for s in spans) == len(counted)  # no day twice
    # maximal: two spans are never adjacent
    assert all(a.last + timedelta(days=1) < b.first for a, b in pairwise(spans))
