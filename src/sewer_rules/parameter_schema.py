"""The schema of the parameter keys: each key's type, unit and bounds, and rules across keys.

Why a schema: the loader already refuses a file it cannot read, but a file it can read may
still say something the law forbids — a negative daily fine, a correction period of three
days where § 196-22 A gives ten, a fraction of 2, a pH minimum above the maximum. Each such
number would become a wrong determination in silence. The schema (``parameter_schema.yaml``
beside this module; its header describes the format) states for every key what a value may
be and why; :mod:`sewer_rules.parameters` checks every file against it when reading, and
lists every problem at once (file, key, value, effective date, rule), so that whoever edits a
file fixes it in one pass.

Why not JSON Schema (``jsonschema`` is installed for the API): its numbers are floats, while
a legal bound must compare exactly with the file's decimals; its documents cannot say "on
every date on which both keys are configured"; and importing it costs more than loading the
parameters, which every rules command does at start. The checks here are a few comparisons
per value.

This module reads plain data (the schema's mapping, dated values through a small protocol)
and returns messages; it imports nothing from :mod:`sewer_rules.parameters`, which calls it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from typing import Any, Protocol

from .parameter_yaml import TEXT_UNIT, ParameterError, read_strict_yaml
from .units import UNITS

TYPES = frozenset(
    {"money", "decimal", "integer", "fraction", "percent", "boolean", "code", "schedule"}
    | {"text", "date"}
)
#: The types whose values are text (unit ``text``): a code or identifier matching the key's
#: ``pattern``, or a calendar date written YYYY-MM-DD.
TEXT_TYPES = frozenset({"text", "date"})
_KEY_FIELDS = frozenset(
    {"type", "unit", "min", "max", "above", "below", "choices", "pattern", "why"}
)
_RULES = {"less": "below", "at_most": "at most"}
_MONEY_UNITS = frozenset({"USD", "USD/lb"})
#: Durations of different units may be compared by a rule (minutes in each).
_MINUTES = {"min": Decimal(1), "h": Decimal(60), "day": Decimal(1440)}
#: The bounds a type carries by itself, and the sentence that names them.
_TYPE_BOUNDS: dict[str, tuple[Decimal | None, Decimal | None, str]] = {
    "money": (Decimal(0), None, "money must be ≥ 0"),
    "fraction": (Decimal(0), Decimal(1), "a fraction must be within [0, 1]"),
    "percent": (Decimal(0), Decimal(100), "a percentage must be within [0, 100]"),
    "boolean": (Decimal(0), Decimal(1), "a yes/no value must be 1 (yes) or 0 (no)"),
}


class SchemaError(ParameterError):
    """The schema file itself is wrong (an unknown type, a bound that is not a number…)."""


class BracketLike(Protocol):
    @property
    def up_to(self) -> Decimal | None: ...
    @property
    def rate(self) -> Decimal: ...


class DatedLike(Protocol):
    """What the checks read of a dated value (``sewer_rules.parameters.DatedValue``)."""

    @property
    def effective(self) -> date: ...
    @property
    def value(self) -> Decimal | None: ...
    @property
    def table(self) -> Sequence[BracketLike] | None: ...
    @property
    def string(self) -> str | None: ...


@dataclass(frozen=True)
class KeySchema:
    """One key: its type, unit and bounds (None: no such bound), and why."""

    name: str
    type: str
    unit: str
    why: str
    min: Decimal | None = None
    max: Decimal | None = None
    above: Decimal | None = None
    below: Decimal | None = None
    choices: frozenset[Decimal] | None = None
    #: For a ``text`` key: the whole value must match this regular expression.
    pattern: str | None = None

    def broken_text(self, text: str) -> list[str]:
        """The rules a text value breaks (empty when it is allowed)."""
        if self.type == "date":
            try:
                ok = re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) and date.fromisoformat(text)
            except ValueError:
                ok = None
            return [] if ok else [f"a calendar date must be written YYYY-MM-DD ({self.why})"]
        if self.pattern is not None and re.fullmatch(self.pattern, text) is None:
            return [f"must match {self.pattern} ({self.why})"]
        return []

    def broken(self, value: Decimal) -> list[str]:
        """The rules ``value`` breaks (empty when it is allowed)."""
        out: list[str] = []
        typed = _TYPE_BOUNDS.get(self.type)
        if typed is not None:
            low, high, sentence = typed
            outside = (low is not None and value < low) or (high is not None and value > high)
            if outside or (self.type == "boolean" and value not in (0, 1)):
                out.append(sentence)
        if self.type in ("integer", "code") and value != value.to_integral_value():
            out.append(f"{'a code' if self.type == 'code' else 'an integer'} must be whole")
        if self.type == "money" and self.unit not in _MONEY_UNITS:
            out.append(f"money must be in {' or '.join(sorted(_MONEY_UNITS))}")
        if self.min is not None and value < self.min:
            out.append(f"must be ≥ {self.min} ({self.why})")
        if self.max is not None and value > self.max:
            out.append(f"must be ≤ {self.max} ({self.why})")
        if self.above is not None and value <= self.above:
            out.append(f"must be > {self.above} ({self.why})")
        if self.below is not None and value >= self.below:
            out.append(f"must be < {self.below} ({self.why})")
        if self.choices is not None and value not in self.choices:
            listed = ", ".join(str(c) for c in sorted(self.choices))
            out.append(f"must be one of {listed} ({self.why})")
        return out

    def check(self, values: Iterable[DatedLike], where: str) -> list[str]:
        """Every problem of a key's dated values, as ``where = value (from date): rule``."""
        out: list[str] = []
        for v in values:
            at = f"{where} = {{}} (from {v.effective})"
            text = v.string
            if text is not None:
                out += [f"{at.format(repr(text))}: {rule}" for rule in self.broken_text(text)]
                continue
            if v.table is not None:
                if self.type != "schedule":
                    out.append(f"{at.format('a table')}: only a schedule takes a table")
                    continue
                for i, b in enumerate(v.table, start=1):
                    label = f"{where} bracket {i}"
                    if b.up_to is not None:
                        out += [
                            f"{label} up_to = {b.up_to} (from {v.effective}): {rule}"
                            for rule in self.broken(b.up_to)
                        ]
                    if not 0 <= b.rate <= 1:
                        out.append(
                            f"{label} rate = {b.rate} (from {v.effective}): "
                            "a rate must be a fraction within [0, 1]"
                        )
            elif v.value is not None:
                if self.type == "schedule":
                    out.append(f"{at.format(v.value)}: a schedule is a table of brackets or null")
                    continue
                out += [f"{at.format(v.value)}: {rule}" for rule in self.broken(v.value)]
        return out


