"""The registry of Article VII: every section and subsection, and what the software does with it.

Learned from Catala: what cannot be computed is marked so, explicitly. Each entry is

- ``implemented`` — computed by the functions that declare it with :func:`implements`, or
  carried out by the office (``sewer_office``), whose functions and workflow steps are named
  in :data:`OFFICE` (:mod:`.section_office`; names only: this package imports nothing of the
  office; tests/office checks they exist and cite the provision). Where only part of the
  provision is done the reason opens with "partial:" and says what is not;
- ``not_formalized`` — a matter of judgment, of the courts, or of another agency, with the reason;
- ``informational`` — a definition or statement the rules read but which decides nothing itself.

The table itself is :mod:`.section_table`. ``sewer-use sections`` prints the registry with its
coverage. Tests fail when code cites a
subsection that is not here, when an ``implemented`` entry has no function, or when a
function implements an entry not marked ``implemented``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from .citations import Citation, CitationError
from .duties import Duty, duty_of
from .law import Provision, provision
from .section_office import OFFICE
from .section_table import ENTRIES, Coverage

if TYPE_CHECKING:  # the parameters (YAML, units) load only when a section is explained
    from .parameters import ParameterSet, ParameterValue

__all__ = [
    "OFFICE",
    "REGISTRY",
    "Coverage",
    "Explanation",
    "Section",
    "UnknownSection",
    "coverage_counts",
    "declare",
    "explain",
    "implementers",
    "implements",
    "parameters_authorised_by",
    "section",
]


@dataclass(frozen=True)
class Section:
    citation: Citation
    heading: str
    coverage: Coverage
    reason: str = ""
    #: The office's functions that carry the provision out (dotted names, :data:`OFFICE`).
    office: tuple[str, ...] = ()


_IMPLEMENTERS: dict[Citation, list[str]] = defaultdict(list)

F = TypeVar("F", bound=Callable[..., object])


def implements(*citations: str) -> Callable[[F], F]:
    """Declare that a function computes the cited subsections (recorded in the registry)."""

    def mark(func: F) -> F:
        name = f"{func.__module__}.{func.__qualname__}"
        for text in citations:
            _IMPLEMENTERS[Citation.parse(text)].append(name)
        return func

    return mark


def declare(citation: str, name: str) -> None:
    """Record a rule object (not a function) that implements ``citation``."""
    _IMPLEMENTERS[Citation.parse(citation)].append(name)


def implementers() -> dict[Citation, list[str]]:
    """Every cited subsection and the functions implementing it (after importing the rules)."""
    _load_rules()
    return {c: sorted(set(names)) for c, names in _IMPLEMENTERS.items()}


def _load_rules() -> None:
    import importlib
    import pkgutil

    from . import federal, ordinance

    for pkg in (ordinance, federal):
        for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(mod.name)
    importlib.import_module("sewer_rules.evaluation.classify")
    importlib.import_module("sewer_rules.monitoring")
    importlib.import_module("sewer_rules.network")


REGISTRY: dict[Citation, Section] = {}
for _text, _heading, _coverage, _reason in ENTRIES:
    _c = Citation.parse(_text)
    if _c in REGISTRY:
        raise RuntimeError(f"{_text} is registered twice")
    REGISTRY[_c] = Section(_c, _heading, _coverage, _reason, OFFICE.get(_text, ()))
for _text in OFFICE:
    if Citation.parse(_text) not in REGISTRY:
        raise RuntimeError(f"OFFICE names {_text}, which is not registered")


def coverage_counts() -> dict[Coverage, int]:
    counts = dict.fromkeys(Coverage, 0)
    for s in REGISTRY.values():
        counts[s.coverage] += 1
    return counts


class UnknownSection(LookupError):
    """A citation that names no provision of the article (or is not a citation at all)."""


@dataclass(frozen=True)
class Explanation:
    """One provision with everything the software knows of it: the law beside the code."""

    section: Section
    provision: Provision
    implemented_by: tuple[str, ...]
    parameters: tuple[ParameterValue, ...]

    @property
    def in_office(self) -> tuple[str, ...]:
        """The office's functions that carry the provision out."""
        return self.section.office

    @property
    def duty(self) -> Duty:
        """Whether a person can violate the provision, and why (:mod:`.duties`)."""
        return duty_of(str(self.section.citation))


def section(citation: Citation | str) -> Section:
    """The registry entry of a citation; UnknownSection with a clear message otherwise."""
    try:
        c = Citation.parse(citation) if isinstance(citation, str) else citation
    except CitationError as e:
        raise UnknownSection(f'{e} (cite as "§ 196-19 C(3)" or "§ 196-15 SLUG")') from None
    try:
        return REGISTRY[c]
    except KeyError:
        raise UnknownSection(
            f"{c} is not a section or subsection of Article VII "
            "(`sewer-use sections` lists them all)"
        ) from None


def parameters_authorised_by(
    citation: Citation, params: ParameterSet, on: date
) -> tuple[ParameterValue, ...]:
    """The parameters whose authorising section (``reference``) is exactly ``citation``."""
    from .parameters import ParameterError  # lazily, like the parameters themselves (above)

    found = []
    for p in params:
        try:
            ref = Citation.parse(p.reference)
        except CitationError:
            continue  # a federal reference (40 CFR ...) authorises it, not the article
        if ref == citation:
            try:
                found.append(params.get(p.name, on))
            except ParameterError:
                continue  # no value yet on that day (before its first effective date)
    return tuple(found)


def explain(citation: Citation | str, params: ParameterSet, on: date) -> Explanation:
    """The text in force on ``on``, status, implementing functions and parameters of one
    provision (the text of a past day may be absent or not on file: :mod:`.law`)."""
    entry = section(citation)
    return Explanation(
        entry,
        provision(entry.citation, on=on),
        tuple(implementers().get(entry.citation, [])),
        parameters_authorised_by(entry.citation, params, on),
    )
