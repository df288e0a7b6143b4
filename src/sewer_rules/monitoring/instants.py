"""Instants, durations and values as the monitoring rules read and show them.

A reading's time is an instant: microseconds since 1970-01-01 UTC, so that a 24-hour window
is 24 hours of elapsed time also on the days clocks change (docs/interpretations.md: "windows are
measured in absolute time"). The town's calendar (the date whose dated parameters judge a
reading, a month's totals) is read in the jurisdiction's zone. Values are exact decimals and
fractions, shown exactly where they terminate.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from functools import cache
from zoneinfo import ZoneInfo

from sewer_rules.parameters import ParameterError, ParameterSet

US_PER_SECOND = 1_000_000
US_PER_MINUTE = 60 * US_PER_SECOND
US_PER_HOUR = 60 * US_PER_MINUTE
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def instant(us: int) -> datetime:
    """An aware UTC datetime for microseconds since the epoch (exact, no float)."""
    return EPOCH + timedelta(microseconds=int(us))


def iso(us: int, tz: str) -> str:
    """ISO 8601 with the offset in force in ``tz`` at that instant."""
    return instant(us).astimezone(zone(tz)).isoformat()


def to_us(dt: datetime) -> int:
    """Microseconds since the epoch for an aware datetime."""
    if dt.tzinfo is None:
        raise ValueError("naive datetime")
    delta = dt - EPOCH
    return (delta.days * 86_400 + delta.seconds) * US_PER_SECOND + delta.microseconds


def local_date(us: int, tz: str) -> date:
    """The town's calendar day of an instant."""
    return instant(us).astimezone(zone(tz)).date()


def local_midnight_us(day: date, tz: str) -> int:
    """The instant a calendar day begins in the town's zone."""
    return to_us(datetime(day.year, day.month, day.day, tzinfo=zone(tz)))


def minutes(us: int) -> float:
    """A duration in minutes for JSON (exact durations stay in microseconds internally)."""
    return round(us / US_PER_MINUTE, 6)


def value_on(params: ParameterSet, name: str, on: date) -> Decimal | None:
    """A dated parameter's value, None where it is not configured or not yet in force."""
    try:
        return params.get(name, on).value
    except ParameterError:
        return None


def ten(power: int) -> int:
    """``10**power`` typed as an int (``power >= 0``)."""
    return int(10**power)


def exact_decimal(scaled: int, scale: int) -> Decimal:
    """``scaled / 10**scale`` as a Decimal, exactly (built from text: no context rounding,
    whatever the number of digits)."""
    return Decimal(f"{int(scaled)}E{-scale}")


def _plain(scaled: int, places: int) -> str:
    """``scaled / 10**places`` written out, trailing zeros of the fraction dropped."""
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled)).rjust(places + 1, "0")
    whole, frac = digits[: len(digits) - places], digits[len(digits) - places :].rstrip("0")
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"


def show(x: Decimal | Fraction) -> str:
    """A value for a report: exact when it terminates (whatever the number of digits), else
    rounded half-even to six decimal places."""
    if isinstance(x, Decimal):
        if not x.is_finite():
            return str(x)
        sign, digits, exponent = x.as_tuple()
        n = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
        assert isinstance(exponent, int)
        return _plain(n * ten(max(0, exponent)), max(0, -exponent))
    den = x.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den == 1:
        places = max(twos, fives)
        return _plain(x.numerator * ten(places) // x.denominator, places)
    return _plain(round(x * ten(6)), 6)
