"""A jurisdiction package's own legal cases: hand-derived answers its law must give.

Each package carries ``cases/*.yaml`` (:mod:`.law_package`), in the project's case format (a
list of ``{name, kind, input, expect}``; ``expect`` matches the answer key by key, lists item
by item, numbers as decimals). The kinds a package's law answers through shared rules:

- ``response`` — the day a step of the ladder falls due (:func:`.response_clock.response_due`):
  ``input: {step, served | mailed | received, stated_days}``;
- ``petition`` — the last day to petition against a step
  (:func:`.response_clock.petition_due`): ``input: {step, received | served | mailed}``;
- ``section`` — a provision of the registry: ``input: {citation}`` → its row;
- ``rule`` — a function the registry names as implementing a provision (a jurisdiction's own
  rule, :mod:`sewer_rules.local`): ``input: {rule: <dotted name>, args: {...}}``, called with
  the package's parameters; its answer (each item's ``as_dict()``) is matched.

An error the law gives (a clock counted from an event not given) answers
``{error: <class>, message}``, so that a case can expect a refusal. ``sewer-use jurisdiction
check`` and the test suite run every bundled package's cases; a package written from a
template starts with none and passes.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

import yaml

from .citations import CitationError
from .enforcement_ladder import LadderError
from .law_package import LawPackage
from .response_clock import Events, ResponseClockError, petition_due, response_due

KINDS = ("response", "petition", "section", "rule")


class CaseFileError(ValueError):
    """A case file that is not a list of cases (file and case named)."""


@dataclass(frozen=True)
class Case:
    file: str
    name: str
    kind: str
    input: Mapping[str, object]
    expect: object


@dataclass(frozen=True)
class CaseOutcome:
    case: Case
    problems: tuple[str, ...]
    actual: object

    @property
    def passed(self) -> bool:
        return not self.problems


def cases_of(law: LawPackage) -> list[Case]:
    """Every case of the package's case files, in file order; a malformed file refused."""
    out: list[Case] = []
    for path in law.cases:
        where = f"{law.key}/cases/{path.name}"
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as e:
            raise CaseFileError(f"{where}: not valid YAML: {e}") from None
        if not isinstance(raw, list):
            raise CaseFileError(f"{where}: a case file is a list of cases")
        seen: set[str] = set()
        for i, c in enumerate(raw, 1):
            if not isinstance(c, Mapping):
                raise CaseFileError(f"{where}, case {i}: a mapping of name, kind, input, expect")
            for key in ("name", "kind", "input", "expect"):
                if key not in c:
                    raise CaseFileError(f"{where}, case {i}: {key} is required")
            name = str(c["name"])
            if name in seen:
                raise CaseFileError(f"{where}: case {name!r} appears twice")
            seen.add(name)
            if c["kind"] not in KINDS:
                raise CaseFileError(
                    f"{where}, case {name!r}: kind must be one of {', '.join(KINDS)}"
                )
            if not isinstance(c["input"], Mapping):
                raise CaseFileError(f"{where}, case {name!r}: input is a mapping")
            out.append(Case(path.name, name, str(c["kind"]), c["input"], c["expect"]))
    return out


def _day(value: object) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def _events(data: Mapping[str, object]) -> Events:
    return Events(_day(data.get("served")), _day(data.get("mailed")), _day(data.get("received")))


def run_case(law: LawPackage, case: Case) -> object:
    """The answer the package's law gives to ``case`` (plain data)."""
    data = case.input
    try:
        if case.kind == "section":
            return law.section(str(data["citation"])).as_dict()
        if case.kind == "rule":
            return _run_rule(law, data)
        step = law.ladder.step(str(data["step"]))
        if case.kind == "petition":
            return petition_due(step, _events(data), law.params()).as_dict()
        stated = data.get("stated_days")
        return response_due(
            step, _events(data), law.params(), None if stated is None else int(str(stated))
        ).as_dict()
    except (ResponseClockError, LadderError, CitationError) as e:
        return {"error": type(e).__name__, "message": str(e)}


def _run_rule(law: LawPackage, data: Mapping[str, object]) -> object:
    """A rule the package's registry names, called with the case's ``args`` and the package's
    parameters; a refusal (a ValueError of the rule) answers ``{error, message}``."""
    name = str(data["rule"])
    named = {n for row in law.sections for n in row.implemented_by}
    if name not in named:
        raise CaseFileError(f"{law.key}: {name} implements no provision of its registry")
    module, _, attr = name.rpartition(".")
    rule = getattr(importlib.import_module(module), attr)
    args = data.get("args") or {}
    if not isinstance(args, Mapping):
        raise CaseFileError(f"{law.key}: args of {name} is a mapping")
    try:
        answer = rule(**{str(k): v for k, v in args.items()}, params=law.params())
    except ValueError as e:
        return {"error": type(e).__name__, "message": str(e)}
    if isinstance(answer, list | tuple):
        return [a.as_dict() if hasattr(a, "as_dict") else a for a in answer]
    return answer.as_dict() if hasattr(answer, "as_dict") else answer


def check_cases(law: LawPackage) -> list[CaseOutcome]:
    """Every case of the package, run and matched against what it expects."""
    outcomes = []
    for case in cases_of(law):
        actual = plain(run_case(law, case))
        outcomes.append(CaseOutcome(case, tuple(mismatches(case.expect, actual, "expect")), actual))
    return outcomes


def plain(value: object) -> object:
    """An answer as YAML-comparable data (dates and decimals as text)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal | date | datetime):
        return str(value)
    return value


def _as_decimal(v: object) -> Decimal | None:
    if isinstance(v, bool) or v is None:
        return None
    try:
        return Decimal(str(v))
    except InvalidOperation:
        return None


def mismatches(expected: object, actual: object, path: str) -> Iterator[str]:
    """Where ``actual`` differs from ``expected``: every key given must match, lists item by
    item, numbers as decimals."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            yield f"{path}: expected a mapping, got {actual!r}"
            return
        for k, v in expected.items():
            if k not in actual:
                yield f"{path}.{k}: missing"
            else:
                yield from mismatches(v, actual[k], f"{path}.{k}")
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield f"{path}: expected {len(expected)} item(s), got {actual!r}"
            return
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            yield from mismatches(e, a, f"{path}[{i}]")
    else:
        de, da = _as_decimal(expected), _as_decimal(actual)
        if de is not None and da is not None:
            if de != da:
                yield f"{path}: expected {expected!r}, got {actual!r}"
        elif plain(expected) != actual and str(expected) != str(actual):
            yield f"{path}: expected {expected!r}, got {actual!r}"
