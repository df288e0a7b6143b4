"""Reading one parameter of a file: its unit, reference and dated values, exactly.

Numbers are read as decimals (money only from quoted strings: a binary float is refused, since
``0.1`` is not what the Town Board resolved), schedules as brackets with increasing ``up_to``,
and effective dates in the order they are written. Problems of one value are collected, not
raised, so that a file's every problem is reported together (:mod:`.parameters`).
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation

from .citations import Citation, CitationError
from .json_input import JsonValue
from .parameter_model import Bracket, DatedValue, Parameter
from .parameter_yaml import (
    TEXT_UNIT,
    ParameterError,
    parse_date,
    refuse_unknown_keys,
    text_value,
)
from .units import UNITS

MONEY_UNITS = frozenset({"USD", "USD/lb"})
_PARAM_KEYS = frozenset({"description", "reference", "unit", "values"})
_VALUE_KEYS = frozenset({"value", "authority", "note"})
_BRACKET_KEYS = frozenset({"up_to", "rate"})
_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")


def read_decimal(raw: JsonValue, unit: str, where: str) -> Decimal | None:
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise ParameterError(f"{where}: a number was expected, not {raw!r}")
    if isinstance(raw, float):
        if unit in MONEY_UNITS:
            raise ParameterError(
                f'{where}: money must be written exactly, as a quoted string (e.g. "25.00"), '
                f"not the float {raw!r}"
            )
        raw = repr(raw)
    try:
        number = Decimal(str(raw).strip())
    except InvalidOperation:
        raise ParameterError(f"{where}: {raw!r} is not a number") from None
    if not number.is_finite():
        raise ParameterError(f"{where}: {raw!r} is not a finite number")
    return number


def read_table(raw: list[JsonValue], unit: str, where: str) -> tuple[Bracket, ...]:
    """A schedule's brackets: increasing ``up_to``, the last one unbounded (null)."""
    if not raw:
        raise ParameterError(f"{where}: a schedule needs at least one bracket")
    out: list[Bracket] = []
    for i, entry in enumerate(raw, start=1):
        at = f"{where} bracket {i}"
        if not isinstance(entry, dict):
            raise ParameterError(f"{at}: expected {{up_to: ..., rate: ...}}")
        refuse_unknown_keys(entry, _BRACKET_KEYS, at)
        if "up_to" not in entry or "rate" not in entry:
            raise ParameterError(f"{at}: needs 'up_to' (null for the last) and 'rate'")
        up_to = read_decimal(entry["up_to"], unit, at)
        rate = read_decimal(entry["rate"], "1", at)
        if rate is None or rate < 0:
            raise ParameterError(f"{at}: the rate must be a non-negative number")
        last = out[-1].up_to if out else None
        if out and last is None:
            raise ParameterError(f"{at}: only the last bracket may be unbounded (up_to: null)")
        if up_to is not None and (up_to <= 0 or (last is not None and up_to <= last)):
            raise ParameterError(f"{at}: up_to must be positive and above the bracket before")
        out.append(Bracket(up_to, rate))
    if out[-1].up_to is not None:
        raise ParameterError(f"{where}: the last bracket must be unbounded (up_to: null)")
    return tuple(out)


def read_dated(
    effective: date, raw: JsonValue, unit: str, at: str, authority: str, note: str
) -> DatedValue:
    if unit == TEXT_UNIT:
        return DatedValue(effective, None, authority, note, string=text_value(raw, at))
    if isinstance(raw, list):
        return DatedValue(effective, None, authority, note, read_table(raw, unit, at))
    return DatedValue(effective, read_decimal(raw, unit, at), authority, note)


def read_dated_values(
    raw: JsonValue, unit: str, where: str, problems: list[str]
) -> list[DatedValue]:
    """The dated values that could be read, sorted by date; every problem is added to
    ``problems`` (so that one bad entry does not hide the others, nor their bounds).

    Effective dates must be written in increasing order: a file is read by people, and a
    value written out of order is the likeliest sign of a date typed wrong.
    """
    if not isinstance(raw, dict) or not raw:
        problems.append(f"{where}: 'values' must map effective dates to values")
        return []
    out: list[DatedValue] = []
    latest: date | None = None
    for key, entry in raw.items():
        at = f"{where} {key}"
        try:
            effective = parse_date(key, at)
            if latest is not None and effective <= latest:
                problems.append(
                    f"{at}: effective dates must increase, {effective} is written after {latest}"
                )
            latest = effective if latest is None else max(latest, effective)
            if isinstance(entry, dict):
                refuse_unknown_keys(entry, _VALUE_KEYS, at)
                if "value" not in entry:
                    raise ParameterError(f"{at}: missing 'value' (write null for not configured)")
                out.append(
                    read_dated(
                        effective,
                        entry["value"],
                        unit,
                        at,
                        str(entry.get("authority") or ""),
                        str(entry.get("note") or ""),
                    )
                )
            else:
                out.append(read_dated(effective, entry, unit, at, "", ""))
        except ParameterError as e:
            problems += e.problems
    return sorted(out, key=lambda v: v.effective)


def read_parameter(name: str, raw: JsonValue, source: str, problems: list[str]) -> Parameter:
    """A parameter defined by the file; problems of its values are added to ``problems``,
    a parameter that cannot be read at all raises."""
    where = f"{source}: parameter {name}"
    if not _NAME.match(str(name)):
        raise ParameterError(f"{where}: names are lower-case words joined by dots")
    if not isinstance(raw, dict):
        raise ParameterError(f"{where}: expected a mapping")
    refuse_unknown_keys(raw, _PARAM_KEYS, where)
    for required in ("description", "reference", "unit", "values"):
        if required not in raw:
            raise ParameterError(f"{where}: missing '{required}'")
    unit = str(raw["unit"])
    if unit not in UNITS and unit != TEXT_UNIT:
        raise ParameterError(f"{where}: unknown unit {unit!r}")
    reference = str(raw["reference"])
    if reference.startswith("§"):
        try:
            Citation.parse(reference.split(";")[0].strip())
        except CitationError as e:
            problems.append(f"{where}: {e}")
    values = read_dated_values(raw["values"], unit, where, problems)
    return Parameter(name, str(raw["description"]), reference, unit, tuple(values))
