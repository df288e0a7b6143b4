"""When a sample was taken and analysed: ISO 8601 text read as an instant and a town date.

The dates of a results file are ISO 8601 as laboratories write it (§ 196-19 I requires
measurements by Standard Methods, whose holding times, 40 CFR 136.3(e), run from the time of
sampling; the dated parameters of Article VII apply by the sample's calendar date):

- a date, ``2026-03-02`` (midnight, town time);
- a date and a time, ``T`` or a space between: ``2026-03-02T08:30``, ``2026-03-02 08:30:15``,
  with or without seconds, the seconds with or without a fraction (``08:30:15.250``; digits
  past the microsecond are dropped);
- a time may end with its offset from UTC: ``Z``, ``+00:00``, ``-05:00`` or ``-0500``.

Without an offset a time is the town's own clock time (ARCHITECTURE.md: times are aware, in
the town's zone). In the autumn, when the clocks go back, an hour happens twice: a time in it
is read as the first. In the spring an hour never happens: a time in it names no instant and is
refused, with a message that shows how to write it with its offset. The calendar date of a
sample is its date in town time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from sewer_rules.hostile import shorten

#: The accepted forms, as one pattern (the engines read by the same pattern). Fields of two
#: digits, the year from 0001; the ranges of months, days, hours and minutes are the calendar's.
ISO_PATTERN = (
    r"(?P<date>(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-[0-9]{2}-[0-9]{2})"
    r"(?:[T ](?P<hour>[0-9]{2}):(?P<minute>[0-9]{2})"
    r"(?::(?P<second>[0-5][0-9])(?:\.(?P<fraction>[0-9]{1,9}))?)?"
    r"(?P<offset>Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])?)?"
)
ISO_TIME = re.compile(ISO_PATTERN)
EXAMPLE_SAMPLED = "e.g. 2026-03-02T08:30"
#: The example a message gives when the offset of a time in the spring gap cannot be shown.
GAP_EXAMPLE = "2024-03-10T03:30-04:00"


@dataclass(frozen=True)
class Instant:
    """A time read from a file: the instant (UTC) and its calendar date in town time."""

    utc: datetime
    day: date


def _naive(match: re.Match[str]) -> datetime | None:
    """The clock time the text writes, without its offset (None: no such date or time)."""
    fraction = (match["fraction"] or "").ljust(6, "0")[:6]
    try:
        day = date.fromisoformat(match["date"])
        return datetime(  # noqa: DTZ001 - a clock time: its zone is decided by the caller
            day.year,
            day.month,
            day.day,
            int(match["hour"] or 0),
            int(match["minute"] or 0),
            int(match["second"] or 0),
            int(fraction),
        )
    except ValueError:
        return None


def _offset(text: str) -> timezone | None:
    if text == "Z":
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if minutes >= 60 or hours >= 24:
        return None
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def town_time(clock: datetime, zone: ZoneInfo) -> datetime | None:
    """A clock time of the town as an aware time; the first of an hour that happens twice,
    None for a time of the hour skipped in the spring."""
    aware = clock.replace(tzinfo=zone, fold=0)
    if aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != clock:
        return None
    return aware


def read_time(text: str | None, tz: str) -> Instant | None:
    """The instant and town date a file's text writes, or None when it writes none."""
    if text is None:
        return None
    match = ISO_TIME.fullmatch(text.strip())
    if match is None:
        return None
    clock = _naive(match)
    if clock is None:
        return None
    zone = ZoneInfo(tz)
    if match["offset"] is None:
        aware = town_time(clock, zone)
        if aware is None:
            return None
        return Instant(aware.astimezone(UTC), clock.date())
    offset = _offset(match["offset"])
    if offset is None:
        return None
    utc = clock.replace(tzinfo=offset).astimezone(UTC)
    return Instant(utc, utc.astimezone(zone).date())


def date_message(text: str | None, tz: str, example: str = "") -> str:
    """Why a time cannot be read: a town clock time that never happened, or not ISO 8601."""
    shown = shorten((text or "").strip())
    match = ISO_TIME.fullmatch(shown)
    clock = _naive(match) if match is not None and match["offset"] is None else None
    if clock is not None:
        later = town_time(clock + timedelta(hours=1), ZoneInfo(tz))
        written = later.isoformat(timespec="minutes") if later is not None else GAP_EXAMPLE
        return (
            f"local time '{shown}' does not exist on {clock.date().isoformat()} in {tz} "
            f"(the clocks moved forward): give the UTC offset, e.g. {written}"
        )
    hint = f", {example}" if example else ""
    return f"bad date '{shown}' (ISO 8601 expected{hint})"