@dataclass(frozen=True)
class Rule:
    """``a`` below (``less``) or at most (``at_most``) ``b`` on every date both are set."""

    kind: str
    a: str
    b: str
    why: str

    def check(self, values: Mapping[str, tuple[str, Sequence[DatedLike]]], where: str) -> list[str]:
        """Every pair of values in force together that breaks the rule; ``values`` maps a key
        to its unit and its dated values, sorted by date."""
        if self.a not in values or self.b not in values:
            return []
        (unit_a, va), (unit_b, vb) = values[self.a], values[self.b]
        scale_a = _MINUTES.get(unit_a, Decimal(1)) if unit_a != unit_b else Decimal(1)
        scale_b = _MINUTES.get(unit_b, Decimal(1)) if unit_a != unit_b else Decimal(1)
        out: list[str] = []
        for day in sorted({v.effective for v in (*va, *vb)}):
            x, y = _in_force(va, day), _in_force(vb, day)
            if x is None or y is None or x.value is None or y.value is None:
                continue
            left, right = x.value * scale_a, y.value * scale_b
            ok = left < right if self.kind == "less" else left <= right
            if not ok:  # each pair of values is in force together from one breakpoint
                out.append(
                    f"{where}: {self.a} = {x.value} (from {x.effective}) must be "
                    f"{_RULES[self.kind]} {self.b} = {y.value} (from {y.effective}) ({self.why})"
                )
        return out


def _in_force(values: Sequence[DatedLike], day: date) -> DatedLike | None:
    found = None
    for v in values:
        if v.effective > day:
            break
        found = v
    return found


@dataclass(frozen=True)
class Schema:
    keys: Mapping[str, KeySchema]
    rules: tuple[Rule, ...]


def _bound(raw: Any, where: str) -> Decimal | None:
    if raw is None:
        return None
    if isinstance(raw, bool | float):
        raise SchemaError(f'{where}: write the bound quoted ("10"), not {raw!r}')
    try:
        d = Decimal(str(raw))
    except InvalidOperation:
        raise SchemaError(f"{where}: {raw!r} is not a number") from None
    if not d.is_finite():
        raise SchemaError(f"{where}: {raw!r} is not a finite number")
    return d


def _choices(raw: Any, where: str) -> frozenset[Decimal]:
    if not isinstance(raw, list) or not raw or not all(type(c) is int for c in raw):
        raise SchemaError(f"{where}: a list of whole numbers, not {raw!r}")
    return frozenset(Decimal(c) for c in raw)


