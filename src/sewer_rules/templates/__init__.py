"""Model ordinances a town may start its package of law from, as data.

A town that adopts its sewer-use law from a model (EPA's Model Pretreatment Ordinance is the
usual one) should not have to type the model's outline, its enforcement ladder and its
officials by hand before the software can say anything. A template holds what the model
itself fixes: its sections and subsections with a heading and a one-line summary in the
project's words, the steps of its enforcement ladder (who acts, what each step demands, from
what its clock runs), its officials as the model names them, and which dated parameters hold
the numbers the model leaves in brackets. Nothing the town must choose is filled in: every
section is ``not_configured`` and every bracketed number is a parameter with a null value
until the town writes its own (:mod:`sewer_rules.jurisdiction_template` writes the package).

A template never copies the model's text: the summaries are ours, and each row points to the
public address of the model, where the words are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ModelSection:
    """One section or subsection of a model ordinance: its citation in the model's grammar,
    its heading as the model titles it, and what it does in one line of our own."""

    citation: str
    heading: str
    summary: str


@dataclass(frozen=True)
class TemplateParameter:
    """A number the model leaves to the town, as the dated parameter that will hold it.

    A key ``parameter_schema.yaml`` does not yet hold is left out of the written package (and
    its clock names no parameter), so that a package never holds a key its loader would
    refuse; ``proposed`` is then the schema line the key needs, for whoever adds it."""

    key: str
    unit: str
    description: str
    reference: str
    used_by: str
    proposed: str = ""


@dataclass(frozen=True)
class LawTemplate:
    """Everything a model fixes, ready to be written as a jurisdiction package."""

    key: str
    title: str
    source_title: str
    source_url: str
    grammar: Mapping[str, str]
    sections: tuple[ModelSection, ...]
    officials: Mapping[str, Mapping[str, str]]
    ladder: Mapping[str, Mapping[str, object]]
    fine: Mapping[str, str]
    parameters: tuple[TemplateParameter, ...]
    readme_steps: tuple[str, ...]
    #: The authority written beside each null value until the town writes its own.
    unset_authority: str


class UnknownTemplate(LookupError):
    """A template name the software does not ship."""


def template_names() -> tuple[str, ...]:
    """The names ``sewer-use jurisdiction new --from`` accepts."""
    return tuple(sorted(_templates()))


def template(name: str) -> LawTemplate:
    """The template called ``name``, or UnknownTemplate naming those that exist."""
    found = _templates().get(name)
    if found is None:
        raise UnknownTemplate(
            f"unknown template {name!r}: use one of {', '.join(template_names())}"
        )
    return found


def _templates() -> dict[str, LawTemplate]:
    # Imported here: the template's module builds its rows from the classes above.
    from .epa_model_2007 import EPA_MODEL_2007

    return {EPA_MODEL_2007.key: EPA_MODEL_2007}
