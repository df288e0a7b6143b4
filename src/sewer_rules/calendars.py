"""Business days for the last day of a legal period: weekends and public holidays.

N.Y. General Construction Law § 25-a (which applies to local laws): "When any period of time,
computed from a certain day, within which or after which or before which an act is authorized
or required to be done, ends on a Saturday, Sunday or a public holiday, such act may be done on
the next succeeding business day ..."

N.Y. General Construction Law § 24 lists the public holidays, and adds: "... and if any of such
days except flag day is Sunday, the next day thereafter is a public holiday." Flag Day (the
second Sunday in June) always falls on a Sunday, so it never moves a deadline by itself and
gives no Monday.

The holidays themselves come from a maintained calendar library (``holidays``, which knows
New York's), never from a hand-typed list. The library's own "observed" days follow the
federal rule (a Saturday holiday observed on the Friday before), which § 24 does not make a
public holiday; so the calendar is read without them and § 24's Sunday rule is applied here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

import holidays as holiday_calendars

SATURDAY, SUNDAY = 5, 6


class CalendarError(ValueError):
    """A holiday calendar the library does not know."""


@dataclass(frozen=True)
class NonBusinessDay:
    """Why a day is not a business day: ``saturday``, ``sunday`` or the holiday's name."""

    day: date
    reason: str


@cache
def _calendar(name: str, year: int) -> dict[date, str]:
    country, _, subdivision = name.partition("-")
    try:
        cal = holiday_calendars.country_holidays(
            country, subdiv=subdivision or None, years=[year - 1, year], observed=False
        )
    except NotImplementedError:
        raise CalendarError(f"no holiday calendar {name!r} in the calendar library") from None
    days = {d: str(n) for d, n in cal.items() if d.year == year}
    # § 24: a holiday on a Sunday makes the next day a public holiday (Dec 31 → Jan 1 too).
    for d, n in cal.items():
        monday = d + timedelta(days=1)
        if d.weekday() == SUNDAY and monday.year == year:
            days.setdefault(
                monday, f"{n} (Sunday, so the Monday after: N.Y. Gen. Constr. Law § 24)"
            )
    return days


def public_holiday(day: date, calendar: str) -> str | None:
    """The name of the public holiday on ``day`` in ``calendar`` (``US-NY``), or None."""
    if not calendar:
        return None
    return _calendar(calendar, day.year).get(day)


def non_business_day(day: date, calendar: str) -> NonBusinessDay | None:
    """Why ``day`` is not a business day (a holiday's name before the weekday), or None."""
    holiday = public_holiday(day, calendar)
    if holiday is not None:
        return NonBusinessDay(day, holiday)
    if day.weekday() == SATURDAY:
        return NonBusinessDay(day, "Saturday")
    if day.weekday() == SUNDAY:
        return NonBusinessDay(day, "Sunday")
    return None


def next_business_day(day: date, calendar: str) -> tuple[date, tuple[NonBusinessDay, ...]]:
    """``day`` itself when it is a business day, else the next one, with the days passed over."""
    passed: list[NonBusinessDay] = []
    while (why := non_business_day(day, calendar)) is not None:
        passed.append(why)
        day += timedelta(days=1)
    return day, tuple(passed)
