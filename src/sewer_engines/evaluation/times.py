"""The sample and analysis times of a results table, read in columns: ISO 8601 text as an
instant and a town date, and the message for a time that cannot be read.

The reference is :mod:`sewer_rules.evaluation.times` (one text at a time): the forms accepted,
town time without an offset, the first of a repeated autumn hour, no spring-forward time. Here
the same reading is done on whole columns with polars, fast on the shapes laboratory files have
(one form a file, each sample's time repeated on its results); the tests compare each value
with the reading of its own text. Kept apart from the row checks (:mod:`.prepare`) because the
office reads a mapped laboratory file's times with it too.
"""

from __future__ import annotations

import polars as pl

from sewer_rules.evaluation.times import ISO_PATTERN

from .text import format_text

NAIVE_FORMATS = (
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
)
AWARE_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z",
    "%Y-%m-%dT%H:%M%z",
    "%Y-%m-%d %H:%M:%S%z",
    "%Y-%m-%d %H:%M%z",
    "%Y-%m-%dT%H:%M:%S%.f%z",
    "%Y-%m-%d %H:%M:%S%.f%z",
)
UTC = pl.Datetime("us", "UTC")


def parse_datetimes(values: pl.Series, tz: str) -> pl.DataFrame:
    """ISO 8601 text → ``utc`` (aware datetime) and ``day`` (the calendar date in town time).

    Null when unparseable or not a local time. A laboratory file repeats each sample's time on
    every result of the sample, on consecutive lines: each run of one text is parsed once and
    mapped back (finding the runs is a comparison with the previous line, where a hash of every
    text would cost as much as parsing it); for the same reason polars' own cache of parsed
    texts is off (the texts it sees are distinct: it took half the time of the parse). Each
    accepted form is tried in turn on the texts still unparsed, the form of the file's first
    time first (most files use one form). Without an offset a time is town time and its day is
    its own calendar date; an ambiguous hour (the autumn change) is read as the first, and a
    time that does not exist (the spring change) is refused.
    """
    text = values.cast(pl.String).rename("text")
    n = text.len()
    heads = pl.select(
        (pl.int_range(n, dtype=pl.UInt32) == 0) | text.ne_missing(text.shift(1))
    ).to_series()
    runs = int(heads.sum())
    if runs == n:
        utc, day = _parse_all(text, tz)
        return pl.DataFrame({"utc": utc, "day": day})
    utc, day = _parse_all(text.filter(heads), tz)
    run = (heads.cum_sum() - 1).cast(pl.UInt32)
    return pl.DataFrame({"utc": utc.gather(run), "day": day.gather(run)})


def _formats(text: pl.Series, tz: str) -> list[str]:
    """The accepted forms, the one that reads the first non-empty text first."""
    formats = [*NAIVE_FORMATS, *AWARE_FORMATS]
    probe = text.filter(text.is_not_null() & (text != "")).head(1)
    if probe.len():
        first = next((f for f in formats if _parse_as(probe, f, tz).is_not_null().all()), None)
        if first is not None:
            formats.remove(first)
            formats.insert(0, first)
    return formats


def _parse_all(values: pl.Series, tz: str) -> tuple[pl.Series, pl.Series]:
    """``utc`` and ``day`` of every text (null where none of the forms reads it).

    The form of the file's first time reads every text in one pass. Texts it leaves (a file
    that mixes forms) are grouped by their layout — the text with every digit written ``9`` —
    and each group is read in the form its layout has, found on a few of its texts: trying
    every form in turn on every text left cost a mixed file one pass a form.
    """
    text = _accepted(values.str.strip_chars())
    read = _Read(
        text,
        pl.repeat(None, text.len(), dtype=UTC, eager=True),
        pl.repeat(None, text.len(), dtype=pl.Date, eager=True),
        tz,
    )
    formats = _formats(text, tz)
    left = read.group(pl.arange(0, text.len(), eager=True, dtype=pl.UInt32), formats[:1])
    if left.len():
        layouts = text.gather(left).str.replace_all(r"[0-9]", "9")
        for layout in layouts.unique(maintain_order=True):
            group = left.filter(layouts.eq_missing(layout))
            sample = text.gather(group.head(8))
            fits = [f for f in formats[1:] if _parse_as(sample, f, tz).is_not_null().any()]
            read.group(group, fits + [f for f in formats[1:] if f not in fits])
    return read.utc, read.day


