"""Dated parameters: every number the law states, and the amounts it leaves to resolutions.

Learned from OpenFisca: a parameter has a description, a unit, the section that authorises
it, and values keyed by the date they take effect; each value may carry its authority (the
local law or Town Board resolution). ``null`` means *not configured* (or ended): the software
then says so, it never invents an amount. An amended law is a data change, and a
determination made on a date can be replayed with the values in force on that date.

The loader is strict, because a silently misread number would be a wrong determination:
duplicate keys, unknown keys, bad dates, dates written out of order, and money written as a
binary float are errors naming the file and the parameter. Every file is then checked against
the schema of the keys (``parameter_schema.yaml``, :mod:`sewer_rules.parameter_schema`): a key
the schema does not know, a unit it does not expect, a value outside its type or bounds (a
negative fine, a correction period under the article's ten days) or two keys that contradict
each other (a pH minimum above the maximum) refuse the file. All problems of a file are
reported together, each naming the file, the key, the value, its effective date and the rule.

A value is one number, or — for a schedule such as ``fee.subdivision_sewer.schedule`` — a
table of brackets, a list of ``{up_to: "100000.00", rate: "0.03"}`` with increasing ``up_to``
(in the parameter's unit) and a last bracket ``up_to: null`` (no upper bound); ``rate`` is a
plain number. A table is kept in ``table`` (``value`` is then None, ``configured`` is true);
what the brackets mean (marginal or flat) is the rule's, which says so. A parameter of unit
``text`` holds text, not numbers — a code or an identifier another system needs, or a date —
written quoted and kept as written in ``string`` (:func:`.parameter_yaml.text_value`).
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .citations import Citation, CitationError
from .parameter_schema import check_file, parameter_schema
from .parameter_yaml import (
    TEXT_UNIT,
    ParameterError,
    parse_date,
    read_strict_yaml,
    refuse_unknown_keys,
    text_value,
)
from .units import UNITS

#: Read by other modules from here (the strict reading lives in :mod:`.parameter_yaml`).
__all__ = [
    "BUNDLED",
    "Bracket",
    "DatedValue",
    "Parameter",
    "ParameterError",
    "ParameterSet",
    "ParameterValue",
    "load_jurisdiction",
    "parameter_schema",
    "parse_date",
    "parse_parameter_text",
    "read_strict_yaml",
    "refuse_unknown_keys",
]

MONEY_UNITS = frozenset({"USD", "USD/lb"})
_TOP_KEYS = frozenset(
    {"jurisdiction", "name", "timezone", "holidays", "law", "extends", "notice", "parameters"}
)
_PARAM_KEYS = frozenset({"description", "reference", "unit", "values"})
_VALUE_KEYS = frozenset({"value", "authority", "note"})
_BRACKET_KEYS = frozenset({"up_to", "rate"})
_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")


@dataclass(frozen=True)
class Bracket:
    """One bracket of a schedule: ``rate`` applies up to ``up_to`` (None: no upper bound)."""

    up_to: Decimal | None
    rate: Decimal


@dataclass(frozen=True)
class DatedValue:
    effective: date
    value: Decimal | None
    authority: str = ""
    note: str = ""
    table: tuple[Bracket, ...] | None = None
    #: The value of a ``text`` parameter, as written.
    string: str | None = None


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    reference: str
    unit: str
    values: tuple[DatedValue, ...]

    def at(self, on: date) -> DatedValue:
        """The value in force on ``on`` (the latest effective on or before it)."""
        dates = [v.effective for v in self.values]
        i = bisect_right(dates, on)
        if i == 0:
            raise ParameterError(
                f"parameter {self.name} has no value before {self.values[0].effective}"
            )
        return self.values[i - 1]


@dataclass(frozen=True)
class ParameterValue:
    """A value as used in a determination: what, how much, since when, on whose authority."""

    name: str
    value: Decimal | None
    unit: str
    effective: date
    reference: str
    authority: str
    table: tuple[Bracket, ...] | None = None
    string: str | None = None

    @property
    def configured(self) -> bool:
        return self.value is not None or self.table is not None or self.string is not None

    @property
    def text(self) -> str | None:
        """The value as written (a table as ``rate up to X; ...; rate above``); None if not
        configured."""
        if self.table is not None:
            return "; ".join(
                f"{b.rate} up to {b.up_to}" if b.up_to is not None else f"{b.rate} above"
                for b in self.table
            )
        if self.string is not None:
            return self.string
        return None if self.value is None else str(self.value)


@dataclass(frozen=True)
class ParameterSet:
    """The parameters of one jurisdiction."""

    jurisdiction: str
    name: str
    timezone: str
    parameters: Mapping[str, Parameter]
    digest: str
    sources: tuple[str, ...] = field(default=())
    notice: str = ""
    #: The public-holiday calendar of the jurisdiction's legal clocks, as ``COUNTRY-SUBDIVISION``
    #: (``US-NY``), read from a maintained calendar library (:mod:`sewer_rules.calendars`).
    holidays: str = ""

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self.parameters.values())

    def parameter(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise ParameterError(f"{self.jurisdiction} has no parameter {name!r}") from None

    def get(self, name: str, on: date) -> ParameterValue:
        p = self.parameter(name)
        v = p.at(on)
        return ParameterValue(
            name, v.value, p.unit, v.effective, p.reference, v.authority, v.table, v.string
        )

    def value(self, name: str, on: date) -> Decimal:
        """A value that must be configured (the law's own numbers)."""
        pv = self.get(name, on)
        if pv.value is None:
            raise ParameterError(f"{name} is not configured in {self.jurisdiction} on {on}")
        return pv.value

    def in_force(self, on: date) -> list[ParameterValue]:
        return [self.get(name, on) for name in sorted(self.parameters)]

    def breakpoints(self, names: list[str] | None = None) -> list[date]:
        """Every date on which one of ``names`` (default: all) changes, sorted."""
        chosen = names if names is not None else list(self.parameters)
        return sorted({v.effective for n in chosen for v in self.parameter(n).values})

    @property
    def version(self) -> str:
        """Short identity of the parameter text, stored with every determination."""
        return f"{self.jurisdiction}@{self.digest[:12]}"


def _decimal(raw: Any, unit: str, where: str) -> Decimal | None:
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


def _table(raw: list[Any], unit: str, where: str) -> tuple[Bracket, ...]:
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
        up_to = _decimal(entry["up_to"], unit, at)
        rate = _decimal(entry["rate"], "1", at)
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


def _dated(effective: date, raw: Any, unit: str, at: str, authority: str, note: str) -> DatedValue:
    if unit == TEXT_UNIT:
        return DatedValue(effective, None, authority, note, string=text_value(raw, at))
    if isinstance(raw, list):
        return DatedValue(effective, None, authority, note, _table(raw, unit, at))
    return DatedValue(effective, _decimal(raw, unit, at), authority, note)


def _parse_values(raw: Any, unit: str, where: str, problems: list[str]) -> list[DatedValue]:
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
                    _dated(
                        effective,
                        entry["value"],
                        unit,
                        at,
                        str(entry.get("authority") or ""),
                        str(entry.get("note") or ""),
                    )
                )
            else:
                out.append(_dated(effective, entry, unit, at, "", ""))
        except ParameterError as e:
            problems += e.problems
    return sorted(out, key=lambda v: v.effective)


