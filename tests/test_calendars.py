"""The public holidays of N.Y. General Construction Law § 24, and only those (hand-derived).

Each date below was read off a calendar by hand; the reasons are in the comments.
"""

from __future__ import annotations

from datetime import date

import pytest
import yaml

from sewer_rules.calendars import (
    CalendarError,
    election_day,
    library_differences,
    next_business_day,
    non_business_day,
    public_holiday,
)
from sewer_rules.ordinance.s196_22_penalties import appointed_holidays, notice_deadline
from sewer_rules.parameters import load_jurisdiction, parse_parameter_text

NY = "US-NY"
WAPPINGER = load_jurisdiction("wappinger")


def test_february_15_is_no_public_holiday() -> None:
    # Susan B. Anthony Day is in the calendar library's New York list, not in § 24.
    # 2028-02-15 is a Tuesday; Washington's Birthday 2028 is the third Monday, 02-21.
    assert public_holiday(date(2028, 2, 15), NY) is None
    assert next_business_day(date(2028, 2, 15), NY) == (date(2028, 2, 15), ())


def test_lincolns_birthday_still_moves_a_deadline() -> None:
    # 2026-02-12 is a Thursday: § 24 lists "the twelfth day of February".
    day, passed = next_business_day(date(2026, 2, 12), NY)
    assert day == date(2026, 2, 13) and passed[0].reason == "Lincoln's Birthday"


def test_christmas_on_a_saturday_moves_to_monday_and_the_friday_is_a_business_day() -> None:
    # 2027-12-25 is a Saturday: § 24 moves only a Sunday holiday, so no Friday holiday.
    assert non_business_day(date(2027, 12, 24), NY) is None
    day, passed = next_business_day(date(2027, 12, 25), NY)
    assert day == date(2027, 12, 27)
    assert [p.reason for p in passed] == ["Christmas Day", "Sunday"]


def test_a_listed_day_on_a_sunday_makes_the_monday_a_holiday_but_flag_day_does_not() -> None:
    # Independence Day 2027 is a Sunday → Monday 07-05; Flag Day (second Sunday of June 2027,
    # 06-13) is excepted by § 24 → Monday 06-14 is a business day.
    assert "Independence Day" in (public_holiday(date(2027, 7, 5), NY) or "")
    assert public_holiday(date(2027, 6, 13), NY) == "Flag Day"
    assert public_holiday(date(2027, 6, 14), NY) is None


def test_general_election_day_every_year() -> None:
    # the Tuesday after the first Monday of November: 2026-11-03; 2027-11-02 (odd year too)
    assert election_day(2026) == date(2026, 11, 3) and election_day(2027) == date(2027, 11, 2)
    assert next_business_day(date(2026, 11, 3), NY)[0] == date(2026, 11, 4)
    assert public_holiday(date(2027, 11, 2), NY) is not None
    # November 1 a Tuesday (2022): the first Monday is 11-07, election day 11-08
    assert election_day(2022) == date(2022, 11, 8)


def test_juneteenth_from_2021() -> None:
    # added by L. 2020, ch. 249 after June 19, 2020; 2022-06-19 is a Sunday → Monday 06-20
    assert public_holiday(date(2020, 6, 19), NY) is None
    assert public_holiday(date(2023, 6, 19), NY) == "Juneteenth"
    assert public_holiday(date(2022, 6, 20), NY) is not None


@pytest.mark.parametrize("year", range(2015, 2031))
def test_the_library_agrees_on_every_listed_day_but_adds_only_february_15(year: int) -> None:
    only_library, only_statute = library_differences(year)
    assert set(only_library.values()) <= {"Susan B. Anthony Day"}
    assert all(d == date(year, 2, 15) for d in only_library)
    # § 24's days the library lacks: Flag Day and the Mondays after Sunday holidays
    for d, name in only_statute.items():
        assert name == "Flag Day" or (d.weekday() == 0 and "Sunday" in name), (d, name)


def test_days_appointed_by_a_president_or_governor_are_dated_parameters() -> None:
    # none is recorded for Wappinger; a file may add one (value 1 on the day, 0 the next)
    assert appointed_holidays(WAPPINGER) == {}
    text = yaml.safe_dump(
        {
            "jurisdiction": "wappinger+appointed",
            "parameters": {
                "holiday.appointed": {
                    "values": {
                        date(2026, 3, 12): {"value": "1", "authority": "test proclamation"},
                        date(2026, 3, 13): {"value": "0", "authority": "test proclamation"},
                    }
                }
            },
        }
    )
    params = parse_parameter_text(text, "test", WAPPINGER)
    assert appointed_holidays(params) == {date(2026, 3, 12): "test proclamation"}
    # served Mon 2026-03-02 + 10 = Thu 03-12, the appointed day → Fri 03-13
    assert notice_deadline(date(2026, 3, 2), params).deadline == date(2026, 3, 13)
    assert notice_deadline(date(2026, 3, 2), WAPPINGER).deadline == date(2026, 3, 12)


def test_an_unknown_calendar_or_a_day_before_the_record_is_refused() -> None:
    with pytest.raises(CalendarError, match="US-NY"):
        public_holiday(date(2026, 1, 1), "US-CA")
    with pytest.raises(CalendarError, match="1992"):
        public_holiday(date(1980, 1, 1), NY)
