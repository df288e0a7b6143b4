"""A sample file read to help write its mapping: what each column holds, in words (dates and
in which forms, CAS numbers, parameters, units, qualifier codes...), and the project column its
header or values suggest. Said, never decided: :mod:`.suggest` makes a draft of it and leaves
what is ambiguous open.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sewer_rules.analytes import CAS_NUMBERS, CAS_PATTERN, SPELLINGS, cas_check_digit_ok
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES
from sewer_rules.units import ALIASES

from .dates import SAMPLE_VALUES, DateReading, date_reading, distinct_values, time_reading
from .vocabulary import CAS_COLUMN, file_columns, norm


@dataclass(frozen=True)
class ColumnReading:
    """What one column of a sample file holds, in words, and what it could be mapped to."""

    header: str
    #: empty, dates, times, cas, parameters, qualifiers, numbers, units, sample types or text
    kind: str
    text: str
    examples: tuple[str, ...] = ()
    dates: DateReading | None = None
    times: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    target: str = ""  # the project column its header suggests ("" when none)


#: Header words that suggest a project column (compared trimmed, lower case, single spaces).
HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "sample_id": (
        "sample id",
        "sample_id",
        "sample",
        "client sample id",
        "sample name",
        "field sample id",
        "sys_sample_code",
        "sample number",
        "sample no",
        "client id",
    ),
    "sampled_at": (
        "collection date",
        "sampled_at",
        "sample date",
        "date sampled",
        "sampled",
        "collected",
        "collection datetime",
        "sample_date",
        "date collected",
        "collect date",
        "collection date/time",
        "sample date/time",
    ),
    "sample_type": ("sample type", "sample_type", "collection type", "grab/composite", "type"),
    "parameter": (
        "analyte",
        "parameter",
        "chemical name",
        "analyte name",
        "compound",
        "test",
        "chemical",
        "parameter name",
        "analyte_name",
    ),
    CAS_COLUMN: (
        "cas",
        "cas number",
        "cas no",
        "cas no.",
        "cas #",
        "cas_rn",
        "casrn",
        "cas rn",
        "cas_number",
    ),
    "value": (
        "result",
        "result value",
        "value",
        "concentration",
        "result_value",
        "reported result",
    ),
    "unit": ("units", "unit", "result units", "result_unit", "result unit", "reporting units"),
    "qualifier": (
        "qualifier",
        "lab qualifier",
        "flag",
        "qualifiers",
        "result qualifier",
        "lab_qualifiers",
        "q",
        "lab flag",
        "data qualifier",
    ),
    "reporting_limit": (
        "reporting limit",
        "reporting_limit",
        "rl",
        "pql",
        "mrl",
        "quantitation limit",
        "reporting_detection_limit",
        "report limit",
    ),
    "analyzed_at": (
        "analysis date",
        "analyzed_at",
        "analyzed",
        "date analyzed",
        "analyzed date",
        "analysis_date",
        "analysis date/time",
        "date of analysis",
    ),
    "method": (
        "method",
        "analysis method",
        "analytical method",
        "test method",
        "lab_anl_method_name",
    ),
    "facility": ("facility", "facility code", "facility id", "site", "site id", "site code"),
    "sampling_point": (
        "sampling point",
        "sampling_point",
        "sample point",
        "sys_loc_code",
        "location code",
        "location",
        "outfall",
    ),
    "laboratory": ("laboratory", "lab", "lab name", "lab_name_code"),
    "collected_by": ("collected by", "collected_by", "sampler", "sampled by"),
    "received_at": ("received", "received_at", "date received", "receipt date", "received date"),
    "received_by": ("received by", "received_by"),
    "relinquished_at": ("relinquished", "relinquished_at", "date relinquished"),
    "relinquished_by": ("relinquished by", "relinquished_by"),
    "source": ("source", "water source"),
}
_TIME_WORDS = ("collection time", "sample time", "time sampled", "time collected", "collect time")
_BY_WORD = {w: target for target, words in HEADER_WORDS.items() for w in words}


def describe_column(header: str, values: pl.Series) -> ColumnReading:
    """What a column of a sample file holds, read from its values (and its header only for
    what cannot be told apart from the values: qualifier codes, a date's time column)."""
    text = distinct_values(values)
    target = _BY_WORD.get(norm(header), "")
    if text.len() == 0:
        return ColumnReading(header, "empty", "empty", target=target)
    examples = tuple(str(v) for v in text.head(4).to_list())
    if text.str.contains(CAS_PATTERN.pattern).all():
        known = [f"{v} → {CAS_NUMBERS[v]}" for v in text.to_list() if v in CAS_NUMBERS]
        unknown = [v for v in text.to_list() if v not in CAS_NUMBERS]
        wrong = [v for v in unknown if not cas_check_digit_ok(v)]
        parts = [", ".join(known[:8]) + (" ..." if len(known) > 8 else "")] if known else []
        if unknown:
            parts.append(f"not a project parameter: {', '.join(unknown[:6])}")
        if wrong:
            parts.append(f"wrong check digit: {', '.join(wrong[:6])}")
        return ColumnReading(
            header, "cas", "CAS numbers: " + "; ".join(parts), examples, target=CAS_COLUMN
        )
    dates = date_reading(text)
    if dates.formats:
        if dates.iso:
            words = f"dates, ISO 8601: {dates.example}"
        elif dates.ambiguous:
            words = f"dates, ambiguous: {dates.question()}"
        else:
            words = f"dates, {dates.formats[0]}: {dates.example}"
        return ColumnReading(header, "dates", words, examples, dates=dates, target=target)
    times = time_reading(text)
    if times:
        time_target = "sampled_at" if norm(header) in _TIME_WORDS else ""
        return ColumnReading(
            header,
            "times",
            f"times of day, {' or '.join(times)}: {examples[0]}",
            examples,
            times=times,
            target=time_target,
        )
    distinct = text.to_list()
    resolved = {v: SPELLINGS.get(norm(v)) for v in distinct}
    if sum(1 for r in resolved.values() if r) * 2 >= len(distinct) and target not in (
        "sample_id",
        "method",
        "unit",
    ):
        named = [f"{v} → {r}" for v, r in resolved.items() if r]
        unknown = [v for v, r in resolved.items() if not r]
        words = "parameters: " + ", ".join(named[:8]) + (" ..." if len(named) > 8 else "")
        if unknown:
            words += f"; not known: {', '.join(unknown[:6])}"
        return ColumnReading(header, "parameters", words, examples, target=target or "parameter")
    units = {v: ALIASES.get(norm(v)) for v in distinct}
    if all(units.values()):
        words = "units: " + ", ".join(
            f"{v} → {u}" if v != u else v for v, u in list(units.items())[:8]
        )
        return ColumnReading(header, "units", words, examples, target=target or "unit")
    if all(v.lower() in SAMPLE_TYPES for v in distinct):
        return ColumnReading(
            header,
            "sample types",
            f"sample types: {', '.join(distinct)}",
            examples,
            target=target or "sample_type",
        )
    numbers = text.str.replace(r"^<\s*", "").cast(pl.Float64, strict=False)
    if numbers.is_not_null().all() or (
        numbers.is_not_null().sum() * 2 >= text.len() and target == "value"
    ):
        return ColumnReading(
            header, "numbers", f"numbers: {', '.join(examples)}", examples, target=target
        )
    codes = tuple(sorted(distinct))
    if target == "qualifier" or (
        not target and len(codes) <= 12 and all(len(c) <= 4 for c in codes)
    ):
        return ColumnReading(
            header,
            "qualifiers",
            f"qualifier codes: {', '.join(codes)}",
            examples,
            codes=codes,
            target=target or "qualifier",
        )
    more = f" ({text.len()}{'+' if text.len() >= SAMPLE_VALUES else ''} distinct)"
    return ColumnReading(
        header, "text", f"text{more}: {', '.join(examples)}", examples, target=target
    )


def describe_columns(frame: pl.DataFrame) -> list[ColumnReading]:
    """Each column of a sample file (a text frame, headers as written) and what it holds."""
    return [describe_column(c, frame.get_column(c)) for c in file_columns(frame)]
