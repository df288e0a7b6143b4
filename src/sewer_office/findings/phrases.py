"""The parts a finding's plain sentence is made of (:mod:`.words`): dates and periods written
out, analytes by their names, numbers as measured, quantities with their units in words, a
permit limit named by its kind, and the rules' messages cleaned of keys and ISO dates.

Kept apart from the describers so that a notice, a letter or a page can write a date or a
quantity the way a finding does without going through a finding.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone

from sewer_rules.analytes import BY_NAME

from .models import Finding

#: How an analyte is named in a sentence (where its label would read wrongly in one).
NAMES: dict[str, str] = {
    "bod5": "five-day biochemical oxygen demand (BOD)",
    "oil_grease": "oil and grease",
    "ph": "pH",
    "flow": "flow",
}


#: Units in words where the symbol is not read by everyone; pH has no unit in a sentence.
UNITS: dict[str, str] = {"SU": "", "gpd": "gallons per day", "day": "days"}


#: A limit's kind in words (the parameter keys of approvals and of the article).
LIMIT_KINDS: dict[str, str] = {
    "daily_maximum": "daily maximum",
    "monthly_average": "monthly average limit",
    "instantaneous_minimum": "instantaneous minimum",
    "instantaneous_maximum": "instantaneous maximum",
    "minimum": "minimum",
    "maximum": "maximum",
}


#: What a count of measurements counts, by the kind of limit (SNC criteria A and B).
COUNTED: dict[str, str] = {
    "daily_maximum": "on {n} of {of} days sampled",
    "monthly_average": "in {n} of {of} months",
}


_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:T[0-9:.]+(?:[+-]\d{2}:\d{2}|Z)?)?")


RECORD_NUMBER = re.compile(r"\s*#\d+")


def written(day: date | datetime) -> str:
    """``March 3, 2026`` (a moment by its day in town time)."""
    if isinstance(day, datetime):
        day = timezone.localdate(day) if timezone.is_aware(day) else day.date()
    return f"{day:%B} {day.day}, {day.year}"


def clock(moment: datetime) -> str:
    """``2:05 pm`` in town time."""
    local = timezone.localtime(moment) if timezone.is_aware(moment) else moment
    hour = local.hour % 12 or 12
    return f"{hour}:{local.minute:02d} {'am' if local.hour < 12 else 'pm'}"


def period(start: date, end: date) -> str:
    """``January–June 2026`` for whole months, ``March 2026`` for one, else the two days."""
    whole = start.day == 1 and (end + timedelta(days=1)).day == 1
    if whole and start.year == end.year:
        if start.month == end.month:
            return f"{start:%B} {start.year}"
        return f"{start:%B}–{end:%B} {end.year}"
    if whole:
        return f"{start:%B} {start.year}–{end:%B} {end.year}"
    return f"{written(start)} to {written(end)}"


def dates_written(text: str) -> str:
    """``text`` with its ISO dates (and date-times) written out."""

    def one(m: re.Match[str]) -> str:
        try:
            return written(date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return m[0]

    return _ISO_DAY.sub(one, text)


def analyte_name(code: str) -> str:
    """``copper``, ``total suspended solids``, ``pH``: the analyte as a sentence names it."""
    if code in NAMES:
        return NAMES[code]
    analyte = BY_NAME.get(code)
    if analyte is None:
        return code.replace("_", " ")
    label = re.sub(r"\s*\(.*?\)", "", analyte.label).split(",")[0].strip()
    return label if label[:2].isupper() else label[:1].lower() + label[1:]


def decimal_of(text: Any) -> Decimal | None:
    try:
        return Decimal(str(text).strip())
    except (InvalidOperation, ValueError):
        return None


def number(text: Any) -> str:
    """A number as it was written (``1.30`` stays ``1.30``); a long computed one (a threshold
    of ``45630.972222``) rounded for reading, with thousands separated."""
    d = decimal_of(text)
    if d is None:
        return str(text).strip()
    if abs(d) >= 1000:
        return f"{round(d):,}"
    digits = str(text).strip().partition(".")[2]
    if len(digits) > 4:
        return str(d.quantize(Decimal("0.001")).normalize())
    return str(text).strip()


def limit_number(text: Any) -> str:
    """A limit without the trailing zeros a parameter file may give it (``1.000`` → ``1``)."""
    d = decimal_of(text)
    if d is None:
        return str(text).strip()
    if abs(d) >= 1000:
        return f"{round(d):,}"
    plain = format(d.normalize(), "f")
    return plain if "." in plain or d == d.to_integral_value() else str(d)


def quantity(value: Any, unit: str, *, as_limit: bool = False) -> str:
    """``1.30 mg/l``, ``5.2`` (pH), ``69,587 gallons per day``."""
    shown = limit_number(value) if as_limit else number(value)
    words = UNITS.get(unit, unit)
    return f"{shown} {words}".strip()


def limit_kind(parameter: str) -> str:
    """The kind of limit a finding's parameter key names, in words (``daily maximum``)."""
    key = parameter.rsplit(" ", 1)[-1].rsplit(".", 1)[-1]
    if parameter.startswith("local_limit."):
        return "the Superintendent's limit"
    if parameter.startswith("normal_sewage."):
        return "normal strength"
    return LIMIT_KINDS.get(key, "limit")


def approval_of(parameter: str) -> str:
    """The approval a permit limit is a condition of (``IDA-2025-00001``), or empty."""
    parts = parameter.split()
    return parts[1] if len(parts) == 3 and parts[0] == "permit" else ""


def direction_of(value: Any, limit: Any, kind: str) -> str:
    if "minimum" in kind:
        return "below"
    v, lim = decimal_of(value), decimal_of(limit)
    return "below" if v is not None and lim is not None and v < lim else "above"


def limit_phrase(finding: Finding, kind: str, *, its: bool = False) -> str:
    """``the minimum of 5.5``, ``the Superintendent's limit of 1 mg/l``, ``its daily maximum
    (1 mg/l) in industrial discharge approval IDA-2025-00001``."""
    amount = quantity(finding.limit, finding.limit_unit, as_limit=True)
    approval = approval_of(finding.parameter)
    where = f" in industrial discharge approval {approval}" if approval else ""
    if kind == "normal strength":
        return f"normal strength ({amount})"
    if kind.startswith("the "):
        return f"{kind} of {amount}{where}"
    if its:
        return f"its {kind} ({amount}){where}"
    return f"the {kind} of {amount}{where}"


def cleaned(text: str) -> str:
    """A message without keys, record numbers or ISO dates, for a finding whose facts are not
    at hand (its source gone): the last resort, never the rule."""
    text = dates_written(RECORD_NUMBER.sub("", text))
    return text.replace("_", " ").strip().rstrip(".")