def _key(name: str, raw: Any, source: str) -> KeySchema:
    where = f"{source}: {name}"
    if not isinstance(raw, dict):
        raise SchemaError(f"{where}: expected {{type: ..., unit: ..., why: ...}}")
    extra = sorted(str(k) for k in raw if k not in _KEY_FIELDS)
    if extra:
        raise SchemaError(f"{where}: unknown field(s) {', '.join(extra)}")
    kind, unit, why = raw.get("type"), str(raw.get("unit", "")), str(raw.get("why") or "")
    if kind not in TYPES:
        raise SchemaError(f"{where}: type must be one of {', '.join(sorted(TYPES))}, not {kind!r}")
    if unit not in UNITS and unit != TEXT_UNIT:
        raise SchemaError(f"{where}: unknown unit {unit!r}")
    if (kind in TEXT_TYPES) != (unit == TEXT_UNIT):
        raise SchemaError(f"{where}: a text or date key, and only one, has the unit {TEXT_UNIT!r}")
    pattern = raw.get("pattern")
    if pattern is not None:
        if kind != "text" or not isinstance(pattern, str):
            raise SchemaError(f"{where}: a pattern is a regular expression of a text key")
        try:
            re.compile(pattern)
        except re.error as e:
            raise SchemaError(
                f"{where}: pattern {pattern!r} is not a regular expression: {e}"
            ) from None
    if not why.strip():
        raise SchemaError(f"{where}: say why (the law or the sense of the bounds)")
    choices = raw.get("choices")
    if (choices is not None) != (kind == "code"):
        raise SchemaError(f"{where}: a code, and only a code, lists its choices")
    return KeySchema(
        name=name,
        type=str(kind),
        unit=unit,
        why=why,
        min=_bound(raw.get("min"), f"{where} min"),
        max=_bound(raw.get("max"), f"{where} max"),
        above=_bound(raw.get("above"), f"{where} above"),
        below=_bound(raw.get("below"), f"{where} below"),
        choices=None if choices is None else _choices(choices, f"{where} choices"),
        pattern=pattern,
    )


def _rule(raw: Any, keys: Mapping[str, KeySchema], where: str) -> Rule:
    if not isinstance(raw, dict):
        raise SchemaError(f"{where}: expected {{less: [a, b], why: ...}}")
    kinds = [k for k in raw if k in _RULES]
    extra = sorted(str(k) for k in raw if k not in _RULES and k != "why")
    if len(kinds) != 1 or extra:
        raise SchemaError(f"{where}: one of {', '.join(_RULES)} with a pair of keys, and why")
    pair = raw[kinds[0]]
    if not (isinstance(pair, list) and len(pair) == 2 and all(p in keys for p in pair)):
        raise SchemaError(f"{where}: {kinds[0]} needs two keys of the schema, not {pair!r}")
    a, b = keys[pair[0]], keys[pair[1]]
    if a.unit != b.unit and not (a.unit in _MINUTES and b.unit in _MINUTES):
        raise SchemaError(f"{where}: {a.name} ({a.unit}) and {b.name} ({b.unit}) do not compare")
    why = str(raw.get("why") or "")
    if not why.strip():
        raise SchemaError(f"{where}: say why")
    return Rule(kinds[0], a.name, b.name, why)


@cache
def parameter_schema() -> Schema:
    """The bundled schema of every parameter key (read once per process)."""
    source = "sewer_rules/parameter_schema.yaml"
    text = resources.files("sewer_rules").joinpath("parameter_schema.yaml").read_text("utf-8")
    return schema_from(read_strict_yaml(text, source), source)


def schema_from(data: Mapping[str, Any], source: str) -> Schema:
    """The schema from its file's mapping (``parameters:`` and ``rules:``)."""
    extra = sorted(str(k) for k in data if k not in ("parameters", "rules"))
    if extra:
        raise SchemaError(f"{source}: unknown key(s) {', '.join(extra)}")
    raw_keys = data.get("parameters")
    if not isinstance(raw_keys, dict):
        raise SchemaError(f"{source}: 'parameters' must map each key to its schema")
    keys = {str(name): _key(str(name), raw, source) for name, raw in raw_keys.items()}
    raw_rules = data.get("rules") or []
    if not isinstance(raw_rules, list):
        raise SchemaError(f"{source}: 'rules' must be a list")
    rules = tuple(_rule(r, keys, f"{source}: rule {i}") for i, r in enumerate(raw_rules, 1))
    return Schema(keys, rules)


def check_file(
    schema: Schema,
    own: Mapping[str, tuple[str, Sequence[DatedLike]]],
    merged: Mapping[str, tuple[str, Sequence[DatedLike]]],
    source: str,
) -> list[str]:
    """Every problem of one parameter file against the schema.

    ``own`` maps each key the file defines or extends to its unit and the dated values the
    file itself writes (a value is reported against the file that wrote it); ``merged`` is the
    whole set after extension, sorted by date, on which the rules across keys are checked.
    """
    out: list[str] = []
    for name, (unit, values) in own.items():
        key = schema.keys.get(name)
        if key is None:
            out.append(
                f"{source}: parameter {name}: not in the parameter schema "
                "(sewer_rules/parameter_schema.yaml): add it there with its type, unit and bounds"
            )
        elif unit != key.unit:
            out.append(
                f"{source}: parameter {name}: unit {unit!r}, but the schema says {key.unit!r}"
            )
        else:
            out += key.check(values, f"{source}: {name}")
    for rule in schema.rules:
        out += rule.check(merged, source)
    return out
