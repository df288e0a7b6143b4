"""A jurisdiction as a package of law: its grammar, registry, parameters, ladder and cases.

A town is added by writing a package, not by changing shared code. Each jurisdiction is a
directory (bundled under ``sewer_rules/jurisdictions/<key>/``, or anywhere on disk, as
``sewer-use jurisdiction new`` writes one) holding:

- ``law.yaml`` — what the law is and how it cites itself (:mod:`.citation_grammar`); the
  public addresses of its official text; the officials who act and the enforcement ladder
  with its clocks, and what a fine needs (:mod:`.enforcement_ladder`); where its registry is;
- ``sections.yaml`` — the registry: every section and subsection with its heading, its status
  (``implemented``, ``not_formalized`` with why, ``informational``), a short summary in the
  project's words and the address of the official text. An ``implemented`` row names what
  implements it (``implemented_by``): a step of the ladder (``ladder:<step>``, whose clock
  :mod:`.response_clock` computes), a dated parameter (``parameter:<key>``) or a function of
  the rules (its dotted name); the loader refuses a name that does not exist. Wappinger's
  registry is the Python table of :mod:`.sections` (``sections: registry``), whose rules
  declare themselves with :func:`~.sections.implements`;
- ``parameters.yaml`` — the dated values, checked against the one shared schema;
- ``cases/*.yaml`` — its legal cases, hand-derived, run by the test suite.

``extends: <key>`` takes another package's law whole and changes only what it writes (the
demo town is Wappinger's law with example amounts). Every error names the file and field.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from .citation_grammar import CitationGrammar, ProvisionRef, TownCodeGrammar, grammar_from
from .citations import CitationError
from .enforcement_ladder import Ladder, LadderError, ladder_from
from .parameter_yaml import read_strict_yaml
from .parameters import ParameterError, ParameterSet, load_jurisdiction
from .section_coverage import Coverage
from .sections import REGISTRY

LAW_FILE = "law.yaml"
SECTIONS_FILE = "sections.yaml"
CASES_DIR = "cases"


class LawPackageError(ValueError):
    """A jurisdiction package that cannot be read, with the file and field named."""


@dataclass(frozen=True)
class Source:
    title: str
    url: str


@dataclass(frozen=True)
class SectionRow:
    """One provision of a jurisdiction's registry."""

    citation: str
    ref: ProvisionRef
    heading: str
    status: Coverage
    reason: str = ""
    summary: str = ""
    source: str = ""
    implemented_by: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "citation": self.citation,
            "heading": self.heading,
            "status": str(self.status),
            "reason": self.reason,
            "summary": self.summary,
            "source": self.source,
            "implemented_by": list(self.implemented_by),
        }


@dataclass(frozen=True)
class LawPackage:
    key: str
    name: str
    law: str
    grammar: CitationGrammar
    ladder: Ladder
    parameters: str
    sections: tuple[SectionRow, ...]
    sources: tuple[Source, ...] = ()
    cases: tuple[Traversable, ...] = field(default=(), compare=False)
    template: str = ""
    notice: str = ""
    #: True for a registry kept as the Python table of :mod:`.sections` (Wappinger's), whose
    #: rules declare what they implement; False for one written as data (``sections.yaml``).
    rules_registry: bool = False
    #: The first day the package's law computes anything (its adoption, or the earliest of
    #: the provisions it carries): every parameter has a value from then on.
    in_force: date | None = None

    def cite(self, text: str) -> str:
        """``text`` as this law writes it (parsed and formatted), or CitationError."""
        return self.grammar.format(self.grammar.parse(text))

    def section(self, text: str) -> SectionRow:
        wanted = self.cite(text)
        for row in self.sections:
            if row.citation == wanted:
                return row
        raise CitationError(f"{wanted} is not in the registry of {self.name}")

    def params(self) -> ParameterSet:
        return load_jurisdiction(self.parameters)

    def counts(self) -> dict[str, int]:
        counts = {str(c): 0 for c in Coverage}
        for row in self.sections:
            counts[str(row.status)] += 1
        return counts


def _root() -> Traversable:
    return resources.files("sewer_rules").joinpath("jurisdictions")


@cache
def bundled_laws() -> tuple[str, ...]:
    """The keys of the jurisdictions shipped with the software (each a directory with a
    ``law.yaml``), in alphabetical order. Read once: what is shipped does not change while the
    software runs, and every determination asks whose law it is."""
    return tuple(
        sorted(d.name for d in _root().iterdir() if d.is_dir() and d.joinpath(LAW_FILE).is_file())
    )


