"""A mapping's dictionary form checked field by field: every problem is named (a mapping file
or the office's form says all that is wrong at once, :class:`MappingError`), and what is right
is returned as the fields of a :class:`~.mapping.LabMapping`.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sewer_rules.analytes import UnknownAnalyte, resolve
from sewer_rules.evaluation import REQUIRED_COLUMNS
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES

from .dates import check_date_format
from .vocabulary import (
    AS_WRITTEN,
    CAS_COLUMN,
    DATE_COLUMNS,
    DEFAULT_TIMEZONE,
    ISO,
    NOT_CONSTANT,
    TARGETS,
    MappingError,
    Meaning,
    norm,
)

#: The longest name a mapping may have.
MAX_NAME = 80
#: How the engine reads a qualifier as a non-detect (sewer_engines.evaluation.prepare).
_ND_QUALIFIER = re.compile(r"(?i)^(?:u|nd|<)$")
_V = TypeVar("_V")

_KEYS = (
    "name",
    "laboratory",
    "description",
    "columns",
    "optional",
    "date_format",
    "timezone",
    "analytes",
    "qualifiers",
    "constants",
)


class Fields(TypedDict):
    """A checked mapping's fields, as :class:`~.mapping.LabMapping` takes them."""

    name: str
    laboratory: str
    description: str
    columns: dict[str, tuple[str, ...]]
    optional: tuple[str, ...]
    date_format: str
    timezone: str
    analytes: dict[str, str]
    qualifiers: dict[str, Meaning] | None
    constants: dict[str, str]


def _text_value(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) else None


def validated(data: Any, name: str | None) -> Fields:
    """The fields of the mapping ``data`` describes (``name``, when given, is its name
    whatever ``data`` says); :class:`MappingError` with every problem found."""
    label = name or (data.get("name") if isinstance(data, dict) else None) or "(unnamed)"
    problems: list[str] = []
    if not isinstance(data, dict):
        raise MappingError(str(label), ["a mapping is a dictionary of its fields"])
    for key in data:
        if key not in _KEYS:
            problems.append(f"unknown field '{key}' (fields: {', '.join(_KEYS)})")
    mapping_name = name.strip() if name is not None else _text_value(data.get("name", ""))
    if not mapping_name:
        problems.append("name: missing")
    elif len(mapping_name) > MAX_NAME:
        problems.append(f"name: longer than {MAX_NAME} characters")
    elif any(ord(c) < 32 for c in mapping_name):
        problems.append("name: holds a control character")
    texts: dict[str, str] = {}
    for key in ("laboratory", "description"):
        value = data.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            problems.append(f"{key}: text expected")
        texts[key] = value.strip() if isinstance(value, str) else ""

    columns = _columns(data.get("columns"), problems)
    optional = _optional(data.get("optional"), problems)
    constants = _constants(data.get("constants"), problems)
    _check_together(columns, constants, optional, problems)
    date_format = _date_format(data.get("date_format", ISO), problems)
    tz = _timezone(data.get("timezone", DEFAULT_TIMEZONE), problems)
    analytes = _analytes(data.get("analytes"), problems)
    qualifiers = _qualifiers(data.get("qualifiers", AS_WRITTEN), problems)
    if problems:
        raise MappingError(str(mapping_name or label), problems)
    return Fields(
        name=str(mapping_name),
        laboratory=texts["laboratory"],
        description=texts["description"],
        columns=columns,
        optional=optional,
        date_format=date_format,
        timezone=tz,
        analytes=analytes,
        qualifiers=qualifiers,
        constants=constants,
    )


def _check_together(
    columns: dict[str, tuple[str, ...]],
    constants: dict[str, str],
    optional: tuple[str, ...],
    problems: list[str],
) -> None:
    """What the columns, constants and optional columns say together: every required column
    given once, and only the mapping's own, not required, columns optional."""
    for target in sorted(set(columns) & set(constants), key=TARGETS.index):
        problems.append(f"{target}: both a column and a constant (choose one)")
    for target in REQUIRED_COLUMNS:
        if target in columns or target in constants:
            continue
        if target == "parameter" and CAS_COLUMN in columns:
            continue
        source = "a column" if target in NOT_CONSTANT else "a column or a constant"
        problems.append(f"{target}: required, the mapping must give {source}")
    for target in optional:
        if target in REQUIRED_COLUMNS or (target == CAS_COLUMN and "parameter" not in columns):
            problems.append(f"optional: {target} is required, its column cannot be optional")
        elif target not in columns:
            problems.append(f"optional: {target} is not one of the mapping's columns")


