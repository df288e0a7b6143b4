"""A first draft of a mapping for a sample file, from what :mod:`.describe` reads in it: the
columns its headers and values suggest, the date format when only one reads the dates, the
usual meanings of the usual qualifier codes, and the questions only the mapping's writer can
answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from sewer_rules.evaluation import REQUIRED_COLUMNS

from .dates import DateReading, date_only
from .describe import ColumnReading, describe_columns
from .vocabulary import AS_WRITTEN, CAS_COLUMN, DEFAULT_TIMEZONE, ISO, Meaning

#: What the usual qualifier codes are taken to mean in a suggestion (the mapping's writer
#: confirms or changes each; a code not listed here is left to choose).
USUAL_CODES: dict[str, Meaning] = {
    "U": Meaning.NON_DETECT,
    "ND": Meaning.NON_DETECT,
    "<": Meaning.NON_DETECT,
    "UJ": Meaning.NON_DETECT,
    "J": Meaning.ESTIMATED,
    "B": Meaning.BLANK,
}


@dataclass(frozen=True)
class Suggestion:
    """A first draft of a mapping for a sample file: ``draft`` (the dictionary form, with what
    the headers and values suggest) and ``questions``, what only the mapping's writer can
    answer (an ambiguous date, a code without a usual meaning, a required column not found)."""

    readings: list[ColumnReading]
    draft: dict[str, Any]
    questions: list[str]


def suggest(frame: pl.DataFrame, name: str = "") -> Suggestion:
    """A draft mapping for a sample file, never a decision: every choice is shown to be
    confirmed, and what is ambiguous stays open (no ``date_format`` is chosen for dates that
    read two ways)."""
    readings = describe_columns(frame)
    columns: dict[str, Any] = {}
    questions: list[str] = []
    for reading in readings:
        if reading.target and reading.target not in columns and reading.kind != "times":
            columns[reading.target] = reading.header
    time_col = next((r for r in readings if r.kind == "times" and r.target == "sampled_at"), None)
    date_col = next((r for r in readings if r.header == columns.get("sampled_at")), None)
    mapped = set(columns.values())
    dated = [(r, r.dates) for r in readings if r.dates and r.header in mapped]
    if time_col is not None and date_col is not None and date_col.dates is not None:
        columns["sampled_at"] = [date_col.header, time_col.header]
    date_format = _date_format(readings, dated, date_col, time_col, questions)
    qualifiers: dict[str, str] = {}
    for reading in readings:
        if reading.header == columns.get("qualifier"):
            for code in reading.codes:
                if code in USUAL_CODES:
                    qualifiers[code] = str(USUAL_CODES[code])
                else:
                    questions.append(f"{reading.header}: what does the code '{code}' mean?")
    for target in REQUIRED_COLUMNS:
        if target not in columns and not (target == "parameter" and CAS_COLUMN in columns):
            questions.append(f"{target}: no column found: choose one, or give a constant")
    draft: dict[str, Any] = {"name": name, "columns": columns}
    if date_format is not None:
        draft["date_format"] = date_format
    draft["timezone"] = DEFAULT_TIMEZONE
    draft["qualifiers"] = qualifiers if "qualifier" in columns else AS_WRITTEN
    return Suggestion(readings, draft, questions)


def _date_format(
    readings: list[ColumnReading],
    dated: list[tuple[ColumnReading, DateReading]],
    date_col: ColumnReading | None,
    time_col: ColumnReading | None,
    questions: list[str],
) -> str | None:
    """The one format that reads the mapped date columns (``dated``, with ``sampled_at``'s
    time column when it has one), :data:`ISO` when they are ISO 8601; ``None``, and the
    question asked, when they read two ways or are written in several forms."""
    # another date column that reads one way only tells which way the laboratory writes dates:
    # said beside the question, not chosen
    settled = {
        r.header: r.dates.formats[0]
        for r in readings
        if r.dates is not None and len(r.dates.formats) == 1 and not r.dates.iso
    }
    date_format: str | None = ISO
    formats: set[str] = set()
    for reading, dates in dated:
        if dates.ambiguous:
            hints = [
                f"the column '{header}' reads only as {fmt}"
                for header, fmt in settled.items()
                if any(_date_part(fmt) == _date_part(f) for f in dates.formats)
            ]
            more = f" ({'; '.join(hints)})" if hints else ""
            questions.append(f"{reading.header}: {dates.question()}{more}")
            date_format = None
        elif not dates.iso:
            fmt = dates.formats[0]
            if time_col is not None and reading is date_col and time_col.times:
                fmt = f"{fmt} {time_col.times[0]}"
            formats.add(fmt)
    if date_format is None or not formats:
        return date_format
    if len(formats) == 1:
        return formats.pop()
    questions.append(
        f"the dates are written in several forms ({', '.join(sorted(formats))}): one "
        "mapping reads one form"
    )
    return None


def _date_part(fmt: str) -> str:
    return date_only(fmt) or fmt
