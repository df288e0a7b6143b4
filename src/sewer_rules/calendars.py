"""Business days for the last day of a legal period: weekends and New York public holidays.

N.Y. General Construction Law § 25-a (which applies to local laws): when a period of time
computed from a certain day, within which an act is authorized or required to be done, ends
on a Saturday, Sunday or public holiday, the act may be done on the next succeeding business
day.

Which days are public holidays is N.Y. General Construction Law § 24, and only § 24. As this
module reads it (the text as amended by L. 1984, ch. 347 and L. 2020, ch. 249), each year's
public holidays are:

- January 1 (New Year's Day);
- the third Monday of January (Dr. Martin Luther King, Jr. Day);
- February 12 (Lincoln's Birthday);
- the third Monday of February (Washington's Birthday);
- the last Monday of May (Memorial Day);
- the second Sunday of June (Flag Day);
- June 19 (Juneteenth) — added by L. 2020, ch. 249, signed after June 19, 2020, so the first
  Juneteenth it makes a holiday is that of 2021;
- July 4 (Independence Day);
- the first Monday of September (Labor Day);
- the second Monday of October (Columbus Day);
- November 11 (Veterans' Day);
- the fourth Thursday of November (Thanksgiving Day);
- December 25 (Christmas Day);
- and, when any of those days other than Flag Day falls on a Sunday, the Monday after it;
- each general election day (in New York, held every year on the Tuesday after the first
  Monday of November);
- each day a President of the United States or the Governor of New York appoints as a day of
  general thanksgiving, general fasting and prayer, or other general religious observance.

The list is :data:`NY_GCL_24` (dated: each day has the first day it is in force); the days
appointed by a President or Governor are dated entries of the jurisdiction's parameters
(``holiday.appointed``, passed in as ``appointed``). A Saturday holiday gives no Friday: § 24
moves only Sunday holidays (a calendar library's federal "observed" Friday is no public holiday
here), and a day § 24 does not list — the ``holidays`` library's Susan B. Anthony Day
(February 15) for New York, for one — moves nothing. The library is kept as a second reading:
:func:`library_differences` lists where it and § 24 part ways, and the tests check that it
agrees on every listed day and that its extras are only the days § 24 does not list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

import holidays as holiday_calendars

SATURDAY, SUNDAY = 5, 6
MONDAY, TUESDAY, THURSDAY = 0, 1, 3
GCL_24 = "N.Y. Gen. Constr. Law § 24"
#: The calendar § 24 describes; the parameter files name it (``holidays: US-NY``).
NEW_YORK = "US-NY"
#: The first day the list below is recorded for: before the article (adopted 1992-09-28)
#: the software computes no period, and the list is not recorded further back.
RECORDED_FROM = date(1992, 1, 1)
NO_DAYS: Mapping[date, str] = {}


class CalendarError(ValueError):
    """A holiday calendar this module does not know, or a day before its record."""


@dataclass(frozen=True)
class NonBusinessDay:
    """Why a day is not a business day: ``saturday``, ``sunday`` or the holiday's name."""

    day: date
    reason: str


@dataclass(frozen=True)
class ListedDay:
    """A day § 24 lists: a fixed date (``day``), or the ``nth`` ``weekday`` of the month
    (``nth`` -1: the last); in force from ``since``; ``sunday_rule``: a Sunday gives the
    Monday after (every listed day but Flag Day)."""

    name: str
    month: int
    since: date
    authority: str
    day: int | None = None
    weekday: int | None = None
    nth: int = 0
    sunday_rule: bool = True

    def on(self, year: int) -> date:
        if self.day is not None:
            return date(year, self.month, self.day)
        assert self.weekday is not None
        if self.nth > 0:
            first = date(year, self.month, 1)
            return first + timedelta(days=(self.weekday - first.weekday()) % 7 + 7 * (self.nth - 1))
        following = date(year + (self.month == 12), self.month % 12 + 1, 1)
        last = following - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - self.weekday) % 7)