def _directory(name_or_path: str) -> tuple[Traversable, str]:
    if name_or_path in bundled_laws():
        return _root().joinpath(name_or_path), name_or_path
    path = Path(name_or_path)
    if path.is_file() and path.name in (LAW_FILE, "parameters.yaml"):
        path = path.parent
    if path.is_dir() and (path / LAW_FILE).is_file():
        return path, str(path)
    raise LawPackageError(
        f"no jurisdiction {name_or_path!r}: use one of {', '.join(bundled_laws())} or the "
        f"directory of a jurisdiction package (with a {LAW_FILE})"
    )


@cache
def load_law(name_or_path: str) -> LawPackage:
    """The jurisdiction package bundled under ``name`` or found at a directory."""
    directory, label = _directory(name_or_path)
    source = f"{label}/{LAW_FILE}"
    try:
        data = read_strict_yaml(directory.joinpath(LAW_FILE).read_text(encoding="utf-8"), source)
    except ParameterError as e:
        raise LawPackageError(str(e)) from None
    base = load_law(str(data["extends"])) if data.get("extends") else None
    parameters = _parameters(data, directory, label, base, source)
    cases = _cases(directory)
    if base is not None:
        return LawPackage(
            key=str(data.get("key") or label),
            name=str(data.get("name") or base.name),
            law=base.law,
            grammar=base.grammar,
            ladder=base.ladder,
            parameters=parameters,
            sections=base.sections,
            sources=base.sources,
            cases=cases,
            template=base.template,
            notice=str(data.get("notice") or ""),
            rules_registry=base.rules_registry,
            in_force=base.in_force,
        )
    for required in ("key", "name", "law", "grammar", "sections"):
        if required not in data:
            raise LawPackageError(f"{source}: {required} is required")
    grammar_data = data["grammar"]
    if not isinstance(grammar_data, Mapping):
        raise LawPackageError(f"{source}: grammar: a mapping with its kind")
    try:
        grammar = grammar_from(grammar_data, source)
        ladder = ladder_from(data, grammar, source)
    except (CitationError, LadderError) as e:
        raise LawPackageError(str(e)) from None
    sections = _sections(data["sections"], directory, label, grammar, ladder)
    return LawPackage(
        key=str(data["key"]),
        name=str(data["name"]),
        law=str(data["law"]),
        grammar=grammar,
        ladder=ladder,
        parameters=parameters,
        sections=sections,
        sources=_sources(data.get("sources"), source),
        cases=cases,
        template=str(data.get("template") or ""),
        notice=str(data.get("notice") or ""),
        rules_registry=data["sections"] == "registry",
        in_force=_in_force(data.get("in_force"), source),
    )


def _in_force(raw: object, source: str) -> date | None:
    if raw is None or isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise LawPackageError(f"{source}: in_force: a date (YYYY-MM-DD), not {raw!r}") from None


def _parameters(
    data: Mapping[str, object],
    directory: Traversable,
    label: str,
    base: LawPackage | None,
    source: str,
) -> str:
    named = data.get("parameters")
    if named is None:
        if base is None:
            raise LawPackageError(f"{source}: parameters is required")
        return base.parameters
    if label in bundled_laws():  # loaded by name, as the parameters' loader knows it
        if str(named) != "parameters.yaml":
            raise LawPackageError(
                f"{source}: parameters: a bundled package's file is parameters.yaml"
            )
        return label
    return str(Path(str(directory)) / str(named))