def _date_format(value: Any, problems: list[str]) -> str:
    if not isinstance(value, str) or not value.strip():
        problems.append("date_format: 'iso' or a format such as %m/%d/%Y %H:%M")
        return ISO
    fmt = value.strip()
    if fmt.lower() == ISO:
        return ISO
    if wrong := check_date_format(fmt):
        problems.append(f"date_format: {wrong}")
    return fmt


def _timezone(value: Any, problems: list[str]) -> str:
    tz = value or DEFAULT_TIMEZONE
    if not isinstance(tz, str):
        problems.append("timezone: a time zone name such as America/New_York")
        return DEFAULT_TIMEZONE
    try:
        ZoneInfo(tz.strip())
    except (ZoneInfoNotFoundError, ValueError):
        problems.append(f"timezone: '{tz}' is not a time zone (e.g. America/New_York)")
    return tz.strip()


def _columns(value: Any, problems: list[str]) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict) or not value:
        problems.append("columns: a dictionary of project column → the laboratory's header")
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for target, header in value.items():
        if target not in TARGETS:
            problems.append(f"columns: '{target}' is not a project column ({', '.join(TARGETS)})")
            continue
        headers = header if isinstance(header, list) else [header]
        texts = [_text_value(h) for h in headers]
        if not texts or any(not t for t in texts):
            problems.append(f"columns.{target}: the laboratory's header (text) expected")
            continue
        if len(texts) > 2 or (len(texts) == 2 and target not in DATE_COLUMNS):
            problems.append(
                f"columns.{target}: one header (two, a date and a time, only for "
                f"{', '.join(DATE_COLUMNS)})"
            )
            continue
        if len(texts) == 2 and norm(texts[0] or "") == norm(texts[1] or ""):
            problems.append(f"columns.{target}: the date and the time are the same column")
            continue
        out[target] = tuple(t for t in texts if t)
    return _in_target_order(out)


def _in_target_order(out: dict[str, _V]) -> dict[str, _V]:
    return dict(sorted(out.items(), key=lambda kv: TARGETS.index(kv[0])))


def _optional(value: Any, problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append("optional: a list of project columns")
        return ()
    return tuple(sorted(set(value), key=lambda t: TARGETS.index(t) if t in TARGETS else 99))


def _constants(value: Any, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append("constants: a dictionary of project column → value")
        return {}
    out: dict[str, str] = {}
    for target, constant in value.items():
        if target not in TARGETS or target in NOT_CONSTANT:
            allowed = [t for t in TARGETS if t not in NOT_CONSTANT]
            problems.append(
                f"constants: '{target}' cannot be a constant (possible: {', '.join(allowed)})"
            )
            continue
        text = _text_value(constant)
        if not text:
            problems.append(f"constants.{target}: a text (quote it in YAML) expected")
            continue
        if target == "sample_type" and text.lower() not in SAMPLE_TYPES:
            problems.append(
                f"constants.sample_type: '{text}' is not one of {', '.join(SAMPLE_TYPES)}"
            )
            continue
        if target == "parameter":
            try:
                text = resolve(text).name
            except UnknownAnalyte as e:
                problems.append(f"constants.parameter: {e}")
                continue
        out[target] = text.lower() if target == "sample_type" else text
    return _in_target_order(out)


def _analytes(value: Any, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append("analytes: a dictionary of the laboratory's name → project parameter")
        return {}
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for lab_name, parameter in value.items():
        lab = _text_value(lab_name)
        if not lab:
            problems.append(f"analytes: '{lab_name}' is not a name (quote it in YAML)")
            continue
        if norm(lab) in seen:
            problems.append(f"analytes: '{lab}' and '{seen[norm(lab)]}' are the same name")
            continue
        seen[norm(lab)] = lab
        try:
            out[lab] = resolve(str(parameter)).name
        except UnknownAnalyte:
            problems.append(f"analytes.{lab}: '{parameter}' is not a project parameter")
    return out


def _qualifiers(value: Any, problems: list[str]) -> dict[str, Meaning] | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == AS_WRITTEN):
        return None
    if not isinstance(value, dict):
        problems.append(f"qualifiers: '{AS_WRITTEN}' or a dictionary of code → meaning")
        return None
    out: dict[str, Meaning] = {}
    meanings = ", ".join(str(m) for m in Meaning)
    for code, meaning in value.items():
        text = _text_value(code)
        if not text:
            problems.append(f"qualifiers: '{code}' is not a code (quote it in YAML: 'N', 'Y')")
            continue
        try:
            chosen = Meaning(str(meaning).strip().lower())
        except ValueError:
            problems.append(f"qualifiers.{text}: '{meaning}' is not a meaning ({meanings})")
            continue
        if chosen == Meaning.KEEP and _ND_QUALIFIER.match(text):
            problems.append(
                f"qualifiers.{text}: the project reads '{text}' as a non-detect; it cannot be "
                "kept as written"
            )
            continue
        out[text] = chosen
    return out
