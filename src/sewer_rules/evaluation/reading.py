"""One row of a laboratory's results file, read — or refused, each refusal naming its field.

The columns (the contract of ``sewer-use check`` and of the office's imports):
``sample_id, sampled_at, sample_type, parameter, value, unit`` required;
``facility, qualifier, reporting_limit, analyzed_at, method, source`` optional. Every field is
read with its surrounding spaces dropped; an empty field is a missing one.

A reported value is a number, or a non-detect: ``<x`` (below x), ``ND`` (with the
``reporting_limit`` column), or a number with the qualifier ``U``/``ND``/``<`` (a non-detect at
that reporting limit, the ``reporting_limit`` column when given). A non-detect is compared by
its reporting limit (:mod:`sewer_rules.limits`). Numbers are decimals, compared exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from sewer_rules.analytes import SPELLINGS, Analyte, resolve
from sewer_rules.hostile import shorten
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES
from sewer_rules.units import ALIASES, UNITS, Unit, convert

from .times import EXAMPLE_SAMPLED, date_message, read_time

REQUIRED_COLUMNS = ("sample_id", "sampled_at", "sample_type", "parameter", "value", "unit")
OPTIONAL_COLUMNS = ("facility", "qualifier", "reporting_limit", "analyzed_at", "method", "source")

#: A number as a file may write it (the engines read the same texts as numbers).
NUMBER = r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$"
#: Values that say "not detected" (with the reporting limit in its own column).
ND_WORDS = r"(?i)^(?:nd|n\.d\.|bdl|not detected|<\s*rl|<\s*mdl)$"
#: Qualifiers that make a reported number a non-detect at that number.
ND_QUALIFIERS = r"(?i)^(?:u|nd|<)$"
#: Dimensions of which a negative value is no measurement.
NON_NEGATIVE = ("concentration", "flow", "radioactivity")

_NUMBER, _ND_WORDS, _ND_QUALIFIERS = (
    re.compile(p, re.ASCII) for p in (NUMBER, ND_WORDS, ND_QUALIFIERS)
)


@dataclass(frozen=True)
class RowError:
    """Why a row is not evaluated: its row number (the header is line 1), field and message."""

    row: int
    field: str
    message: str


@dataclass(frozen=True)
class Reading:
    """A valid result: what was measured, where and when, and its value exactly."""

    row: int
    sample_id: str
    facility: str | None
    method: str | None
    sample_type: str
    analyte: Analyte
    unit: Unit
    #: The value as written (``12.5``, ``<0.01``, ``ND``).
    value_text: str
    #: Not detected: ``value`` is then the reporting limit.
    nd: bool
    #: The value (or reporting limit) in the analyte's canonical unit, exactly.
    value: Fraction
    sampled_utc: datetime
    analyzed_utc: datetime | None
    #: The sample's calendar date in town time: the date whose parameters apply.
    day: date
    #: The sample's declared source (§ 196-15 COOLING WATER), as written.
    source: str | None


def field(record: Mapping[str, str | None], name: str) -> str | None:
    """A field with its spaces dropped; None when absent or empty."""
    text = record.get(name)
    if text is None:
        return None
    text = text.strip()
    return text or None


def _key(text: str | None) -> str:
    return " ".join((text or "").strip().lower().split())


def number(text: str | None) -> Decimal | None:
    """The exact decimal a text writes, or None when it writes no finite number."""
    if text is None or _NUMBER.match(text) is None:
        return None
    return Decimal(text)


def read_row(
    row: int, record: Mapping[str, str | None], tz: str, first_day: date
) -> Reading | list[RowError]:
    """One row read as a :class:`Reading`, or every reason it cannot be (in a fixed order)."""
    errors: list[RowError] = []

    def refuse(name: str, message: str) -> None:
        errors.append(RowError(row, name, message))

    value_text = field(record, "value")
    qualifier, rl = field(record, "qualifier"), field(record, "reporting_limit")
    analyte_name = SPELLINGS.get(_key(record.get("parameter")))
    analyte = resolve(analyte_name) if analyte_name else None
    symbol = ALIASES.get(_key(record.get("unit")))
    unit = UNITS[symbol] if symbol else None
    sample_type = _key(record.get("sample_type"))
    sampled = read_time(record.get("sampled_at"), tz)
    analyzed = read_time(record.get("analyzed_at"), tz)

    # The value: a number, or a non-detect compared by its reporting limit.
    below = value_text[1:].strip() if value_text and value_text.startswith("<") else None
    nd_word = value_text is not None and _ND_WORDS.match(value_text) is not None
    nd_qualifier = qualifier is not None and _ND_QUALIFIERS.match(qualifier) is not None
    nd = below is not None or nd_word or nd_qualifier
    if value_text is None:
        written = None
    elif below is not None:
        written = below
    elif nd_word:
        written = rl
    elif nd_qualifier:
        written = rl or value_text
    else:
        written = value_text
    value = number(written)

    if not field(record, "sample_id"):
        refuse("sample_id", "missing sample_id")
    if sampled is None:
        refuse("sampled_at", date_message(record.get("sampled_at"), tz, EXAMPLE_SAMPLED))
    elif sampled.day < first_day:
        refuse("sampled_at", f"sampled before the article took effect ({first_day.isoformat()})")
    if sample_type not in SAMPLE_TYPES:
        shown = shorten(field(record, "sample_type") or "")
        refuse("sample_type", f"sample_type '{shown}' is not one of grab, composite, continuous")
    if analyte is None:
        refuse("parameter", f"unknown parameter '{shorten(field(record, 'parameter') or '')}'")
    if unit is None:
        refuse("unit", f"unknown unit '{shorten(field(record, 'unit') or '')}'")
    elif analyte is not None and unit.dimension != analyte.dimension:
        refuse(
            "unit", f"unit '{shorten(field(record, 'unit') or '')}' does not measure {analyte.name}"
        )
    if nd_word and rl is None:
        refuse("reporting_limit", "a non-detect 'ND' needs a reporting_limit")
    if nd_word and written is not None and value is None:
        refuse("reporting_limit", f"unparseable reporting_limit '{shorten(rl or '')}'")
    if written is not None and value is None and not nd_word:
        refuse("value", f"unparseable value '{shorten(value_text or '')}'")
    if value_text is None:
        refuse("value", "missing value")
    if value is not None and analyte is not None:
        if analyte.name == "ph" and not 0 <= value <= 14:
            refuse("value", f"pH {shorten(value_text or '')} is outside 0–14")
        if analyte.dimension in NON_NEGATIVE and value < 0:
            refuse(
                "value",
                f"negative {analyte.dimension} {shorten(value_text or '')} is not a measurement",
            )
    if field(record, "analyzed_at") and analyzed is None:
        refuse("analyzed_at", date_message(record.get("analyzed_at"), tz))
    if analyzed is not None and sampled is not None and analyzed.utc < sampled.utc:
        refuse("analyzed_at", "analysed before it was sampled")
    if errors:
        return errors
    assert analyte and unit and sampled and value is not None and value_text  # no error: all read
    return Reading(
        row=row,
        sample_id=field(record, "sample_id") or "",
        facility=field(record, "facility"),
        method=field(record, "method"),
        sample_type=sample_type,
        analyte=analyte,
        unit=unit,
        value_text=value_text,
        nd=nd,
        value=convert(value, unit.symbol, analyte.canonical_unit),
        sampled_utc=sampled.utc,
        analyzed_utc=analyzed.utc if analyzed else None,
        day=sampled.day,
        source=record.get("source"),
    )