def _sources(raw: object, source: str) -> tuple[Source, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise LawPackageError(f"{source}: sources: a list of {{title, url}}")
    out = []
    for i, s in enumerate(raw, 1):
        if not isinstance(s, Mapping) or "title" not in s or "url" not in s:
            raise LawPackageError(f"{source}: sources, item {i}: title and url are required")
        out.append(Source(str(s["title"]), str(s["url"])))
    return tuple(out)


def _cases(directory: Traversable) -> tuple[Traversable, ...]:
    cases = directory.joinpath(CASES_DIR)
    if not cases.is_dir():
        return ()
    return tuple(
        sorted((c for c in cases.iterdir() if c.name.endswith(".yaml")), key=lambda c: c.name)
    )


def _wappinger_registry(grammar: CitationGrammar) -> tuple[SectionRow, ...]:
    """Wappinger's registry, the Python table of :mod:`.sections`, as rows of a package."""
    rows = []
    for s in REGISTRY.values():
        text = str(s.citation)
        rows.append(
            SectionRow(text, grammar.parse(text), s.heading, s.coverage, s.reason, "", "", s.office)
        )
    return tuple(rows)


KNOWN_ROW_KEYS = frozenset(
    {"citation", "heading", "status", "reason", "summary", "source", "implemented_by"}
)


def _sections(
    named: object, directory: Traversable, label: str, grammar: CitationGrammar, ladder: Ladder
) -> tuple[SectionRow, ...]:
    if named == "registry":
        if not isinstance(grammar, TownCodeGrammar):
            raise LawPackageError(f"{label}/{LAW_FILE}: sections: registry is Wappinger's table")
        return _wappinger_registry(grammar)
    source = f"{label}/{named}"
    try:
        text = directory.joinpath(str(named)).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LawPackageError(f"{label}/{LAW_FILE}: sections: no file {named}") from None
    try:
        data = read_strict_yaml(text, source)
    except ParameterError as e:
        raise LawPackageError(str(e)) from None
    raw = data.get("sections")
    if not isinstance(raw, list):
        raise LawPackageError(f"{source}: sections: a list of provisions")
    rows: list[SectionRow] = []
    seen: set[str] = set()
    steps = {s.key for s in ladder.steps}
    for i, r in enumerate(raw, 1):
        where = f"{source}: sections, item {i}"
        if not isinstance(r, Mapping):
            raise LawPackageError(f"{where}: a mapping")
        extra = sorted(str(k) for k in r if k not in KNOWN_ROW_KEYS)
        if extra:
            raise LawPackageError(f"{where}: unknown key(s) {', '.join(extra)}")
        for required in ("citation", "heading", "status"):
            if required not in r:
                raise LawPackageError(f"{where}: {required} is required")
        try:
            ref = grammar.parse(str(r["citation"]))
        except CitationError as e:
            raise LawPackageError(f"{where}: citation: {e}") from None
        citation = grammar.format(ref)
        if citation in seen:
            raise LawPackageError(f"{where}: {citation} is listed twice")
        seen.add(citation)
        try:
            status = Coverage(str(r["status"]))
        except ValueError:
            allowed = ", ".join(c.value for c in Coverage)
            raise LawPackageError(f"{where}: status must be one of {allowed}") from None
        reason = str(r.get("reason") or "")
        if status is Coverage.NOT_FORMALIZED and not reason:
            raise LawPackageError(f"{where}: a provision not formalized says why (reason)")
        by = r.get("implemented_by") or []
        if isinstance(by, str):
            by = [by]
        if not isinstance(by, list):
            raise LawPackageError(f"{where}: implemented_by: a name or a list of names")
        if status is Coverage.IMPLEMENTED and not by:
            raise LawPackageError(f"{where}: an implemented provision names what implements it")
        if status is not Coverage.IMPLEMENTED and by:
            raise LawPackageError(f"{where}: only an implemented provision has implemented_by")
        for name in by:
            _check_implementer(str(name), steps, where)
        rows.append(
            SectionRow(
                citation,
                ref,
                str(r["heading"]),
                status,
                reason,
                str(r.get("summary") or ""),
                str(r.get("source") or ""),
                tuple(str(n) for n in by),
            )
        )
    for row in rows:
        parent = row.ref.parent
        if parent is not None and grammar.format(parent) not in seen:
            raise LawPackageError(
                f"{source}: {row.citation} is listed without its section {grammar.format(parent)}"
            )
    return tuple(rows)


def _check_implementer(name: str, steps: set[str], where: str) -> None:
    kind, _, rest = name.partition(":")
    if kind == "ladder" and rest:
        if rest not in steps:
            raise LawPackageError(f"{where}: implemented_by {name}: no such step in the ladder")
        return
    if kind == "parameter" and rest:
        return  # checked against the parameters once they load (tests/test_law_packages.py)
    module, _, attr = name.rpartition(".")
    if not module.startswith("sewer_rules."):
        raise LawPackageError(
            f"{where}: implemented_by {name}: ladder:<step>, parameter:<key> or a function of "
            "sewer_rules"
        )
    try:
        found = hasattr(importlib.import_module(module), attr)
    except ImportError:
        found = False
    if not found:
        raise LawPackageError(f"{where}: implemented_by {name}: no such function")