_BASE = "L. 1984, ch. 347"
#: N.Y. General Construction Law § 24's list, dated (see the module's docstring).
NY_GCL_24: tuple[ListedDay, ...] = (
    ListedDay("New Year's Day", 1, RECORDED_FROM, _BASE, day=1),
    ListedDay("Dr. Martin Luther King, Jr. Day", 1, RECORDED_FROM, _BASE, weekday=MONDAY, nth=3),
    ListedDay("Lincoln's Birthday", 2, RECORDED_FROM, _BASE, day=12),
    ListedDay("Washington's Birthday", 2, RECORDED_FROM, _BASE, weekday=MONDAY, nth=3),
    ListedDay("Memorial Day", 5, RECORDED_FROM, _BASE, weekday=MONDAY, nth=-1),
    ListedDay("Flag Day", 6, RECORDED_FROM, _BASE, weekday=SUNDAY, nth=2, sunday_rule=False),
    ListedDay("Juneteenth", 6, date(2021, 1, 1), "L. 2020, ch. 249", day=19),
    ListedDay("Independence Day", 7, RECORDED_FROM, _BASE, day=4),
    ListedDay("Labor Day", 9, RECORDED_FROM, _BASE, weekday=MONDAY, nth=1),
    ListedDay("Columbus Day", 10, RECORDED_FROM, _BASE, weekday=MONDAY, nth=2),
    ListedDay("Veterans' Day", 11, RECORDED_FROM, _BASE, day=11),
    ListedDay("Thanksgiving Day", 11, RECORDED_FROM, _BASE, weekday=THURSDAY, nth=4),
    ListedDay("Christmas Day", 12, RECORDED_FROM, _BASE, day=25),
)


def election_day(year: int) -> date:
    """The general election day: the Tuesday after the first Monday of November."""
    first_monday = ListedDay("", 11, RECORDED_FROM, "", weekday=MONDAY, nth=1).on(year)
    return first_monday + timedelta(days=1)


@cache
def _statute_year(year: int) -> Mapping[date, str]:
    """§ 24's public holidays of ``year`` (without the appointed days), by date."""
    days: dict[date, str] = {}
    for listed in NY_GCL_24:
        # the Sunday rule reaches across a new year only from December 31; no day is listed
        # there, so the listed days of ``year`` alone make its holidays
        on = listed.on(year)
        if on < listed.since:
            continue
        names = [listed.name] + ([days[on]] if on in days else [])
        days[on] = "; ".join(sorted(names))
        if listed.sunday_rule and on.weekday() == SUNDAY:
            monday = on + timedelta(days=1)
            days.setdefault(monday, f"{listed.name} (Sunday, so the Monday after: {GCL_24})")
    days[election_day(year)] = f"General election day ({GCL_24})"
    return days


def _check(day: date, calendar: str) -> None:
    if calendar != NEW_YORK:
        raise CalendarError(
            f"no public-holiday calendar {calendar!r}: the holidays known are New York's "
            f"({NEW_YORK}, {GCL_24})"
        )
    if day < RECORDED_FROM:
        raise CalendarError(
            f"{day} is before {RECORDED_FROM}, the first day {GCL_24}'s list is recorded for"
        )


def public_holiday(day: date, calendar: str, appointed: Mapping[date, str] = NO_DAYS) -> str | None:
    """The name of the public holiday on ``day`` in ``calendar`` (``US-NY``), or None.

    ``appointed``: the days a President or Governor appointed (date → authority), from the
    jurisdiction's ``holiday.appointed`` entries.
    """
    if not calendar:
        return None
    _check(day, calendar)
    if day in appointed:
        return f"Day appointed by proclamation ({appointed[day]}; {GCL_24})"
    return _statute_year(day.year).get(day)


def non_business_day(
    day: date, calendar: str, appointed: Mapping[date, str] = NO_DAYS
) -> NonBusinessDay | None:
    """Why ``day`` is not a business day (a holiday's name before the weekday), or None."""
    holiday = public_holiday(day, calendar, appointed)
    if holiday is not None:
        return NonBusinessDay(day, holiday)
    if day.weekday() == SATURDAY:
        return NonBusinessDay(day, "Saturday")
    if day.weekday() == SUNDAY:
        return NonBusinessDay(day, "Sunday")
    return None


def next_business_day(
    day: date, calendar: str, appointed: Mapping[date, str] = NO_DAYS
) -> tuple[date, tuple[NonBusinessDay, ...]]:
    """``day`` itself when it is a business day, else the next one, with the days passed over."""
    passed: list[NonBusinessDay] = []
    while (why := non_business_day(day, calendar, appointed)) is not None:
        passed.append(why)
        day += timedelta(days=1)
    return day, tuple(passed)


@cache
def _library_year(year: int) -> Mapping[date, str]:
    cal = holiday_calendars.country_holidays("US", subdiv="NY", years=[year], observed=False)
    return {d: str(n) for d, n in cal.items()}


def library_differences(year: int) -> tuple[Mapping[date, str], Mapping[date, str]]:
    """Where the ``holidays`` library's New York calendar and § 24 part ways in ``year``:
    (days only the library has, days only § 24 has). Only § 24's days move a deadline; the
    library is read to catch a mistake in either: the library lacks Flag Day (always a
    Sunday) and the Mondays after Sunday holidays (it is read without its federal "observed"
    days); Susan B. Anthony Day is its addition."""
    library, statute = _library_year(year), _statute_year(year)
    return (
        {d: n for d, n in library.items() if d not in statute},
        {d: n for d, n in statute.items() if d not in library},
    )
