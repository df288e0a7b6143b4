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
coverage. This module imports none of the rules it registers (they import it, to declare
what they implement); :mod:`.rulebook` loads them all and explains a provision. An engine
(``sewer_engines``) names the reference it speeds up with :func:`engine_of`. Tests fail when code cites a
subsection that is not here, when an ``implemented`` entry has no function, or when a
function implements an entry not marked ``implemented``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, TypeVar

from .citations import Citation, CitationError
from .section_coverage import Coverage
from .section_office import OFFICE
from .section_table import ENTRIES

if TYPE_CHECKING:  # the parameters (YAML, units) load only when a section is explained
    from .parameters import ParameterSet, ParameterValue

__all__ = [
    "OFFICE",
    "REGISTRY",
    "Coverage",
    "Section",
    "UnknownSection",
    "coverage_counts",
    "declare",
    "dotted",
    "engine_of",
    "engines_of",
    "implements",
    "parameters_authorised_by",
    "registered",
    "section",
    "summary_of",
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
#: The first line of each registered function's docstring, by dotted name.
_SUMMARIES: dict[str, str] = {}
#: The engines of each reference function (dotted names), registered by :func:`engine_of`.
_ENGINES: dict[str, list[str]] = defaultdict(list)

F = TypeVar("F", bound=Callable[..., object])


def dotted(func: Callable[..., object]) -> str:
    """A function's dotted name (module and qualified name), as the registry names it."""
    return f"{func.__module__}.{func.__qualname__}"


def summary(func: Callable[..., object]) -> str:
    """The first sentence of a function's docstring, on one line ("" when it has none)."""
    paragraph = (func.__doc__ or "").strip().split("\n\n")[0]
    text = " ".join(paragraph.split())
    match = re.search(r"\.(\s|$)", text)
    return text[: match.start() + 1] if match else text


def implements(*citations: str) -> Callable[[F], F]:
    """Declare that a function computes the cited subsections (recorded in the registry).

    The function so marked is the reference: the readable rule, under the text it implements.
    """

    def mark(func: F) -> F:
        name = dotted(func)
        _SUMMARIES[name] = summary(func)
        for text in citations:
            _IMPLEMENTERS[Citation.parse(text)].append(name)
        return func

    return mark


def engine_of(*references: Callable[..., object]) -> Callable[[F], F]:
    """Declare that a function is a fast equivalent of each of ``references`` (functions
    marked with :func:`implements`): the same answers on every input, tested equal by
    property tests.

    Engines live above the rules (``sewer_engines``) and name the reference they speed up;
    the rules never name their engines, so a rule is read without them.
    """
    refs = [dotted(r) for r in references]

    def mark(func: F) -> F:
        name = dotted(func)
        _SUMMARIES[name] = summary(func)
        for ref in refs:
            _ENGINES[ref].append(name)
        return func

    return mark


def declare(citation: str, name: str) -> None:
    """Record a rule object (not a function) that implements ``citation``."""
    _IMPLEMENTERS[Citation.parse(citation)].append(name)


def registered() -> dict[Citation, list[str]]:
    """Every cited subsection and the functions implementing it, among the modules imported
    so far (:func:`sewer_rules.rulebook.implementers` imports every rule first)."""
    return {c: sorted(set(names)) for c, names in _IMPLEMENTERS.items()}


def engines_of(name: str) -> list[str]:
    """The engines registered so far for the reference function ``name`` (dotted)."""
    return sorted(set(_ENGINES.get(name, ())))


def summary_of(name: str) -> str:
    """The first docstring line of a registered function (dotted name; "" if unknown)."""
    return _SUMMARIES.get(name, "")


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
