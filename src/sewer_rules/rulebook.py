"""The whole book of rules, loaded: what implements each provision, and one provision explained.

A rule declares the provision it implements where it is written (:func:`.sections.implements`),
so the registry of sections knows a rule once its module is imported. The registry itself
imports no rule (the rules import it); this module sits above both and imports every rule
module, so that :func:`implementers` and :func:`explain` see them all. Engines (the fast
equivalents in ``sewer_engines``) register themselves beside their reference when imported;
whoever shows them (``sewer-use sections``) imports them first.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import TYPE_CHECKING

from . import billing, evaluation, federal, network, ordinance
from .citations import Citation
from .duties import Duty, duty_of
from .law import Provision, provision
from .monitoring import excursions, slugs
from .sections import (
    Section,
    engines_of,
    parameters_authorised_by,
    registered,
    section,
    summary_of,
)

if TYPE_CHECKING:  # the parameters (YAML, units) load only when a section is explained
    from .parameters import ParameterSet, ParameterValue

__all__ = ["Explanation", "Implementer", "explain", "implementers", "load"]

#: The monitoring rules (imported above): the readable rules, not the compiled module's wrappers.
MONITORING = (slugs, excursions)


@cache
def load() -> None:
    """Import every module of the rule packages (once), so that each has declared what it
    implements."""
    for pkg in (ordinance, federal, billing, network, evaluation):
        for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(mod.name)


def implementers() -> dict[Citation, list[str]]:
    """Every cited subsection and the functions implementing it (every rule loaded)."""
    load()
    return registered()


@dataclass(frozen=True)
class Implementer:
    """A reference function of a provision: its dotted name, the first line of its docstring,
    and the engines registered beside it (dotted names; none unless they were imported)."""

    name: str
    summary: str
    engines: tuple[str, ...]


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

    @property
    def references(self) -> tuple[Implementer, ...]:
        """Each implementing function with its docstring's first line and its engines."""
        return tuple(
            Implementer(name, summary_of(name), tuple(engines_of(name)))
            for name in self.implemented_by
        )


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