class _Read:
    """The instants and days read so far, filled in group by group."""

    def __init__(self, text: pl.Series, utc: pl.Series, day: pl.Series, tz: str) -> None:
        self.text, self.utc, self.day, self.tz = text, utc, day, tz

    def group(self, positions: pl.Series, formats: list[str]) -> pl.Series:
        """Read the texts at ``positions`` in each of ``formats`` in turn (each on what the
        ones before left); the positions of the non-empty texts none of them read."""
        whole = positions.len() == self.text.len()
        pending = self.text if whole else self.text.gather(positions)
        for fmt in formats:
            keep = pending.is_not_null() & (pending != "")
            if not keep.all():
                pending, positions = pending.filter(keep), positions.filter(keep)
            if pending.len() == 0:
                break
            parsed, parsed_day = _parse_with_day(pending, fmt, self.tz)
            if pending.len() == self.text.len():
                self.utc, self.day = parsed, parsed_day
            else:
                self.utc = self.utc.scatter(positions, parsed)
                self.day = self.day.scatter(positions, parsed_day)
            left = parsed.is_null()
            pending, positions = pending.filter(left), positions.filter(left)
        keep = pending.is_not_null() & (pending != "")
        return positions.filter(keep)


#: The forms :mod:`sewer_rules.evaluation.times` accepts, whole texts only. The parser's own
#: formats read more (one-digit fields, a leap second, a ``+`` before the year): a text is
#: parsed only when it has one of the accepted forms.
_ISO_WHOLE = f"^(?:{ISO_PATTERN})$".replace("?P<", "?<")


def _accepted(text: pl.Series) -> pl.Series:
    """``text`` where it has an accepted form, null elsewhere (one pass, no copy when all do)."""
    ok = text.str.contains(_ISO_WHOLE)
    if ok.all():
        return text
    return pl.select(pl.when(ok).then(text)).to_series()


def _parse_with_day(text: pl.Series, fmt: str, tz: str) -> tuple[pl.Series, pl.Series]:
    """The instants read in one form and their calendar dates in town time.

    A naive time is town time: its date is its own (no conversion back from UTC)."""
    if fmt.endswith("%z"):
        utc = _parse_as(text, fmt, tz)
        return utc, utc.dt.convert_time_zone(tz).dt.date()
    naive = text.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)
    utc = naive.dt.replace_time_zone(
        tz, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")
    day = pl.select(pl.when(utc.is_not_null()).then(naive.dt.date())).to_series()
    return utc, day


def _parse_as(text: pl.Series, fmt: str, tz: str) -> pl.Series:
    if fmt.endswith("%z"):
        return text.str.replace(r"Z$", "+00:00").str.strptime(UTC, fmt, strict=False, cache=False)
    return (
        text.str.strptime(pl.Datetime("us"), fmt, strict=False, cache=False)
        .dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
        .dt.convert_time_zone("UTC")
    )


def _naive(text: pl.Expr) -> pl.Expr:
    """The text read as a naive local time in any accepted form (null when it is none)."""
    naive = pl.coalesce(
        [text.str.strptime(pl.Datetime("us"), fmt, strict=False) for fmt in NAIVE_FORMATS]
    )
    without_offset = text.str.contains(_ISO_WHOLE) & ~text.str.contains(r"(?:Z|[+-][0-9:]{4,5})$")
    return pl.when(without_offset).then(naive)


def date_message(text: pl.Expr, tz: str, example: str = "") -> pl.Expr:
    """The message for an unreadable date: a local time that never happened, or not ISO 8601.

    A naive time inside the spring-forward gap (``2024-03-10T02:30`` in America/New_York) is
    valid ISO 8601 but names no instant: the message says so and shows how to write the time
    with its offset (the same clock time an hour later, with the offset then in force). Only
    the failing rows are ever evaluated here, so the extra parsing costs nothing on valid files.
    ``text``: the column's text, stripped.
    """
    text = text.fill_null("")
    naive = _naive(text)
    later = (naive + pl.duration(hours=1)).dt.replace_time_zone(tz, non_existent="null")
    offset_example = later.dt.strftime("%Y-%m-%dT%H:%M%:z")
    gap = format_text(
        "local time '{}' does not exist on {} in {} (the clocks moved forward): "
        "give the UTC offset, e.g. {}",
        text,
        naive.dt.date().cast(pl.String),
        pl.lit(tz),
        offset_example.fill_null("2024-03-10T03:30-04:00"),
    )
    hint = f", {example}" if example else ""
    bad = format_text(f"bad date '{{}}' (ISO 8601 expected{hint})", text)
    return pl.when(naive.is_not_null()).then(gap).otherwise(bad)
