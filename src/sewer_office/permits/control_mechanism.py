"""An industrial discharge approval as an individual control mechanism (40 CFR
403.8(f)(1)(iii)(B)).

The federal rule lists what the control mechanism issued to a Significant Industrial User
must contain, at a minimum. The Town's control mechanism is the engineer's written approval
(§ 196-16 E), so each element is drawn from what the approval records: its term (1), its
conditions of the kinds of :data:`~.models.industrial.CONTROL_TERMS` (2, 3, 4, 5, 6) and its
self-monitoring requirements (4). This module writes the list once; the workflow's guard
refuses to issue an approval to an SIU while :func:`missing_elements` names anything, and the
approval page and letter lay the elements out in this order with their citations.

What is issued is what is recorded: :func:`standard_terms` only offers the Town's usual words
for the forms to prefill; nothing here writes a condition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils import timezone

from sewer_office.core.town_law import town_of

from . import rules
from .models.industrial import CONTROL_TERMS

CITATION = "40 CFR 403.8(f)(1)(iii)(B)"


@dataclass(frozen=True)
class Element:
    """One element of the control mechanism: the regulation's words (a short quote), how the
    office satisfies it, and what the refusal says when it is absent."""

    number: int
    title: str
    words: str
    satisfied_by: str
    missing: str
    #: Condition kinds that state it (any one of them satisfies it, unless ``needs_rows``).
    kinds: tuple[str, ...] = ()

    @property
    def citation(self) -> str:
        return f"{CITATION}({self.number})"


ELEMENTS: tuple[Element, ...] = (
    Element(
        1,
        "Duration",
        "a statement of duration (in no case more than five years)",
        "the term the decision states, at most the longest in force",
        "no term of at most {most} years is stated",
    ),
    Element(
        2,
        "Non-transferability",
        "a statement of non-transferability without, at a minimum, prior notification to the "
        "POTW and provision of a copy of the existing control mechanism to the new owner or "
        "operator",
        "a recorded condition of non-transferability",
        "no statement of non-transferability (prior notice to the Town, a copy of the approval "
        "to the new owner or operator) is recorded",
        ("non_transferable",),
    ),
    Element(
        3,
        "Effluent limits",
        "effluent limits, including Best Management Practices, based on applicable "
        "pretreatment standards, local limits, and State and local law",
        "recorded effluent limits and Best Management Practices",
        "no effluent limits or Best Management Practices are recorded",
        ("effluent_limits",),
    ),
    Element(
        4,
        "Self-monitoring, sampling, reporting, notification and recordkeeping",
        "self-monitoring, sampling, reporting, notification and recordkeeping requirements, "
        "including the pollutants to be monitored, sampling location, sampling frequency, "
        "and sample type",
        "one or more self-monitoring requirements and the recorded reporting, notification "
        "and recordkeeping requirements",
        "no reporting, notification and recordkeeping requirements are recorded",
        ("reporting",),
    ),
    Element(
        5,
        "Penalties and compliance schedule",
        "a statement of applicable civil and criminal penalties for violation of pretreatment "
        "standards and requirements, and any applicable compliance schedule",
        "a recorded statement of penalties (and any compliance schedule recorded)",
        "no statement of the civil and criminal penalties for violation is recorded",
        ("penalties",),
    ),
    Element(
        6,
        "Slug discharge control",
        "requirements to control slug discharges, if determined by the POTW to be necessary",
        "recorded slug control requirements, or the Town's recorded determination that none "
        "are necessary, with its reason",
        "neither slug discharge control requirements nor the Town's determination (with its "
        "reason) that none are necessary is recorded",
        ("slug_control", "slug_not_necessary"),
    ),
)

#: Element (4)'s other part: the self-monitoring rows.
NO_SELF_MONITORING = (
    "no self-monitoring requirement (pollutant, sampling location, frequency, sample type) "
    "is recorded"
)


@dataclass
class Standing:
    """An element as an approval has it: the lines recorded for it, and what is missing."""

    element: Element
    recorded: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    #: Element (4): the self-monitoring requirements, as :func:`row_cells` lays them out.
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)

    @property
    def satisfied(self) -> bool:
        return not self.missing


@dataclass(frozen=True)
class Gap:
    """A missing element (or part of one), as the refusal names it."""

    element: Element
    message: str

    def __str__(self) -> str:
        return f"{self.element.citation}: {self.message}"


def _term(approval: Any, term_years: int | None) -> Standing:
    standing = Standing(ELEMENTS[0])
    on = approval.decided_on or timezone.localdate()
    most = rules.longest_term(town_of(approval), on)
    if approval.term_years is not None:
        years: int | None = approval.term_years
        through = (
            f", in force through {approval.expires_on:%Y-%m-%d}" if approval.expires_on else ""
        )
    elif term_years is not None:  # the decision being made states it
        years, through = term_years, " from the decision"
    else:  # not yet decided: the decision states at most the longest
        years, through = most, " at most, stated by the decision when it is issued"
    if years is None or (most is not None and years > most):
        standing.missing.append(ELEMENTS[0].missing.format(most=most or "five"))
    else:
        standing.recorded.append(f"{years} year{'s' if years != 1 else ''}{through}")
    return standing


def elements_of(approval: Any, *, term_years: int | None = None) -> list[Standing]:
    """Each element of the control mechanism as ``approval`` records it, in the rule's order.

    Before the decision, the term is the one the decision will state: ``term_years`` (the
    decision's form) or the longest in force.
    """
    conditions = list(approval.conditions.all())
    rows = list(approval.self_monitoring.all())
    out = [_term(approval, term_years)]
    for element in ELEMENTS[1:]:
        standing = Standing(element)
        for c in conditions:
            if c.kind == element.kinds[0]:
                standing.recorded.append(c.text)
            elif c.kind in element.kinds:  # the Town's finding that slug control is unneeded
                standing.recorded.append(f"{c.get_kind_display()}: {c.text}")
        if element.number == 4:
            standing.rows = [row_cells(r) for r in rows]
            if not rows:
                standing.missing.append(NO_SELF_MONITORING)
        if element.number == 5:
            for c in conditions:
                if c.kind == "compliance_schedule":
                    standing.recorded.append(f"{c.get_kind_display()}: {c.text}")
        if not any(c.kind in element.kinds for c in conditions):
            standing.missing.append(element.missing)
        out.append(standing)
    return out


def row_cells(row: Any) -> tuple[str, str, str, str]:
    """A self-monitoring requirement as the page and the letter show it: the pollutant by its
    name, the sampling location, the sample type and the frequency."""
    found = rules.analyte(row.parameter)
    return (
        found[1] if found is not None else row.parameter,
        row.sampling_point,
        row.get_sample_type_display(),
        row.get_frequency_display(),
    )


def missing_elements(approval: Any, *, term_years: int | None = None) -> list[Gap]:
    """What ``approval`` lacks of an individual control mechanism, each with its citation."""
    return [
        Gap(s.element, message)
        for s in elements_of(approval, term_years=term_years)
        for message in s.missing
    ]


def refusal(approval: Any, gaps: list[Gap]) -> str:
    """The refusal to issue an approval to an SIU while elements are missing, naming each."""
    return (
        f"{approval.establishment.name} is a Significant Industrial User: its approval is its "
        f"individual control mechanism and must contain each element of {CITATION}. Missing: "
        + "; ".join(str(g) for g in gaps)
        + ". Record them on this page, then issue the approval."
    )


# --- the Town's usual words, offered to prefill the forms ------------------------------------

NON_TRANSFERABLE = (
    "This approval is issued to the user named in it for the facility named in it. It may not "
    "be transferred, assigned or sold with the facility to a new owner or operator unless the "
    "holder has first notified the Town in writing of the change and has given the new owner "
    "or operator a copy of this approval; the Town may then reissue it, with changed terms if "
    "needed."
)


def _usd(amount: Decimal) -> str:
    return f"USD {amount.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):,}"


def penalties_statement(town: str, on: date) -> str:
    """The penalties of § 196-22 in the Town's words, with the daily fine in force on ``on``
    when ``town`` (the approval's) records it (the § 122-20 Y amount)."""
    fine = rules.daily_fine(town, on)
    if fine is not None and fine.value is not None:
        amount = (
            f"{_usd(fine.value)} per day for each violation (Town Code § 122-20 Y; "
            f"{fine.authority or 'Town Board resolution'}, in force since {fine.effective})"
        )
    else:
        amount = "the amount set in Town Code § 122-20 Y per day for each violation"
    return (
        "A violation of the pretreatment standards and requirements of this approval is a "
        "violation of the Town's sewer-use law. The Town serves written notice of it with a "
        "period to correct it (§ 196-22 A). Criminal penalty: whoever continues the violation "
        f"beyond that period is guilty of a violation and, on conviction, fined {amount}, until "
        "it is corrected (§ 196-22 B). Civil liability: the violator is liable to the Town for "
        "any expense, loss or damage the violation causes (§ 196-22 C), and the Town may ask "
        "the Supreme Court of the State of New York to enjoin it (§ 196-22 D)."
    )


def standard_terms(town: str, on: date) -> dict[str, str]:
    """The conditions the forms prefill for an approval of ``town`` (staff edit or clear them
    before recording)."""
    return {"non_transferable": NON_TRANSFERABLE, "penalties": penalties_statement(town, on)}


def term_label(kind: str) -> str:
    """A control-mechanism condition kind's label with its citation."""
    label, citation = CONTROL_TERMS[kind]
    return f"{label} ({citation})"
