"""What a row error of a meter file says: the codes of the compact form and their messages.

The compact rows (:mod:`.compact_rows`) carry a code and the text at fault; the message is
written only for the row errors reported (the first ``max_errors``). A time the clocks skipped
or repeated is shown with the UTC offsets that would make it an instant, so that the user can
write it so: the offset in force before a skipped hour, the offset of each occurrence of a
repeated one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sewer_rules.hostile import shorten
from sewer_rules.monitoring.instants import zone

from .value_column import MAX_DIGITS

#: Row error codes of the compact form, and their field and message (``{}``: the text).
CODES: dict[int, tuple[str, str]] = {
    1: ("timestamp", "missing timestamp"),
    2: ("timestamp", "not a timestamp: '{}'"),
    3: (
        "timestamp",
        "'{}' does not exist in {tz}: the clocks went forward over that time that day; "
        "write the time with its UTC offset (e.g. '{}{offset}')",
    ),
    4: ("meter", "missing meter"),
    5: ("parameter", "missing parameter"),
    6: ("parameter", "unknown parameter '{}'"),
    7: ("unit", "unknown unit '{}'"),
    8: ("unit", "unit '{}' does not measure the parameter"),
    9: ("value", "not a number: '{}'"),
    13: (
        "timestamp",
        "'{}' happened twice in {tz} (the clocks went back that day): "
        "write the time with its UTC offset ('{}{first}' the first time, "
        "'{}{second}' the second)",
    ),
    10: (
        "value",
        "beyond the range read exactly ("
        + str(MAX_DIGITS)
        + " digits before and after the decimal point): '{}'",
    ),
}


def _offset_text(offset: timedelta | None) -> str:
    if offset is None:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _offsets_of_repeated(text: str, tz: str) -> tuple[str, str]:
    """The UTC offsets of the two occurrences of a time the clocks repeated (``-04:00`` and
    ``-05:00`` for 01:30 on the fall-back day in New York), for a row error; "" if none."""
    try:
        naive = datetime.fromisoformat(text)
    except ValueError:
        return "", ""
    if naive.tzinfo is not None:
        return "", ""
    where = zone(tz)
    return (
        _offset_text(naive.replace(tzinfo=where, fold=0).utcoffset()),
        _offset_text(naive.replace(tzinfo=where, fold=1).utcoffset()),
    )


def _offset_before(text: str, tz: str) -> str:
    """The UTC offset in force just before a time the clocks skipped (``-05:00`` for 02:30 on
    the spring-forward day in New York), for the example of a row error; "" if none."""
    try:
        naive = datetime.fromisoformat(text)
    except ValueError:
        return ""
    offset = naive.replace(tzinfo=zone(tz), fold=0).utcoffset()
    if naive.tzinfo is not None or offset is None:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def row_error_message(code: int, raw: str | None, tz: str) -> tuple[str, str]:
    """The field and the message of row error ``code`` for the text ``raw``, times read in
    ``tz``."""
    field, template = CODES[code]
    text = raw if raw is not None else ""
    first, second = _offsets_of_repeated(text, tz)
    offset = _offset_before(text, tz)
    quoted = shorten(text)  # a 200,000-digit value is not echoed whole
    return field, template.format(
        quoted, quoted, quoted, tz=tz, offset=offset, first=first, second=second
    )