def _parse_parameter(name: str, raw: Any, source: str, problems: list[str]) -> Parameter:
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
    values = _parse_values(raw["values"], unit, where, problems)
    return Parameter(name, str(raw["description"]), reference, unit, tuple(values))


def parse_parameter_text(text: str, source: str, base: ParameterSet | None = None) -> ParameterSet:
    """Read a parameter file's text; ``base`` is the jurisdiction it ``extends``."""
    data = read_strict_yaml(text, source)
    problems: list[str] = []
    try:
        refuse_unknown_keys(data, _TOP_KEYS, source)
    except ParameterError as e:
        problems += e.problems
    problems += [
        f"{source}: missing '{k}'" for k in ("jurisdiction", "parameters") if k not in data
    ]
    raw_params = data.get("parameters", {})
    if not isinstance(raw_params, dict):
        raise ParameterError([*problems, f"{source}: 'parameters' must be a mapping"])
    params: dict[str, Parameter] = dict(base.parameters) if base else {}
    # What this file itself writes, key by key (unit, dated values), for the schema's checks.
    own: dict[str, tuple[str, tuple[DatedValue, ...]]] = {}
    for name, raw in raw_params.items():
        try:
            if base is not None and name in base.parameters:
                parent = base.parameters[name]
                added = _extension_values(parent, raw, f"{source}: parameter {name}", problems)
                params[name] = _extend(parent, added)
                own[name] = (parent.unit, added)
            else:
                params[name] = _parse_parameter(name, raw, source, problems)
                own[name] = (params[name].unit, params[name].values)
        except ParameterError as e:
            problems += e.problems
    try:
        holidays = _holidays(data, base, source)
    except ParameterError as e:
        problems += e.problems
        holidays = ""
    merged = {name: (p.unit, p.values) for name, p in params.items()}
    problems += check_file(parameter_schema(), own, merged, source)
    if problems:
        raise ParameterError(problems)
    digest_src = (base.digest if base else "") + text
    return ParameterSet(
        jurisdiction=str(data["jurisdiction"]),
        name=str(data.get("name") or data["jurisdiction"]),
        timezone=str(data.get("timezone") or (base.timezone if base else "America/New_York")),
        parameters=params,
        digest=hashlib.sha256(digest_src.encode()).hexdigest(),
        sources=((*base.sources, source) if base else (source,)),
        notice=str(data.get("notice") or ""),
        holidays=holidays,
    )


