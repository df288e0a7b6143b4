"""Dates as laboratories write them: a mapping's ``date_format`` checked and read (to ISO 8601
with the offset in force), and the dates of a sample column told apart (which common forms read
it, and whether its day and month can be taken one for the other).

Apart from the mapping itself because both the mapping (reading a file) and the description of
a sample file (helping to write one) need it, and neither needs the other's half.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import polars as pl

from .vocabulary import ISO

#: What the mapped dates look like: ISO 8601 with the offset in force at the time.
ISO_OUT = "%Y-%m-%dT%H:%M:%S%:z"
ISO_DATE = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$"
)
_DIRECTIVE = re.compile(r"%(.)")
_ALLOWED_DIRECTIVES = set("YymbBdeHIMSpz%")

#: Date forms tried on a sample column (the ISO form is recognised apart).
DATE_PARTS = (
    "%m/%d/%Y",
    "%d/%m/%Y",
    "%m/%d/%y",
    "%d/%m/%y",
    "%Y/%m/%d",
    "%m-%d-%Y",
    "%d-%m-%Y",
    "%d.%m.%Y",
    "%d-%b-%Y",
    "%d-%b-%y",
    "%d %b %Y",
    "%b %d, %Y",
    "%Y%m%d",
)
TIME_PARTS = (" %H:%M", " %H:%M:%S", " %I:%M %p", " %I:%M:%S %p")
TIME_FORMATS = ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p", "%H%M")
#: Distinct values of a column read to describe it (a sample file is small; a large one is
#: described by its first distinct values).
SAMPLE_VALUES = 2000
#: A date's first two numbers (day and month, in some order).
_DAY_MONTH = r"^(\d{1,2})[/.-](\d{1,2})[/.-]"


# --- a mapping's format -------------------------------------------------------------------------


def check_date_format(fmt: str) -> str:
    """ "" when ``fmt`` reads a date (and time) unambiguously, else what is wrong with it.

    Only the directives of dates and times are allowed; a year, a month and a day are needed;
    a 12-hour clock needs ``%p``. The format is tried on a date whose day, month and hour
    cannot be taken one for another (23 November 2026, 17:45)."""
    directives = set(_DIRECTIVE.findall(fmt))
    odd = sorted(directives - _ALLOWED_DIRECTIVES)
    if odd:
        return f"'{fmt}': %{', %'.join(odd)} is not a directive of a date or time"
    if not fmt.strip() or not directives:
        return f"'{fmt}' is not a date format (e.g. %m/%d/%Y %H:%M)"
    if not ({"Y", "y"} & directives):
        return f"'{fmt}' has no year (%Y)"
    if not ({"m", "b", "B"} & directives):
        return f"'{fmt}' has no month (%m)"
    if not ({"d", "e"} & directives):
        return f"'{fmt}' has no day (%d)"
    if "I" in directives and "p" not in directives:
        return f"'{fmt}' has a 12-hour clock (%I) without AM/PM (%p)"
    sample = datetime(2026, 11, 23, 17, 45, 39, tzinfo=timezone(timedelta(hours=-5)))
    text = sample.strftime(fmt)
    dtype = pl.Datetime("us", "UTC") if "%z" in fmt else pl.Datetime("us")
    parsed = pl.Series([text]).str.strptime(dtype, fmt, strict=False).item()
    if parsed is None:
        return f"'{fmt}' cannot read its own dates ({text})"
    local = parsed.astimezone(sample.tzinfo) if parsed.tzinfo else parsed
    if (local.year, local.month, local.day) != (2026, 11, 23):
        return f"'{fmt}' reads {text} as {local:%Y-%m-%d}"
    if ({"H", "I"} & directives) and (local.hour, local.minute) != (17, 45):
        return f"'{fmt}' reads {text} at {local:%H:%M}"
    return ""


def date_only(fmt: str) -> str | None:
    """The date part of a format that also has a time (``%m/%d/%Y %H:%M`` → ``%m/%d/%Y``):
    a value with no time is read as midnight, as the engine reads ``2026-03-02``."""
    directives = _DIRECTIVE.findall(fmt)
    if not any(d in "HIMSp" for d in directives):
        return None
    cut = re.search(r"[ T]+%[HI]", fmt)
    return fmt[: cut.start()] if cut else None


def parse_format(text: pl.Series, fmt: str, tz: str) -> tuple[pl.Series, pl.Series]:
    """Texts in ``fmt`` → ISO 8601 with offset (null when not in the format, or a local time
    that does not exist), and whether each null is such a time."""
    aware = "%z" in fmt
    dtype = pl.Datetime("us", "UTC") if aware else pl.Datetime("us")
    parsed = text.str.strptime(dtype, fmt, strict=False, cache=False)
    short = date_only(fmt)
    if short is not None:
        alone = text.str.strptime(pl.Datetime("us"), short, strict=False, cache=False)
        if aware:
            alone = alone.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
            alone = alone.dt.convert_time_zone("UTC")
        parsed = parsed.fill_null(alone)
    if aware:
        local = parsed.dt.convert_time_zone(tz)
        return local.dt.strftime(ISO_OUT), pl.repeat(False, text.len(), eager=True)
    local = parsed.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
    gap = (parsed.is_not_null() & local.is_null()).fill_null(False)
    return local.dt.strftime(ISO_OUT), gap


# --- a sample column's dates --------------------------------------------------------------------


@dataclass(frozen=True)
class DateReading:
    """How a column's dates can be read: the formats that read every value (two when day and
    month can be taken one for the other), and the value that shows it."""

    formats: tuple[str, ...]
    iso: bool = False
    example: str = ""

    @property
    def ambiguous(self) -> bool:
        return len(self.formats) > 1

    def question(self) -> str:
        if not self.ambiguous:
            return ""
        first, second = (_day_and_month(self.example, f) for f in self.formats[:2])
        return f"{self.example} could be {first} or {second}: choose {' or '.join(self.formats)}"


def _day_and_month(text: str, fmt: str) -> str:
    """``text`` read in ``fmt`` (or in its date part alone), as '2 March'; '?' when neither
    reads it."""
    for tried in (fmt, date_only(fmt)):
        if tried is None:
            continue
        value = pl.Series([text]).str.strptime(pl.Datetime("us"), tried, strict=False).item()
        if value is not None:
            return f"{value.day} {value:%B}"
    return "?"


def distinct_values(values: pl.Series) -> pl.Series:
    """A column's first :data:`SAMPLE_VALUES` distinct values as text, trimmed, none empty."""
    text = values.cast(pl.String).str.strip_chars().replace("", None).drop_nulls()
    return text.unique(maintain_order=True).head(SAMPLE_VALUES)


