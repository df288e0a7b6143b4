"""40 CFR 403.12(b) — the baseline monitoring report: its seven elements, once.

403.12(b) asks an industrial user subject to a categorical standard for a report "which
contains the information listed in paragraphs (b)(1)-(7)": who and where the facility is, its
environmental permits, its operations, its flows, its pollutants measured, a certification
whether the standards are met, and, where more is needed to meet them, a compliance schedule.
:data:`ELEMENTS` is that list as data (a code, a title, the citation, what the element asks and
the pieces it is made of), dated (:data:`VERSIONS`: the rule as in force since the Pretreatment
Streamlining Rule, 70 FR 60134, 14 October 2005), so that the office's forms, the signing step
and the clerk's checklist of a paper report all name the same elements in the same words.

A report answers each element in one of three ways (:class:`Answer`): *given* (the report
states it, in its text or an attached file), *explained* (the report says why the element does
not apply or is not given: a new source gives estimates, no compliance schedule is needed
where the standards are met, ...), or *missing*. A report with an element missing is not
complete: :func:`missing` names those elements, in the rule's order, and :func:`naming` writes
them with their citations for a refusal or a finding. Whether an explanation is good enough is
the Control Authority's judgment when it reviews the report; the rule here only sees that one
was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

from sewer_rules.citations import ExternalReference

CITATION = ExternalReference("40 CFR 403.12(b)")
RULE = "40 CFR 403.12(b), as amended by the Pretreatment Streamlining Rule, 70 FR 60134"
IN_FORCE_SINCE = date(2005, 10, 14)


class Answer(StrEnum):
    """How a report answers one element."""

    GIVEN = "given"
    EXPLAINED = "explained"
    MISSING = "missing"


ANSWER_LABELS: dict[Answer, str] = {
    Answer.GIVEN: "Given",
    Answer.EXPLAINED: "Explained (does not apply, or why not given)",
    Answer.MISSING: "Not given and not explained",
}


@dataclass(frozen=True)
class Element:
    """One element of 403.12(b): ``code`` is its paragraph (``b3`` for (b)(3))."""

    code: str
    title: str
    citation: str
    asks: str
    pieces: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.title} ({self.citation})"


ELEMENTS: tuple[Element, ...] = (
    Element(
        "b1",
        "Identifying information",
        "40 CFR 403.12(b)(1)",
        "the name and address of the facility, and the names of its operator and owners",
        ("the facility's name", "its address", "the operator's name", "the owners' names"),
    ),
    Element(
        "b2",
        "Environmental permits",
        "40 CFR 403.12(b)(2)",
        "a list of any environmental control permits held by or for the facility",
        ("the environmental control permits held by or for the facility",),
    ),
    Element(
        "b3",
        "Description of operations",
        "40 CFR 403.12(b)(3)",
        "the nature, average rate of production and SIC (or NAICS) codes of the operations, and "
        "a schematic process diagram showing the points of discharge to the sewer",
        (
            "the nature of the operations",
            "the average rate of production",
            "the SIC or NAICS codes",
            "a schematic process diagram with the points of discharge",
        ),
    ),
    Element(
        "b4",
        "Flow measurement",
        "40 CFR 403.12(b)(4)",
        "the measured average daily and maximum daily flow, in gallons per day, from the "
        "regulated process streams and the other streams",
        ("the average daily flow (gpd)", "the maximum daily flow (gpd)"),
    ),
    Element(
        "b5",
        "Measurement of pollutants",
        "40 CFR 403.12(b)(5)",
        "the categorical standards applicable to each regulated process, and the results of "
        "sampling and analysis (daily maximum and average concentration or mass, with the "
        "sample types)",
        (
            "the categorical standards applicable to each regulated process",
            "the sampling results: daily maximum and average, concentration or mass",
            "the type of each sample",
        ),
    ),
    Element(
        "b6",
        "Certification",
        "40 CFR 403.12(b)(6)",
        "a statement, reviewed by an authorized representative and certified by a qualified "
        "professional, whether the standards are met on a consistent basis and, if not, "
        "whether additional operation and maintenance or pretreatment is required",
        (
            "whether the standards are met on a consistent basis",
            "if not: the additional operation and maintenance or pretreatment required",
        ),
    ),
    Element(
        "b7",
        "Compliance schedule",
        "40 CFR 403.12(b)(7)",
        "where additional pretreatment or operation and maintenance is required, the shortest "
        "schedule by which it will be provided",
        ("the schedule of the additional pretreatment or operation and maintenance",),
    ),
)


@dataclass(frozen=True)
class Version:
    """The elements as in force from ``since``."""

    since: date
    rule: str
    elements: tuple[Element, ...]


VERSIONS: tuple[Version, ...] = (Version(IN_FORCE_SINCE, RULE, ELEMENTS),)


def version_on(day: date) -> Version:
    """The version of 403.12(b) in force on ``day`` (the latest one starting on or before)."""
    found = [v for v in VERSIONS if v.since <= day]
    if not found:
        raise ValueError(
            f"no version of {CITATION} is recorded for {day.isoformat()} (the earliest is of "
            f"{VERSIONS[0].since.isoformat()})"
        )
    return max(found, key=lambda v: v.since)


def elements_on(day: date) -> tuple[Element, ...]:
    return version_on(day).elements


def element(code: str) -> Element:
    for e in ELEMENTS:
        if e.code == code:
            return e
    raise KeyError(f"no element {code!r} in {CITATION}")


@dataclass(frozen=True)
class Entry:
    """How a report answers one element: given (its text and/or the attached file it is in),
    explained (why it does not apply or is not given), or missing."""

    answer: Answer
    text: str = ""
    file: str = ""

    def problem(self) -> str | None:
        """What makes the answer unusable, or None: a given element says what or where (a
        text or a file), an explained one says why."""
        if self.answer == Answer.GIVEN and not (self.text.strip() or self.file.strip()):
            return "say what the report gives, or where (a page, an attached file)"
        if self.answer == Answer.EXPLAINED and not self.text.strip():
            return "say why the element does not apply or is not given"
        return None

    def as_dict(self) -> dict[str, str]:
        return {"answer": str(self.answer), "text": self.text, "file": self.file}


def read_entries(
    raw: Mapping[str, Any], elements: Sequence[Element] = ELEMENTS
) -> tuple[dict[str, Entry], dict[str, str]]:
    """The entries of a checklist from plain values (``{"b1": {"answer": "given", "text":
    ...}}``), and the problems found, by element code. An element without an entry is
    missing; an unknown code or answer is a problem."""
    codes = {e.code for e in elements}
    entries: dict[str, Entry] = {}
    problems: dict[str, str] = {}
    for code in raw:
        if code not in codes:
            problems[str(code)] = f"{code!r} is not an element of {CITATION}"
    for e in elements:
        value = raw.get(e.code)
        if value is None:
            entries[e.code] = Entry(Answer.MISSING)
            continue
        if not isinstance(value, Mapping):
            problems[e.code] = f"{e.label}: give an answer, a text and a file"
            continue
        answer = str(value.get("answer", "") or "")
        if answer not in {a.value for a in Answer}:
            problems[e.code] = f"{e.label}: answer given, explained or missing"
            continue
        entry = Entry(
            Answer(answer),
            str(value.get("text", "") or "").strip(),
            str(value.get("file", "") or "").strip(),
        )
        if (why := entry.problem()) is not None:
            problems[e.code] = f"{e.label}: {why}"
            continue
        entries[e.code] = entry
    return entries, problems


def missing(entries: Mapping[str, Entry], elements: Sequence[Element] = ELEMENTS) -> list[Element]:
    """The elements neither given nor explained (an element without an entry is missing), in
    the rule's order."""
    out = []
    for e in elements:
        entry = entries.get(e.code)
        if entry is None or entry.answer == Answer.MISSING or entry.problem() is not None:
            out.append(e)
    return out


def naming(elements: Sequence[Element]) -> str:
    """The elements with their citations, for a message: "Flow measurement (40 CFR
    403.12(b)(4)); Certification (40 CFR 403.12(b)(6))"."""
    return "; ".join(e.label for e in elements)
