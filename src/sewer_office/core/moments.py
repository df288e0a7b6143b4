"""Moments as the Town reads them: every date and time a person reads (a record's name, a
page, a message) is in the Town's time zone (``TIME_ZONE``), never the database's UTC — a
sample taken at 9 p.m. on the 9th is not "the 10th, 02:00".

Templates get this for free (Django converts an aware datetime to the current time zone when
it prints one, ``|date`` included); Python's own formatting (``f"{dt:%Y-%m-%d}"``) does not,
hence :func:`local`.
"""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone

#: A day and a time to the minute, as the pages show them.
MINUTE = "%Y-%m-%d %H:%M"
DAY = "%Y-%m-%d"


def local(value: datetime | date | None, fmt: str = MINUTE) -> str:
    """``value`` in the Town's time zone, formatted (an aware datetime is converted; a naive
    one or a date is taken as already the Town's; None is the empty text)."""
    if value is None:
        return ""
    if isinstance(value, datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.strftime(fmt)