def _holidays(data: dict[str, Any], base: ParameterSet | None, source: str) -> str:
    """The holiday calendar named by the file (``US-NY``), else the extended jurisdiction's."""
    raw = data.get("holidays")
    if raw is None:
        return base.holidays if base else ""
    text = str(raw).strip()
    if not re.fullmatch(r"[A-Z]{2}(-[A-Z0-9]{1,3})?", text):
        raise ParameterError(
            f"{source}: holidays must name a calendar as COUNTRY or COUNTRY-SUBDIVISION "
            f"(e.g. US-NY), not {raw!r}"
        )
    return text


def _extension_values(
    parent: Parameter, raw: Any, where: str, problems: list[str]
) -> tuple[DatedValue, ...]:
    """The dated values an extending file writes for a parameter of the file it extends."""
    if not isinstance(raw, dict):
        raise ParameterError(f"{where}: expected a mapping")
    refuse_unknown_keys(raw, frozenset({"values"}), where + " (an extension may only add values)")
    return tuple(_parse_values(raw.get("values"), parent.unit, where, problems))


def _extend(parent: Parameter, added: tuple[DatedValue, ...]) -> Parameter:
    """An extending file adds dated values to a parameter; a value on the same date replaces."""
    merged = {v.effective: v for v in parent.values} | {v.effective: v for v in added}
    return Parameter(
        parent.name,
        parent.description,
        parent.reference,
        parent.unit,
        tuple(merged[d] for d in sorted(merged)),
    )


BUNDLED = ("wappinger", "demo")


def _bundled_text(name: str) -> tuple[str, str]:
    res = resources.files("sewer_rules").joinpath("jurisdictions", name, "parameters.yaml")
    return res.read_text(encoding="utf-8"), f"jurisdictions/{name}/parameters.yaml"


@cache
def load_jurisdiction(name_or_path: str) -> ParameterSet:
    """A bundled jurisdiction by name (``wappinger``, ``demo``) or a parameter file by path."""
    if name_or_path in BUNDLED:
        text, source = _bundled_text(name_or_path)
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise ParameterError(
                f"no jurisdiction {name_or_path!r}: use one of {', '.join(BUNDLED)} or a path to a "
                "parameters.yaml"
            )
        text, source = path.read_text(encoding="utf-8"), str(path)
    head = read_strict_yaml(text, source)
    base_name = head.get("extends")
    base = load_jurisdiction(str(base_name)) if base_name else None
    return parse_parameter_text(text, source, base)