def _read_as(text: pl.Series, fmt: str) -> pl.Series:
    """``text`` read in ``fmt``, null where it does not read (or a four-digit year before
    1900, which is a misread)."""
    read = text.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)
    if "%Y" not in fmt:
        return read
    return pl.select(pl.when(pl.lit(read).dt.year() >= 1900).then(pl.lit(read))).to_series()


def date_reading(values: pl.Series) -> DateReading:
    """The formats that read every non-empty value of a column as a date (and time).

    ISO 8601 is recognised as such. Otherwise each common form (:data:`DATE_PARTS` with or
    without :data:`TIME_PARTS`) is tried: a form reads the column when it reads every value
    (a value without its time as midnight), a four-digit year being one after 1900. When both
    a month-first and a day-first form read it, the reading is ambiguous: both are given,
    with a value that shows it."""
    text = distinct_values(values)
    if text.len() == 0:
        return DateReading(())
    if text.str.contains(ISO_DATE.pattern).all():
        return DateReading((ISO,), iso=True, example=str(text.item(0)))
    found: list[str] = []
    for part in DATE_PARTS:
        alone = _read_as(text, part)
        if alone.is_not_null().all():
            found.append(part)
            continue
        for time in TIME_PARTS:
            full = _read_as(text, part + time)
            if full.is_not_null().any() and (full.is_not_null() | alone.is_not_null()).all():
                found.append(part + time)
    if not found:
        return DateReading(())
    # A day and month that can be swapped: shown on a value whose day and month differ and
    # both could be a month (the first such, else the first value).
    example = str(text.item(0))
    if len(found) > 1:
        a, b = (text.str.extract(_DAY_MONTH, i).cast(pl.Int32, strict=False) for i in (1, 2))
        shown = text.filter(((a != b) & (a <= 12) & (b <= 12)).fill_null(False))
        if shown.len():
            example = str(shown.item(0))
    return DateReading(tuple(found), example=example)


def time_reading(values: pl.Series) -> tuple[str, ...]:
    """The formats that read every non-empty value of a column as a time of day alone."""
    text = distinct_values(values)
    if text.len() == 0:
        return ()
    return tuple(
        fmt
        for fmt in TIME_FORMATS
        if text.str.strptime(pl.Time, fmt, strict=False, cache=False).is_not_null().all()
    )
