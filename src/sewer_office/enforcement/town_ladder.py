"""A violation in a member town whose law is its own: its notice, clock and fine from its
package's ladder (``law.yaml``), not from § 196-22.

The office's notice procedure is Wappinger's § 196-22 A: a written notice served, ten days
from service to correct, a daily fine on conviction. A member town of the plant whose package
keeps a law of its own says, in data, what its notice demands (to correct, or an explanation
and a plan), from which event its clock runs (service, mailing, receipt), how its days are
counted, which official issues it and what a fine needs. This module reads those and nothing
else: the clock is :func:`sewer_rules.response_clock.response_due`, the same rule the command
line's ``fines --jurisdiction`` uses; no town is named here.

The plant's enforcement response plan (the kinds of violation and which response comes first,
40 CFR 403.8(f)(5)) is the Control Authority's, one for the plant: it classifies the violation;
the town's ladder says what the notice is and when its answer is due.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.utils import timezone

from sewer_office.accounts.towns import keeps_article, law_of, several, values_of
from sewer_office.core.errors import InvalidInput
from sewer_office.core.letters import long_date, signer
from sewer_office.core.town_law import town_of
from sewer_rules.citations import CitationError, ExternalReference, FederalCitation, parse_any
from sewer_rules.enforcement_ladder import DEMAND_WORDS, ClockStart, DayCount, Demand, Step
from sewer_rules.enforcement_terms import Response
from sewer_rules.federal.provisions import federal_subject
from sewer_rules.law_package import LawPackage
from sewer_rules.response_clock import (
    ROLLOVER,
    Events,
    ResponseClockError,
    ResponseDue,
    response_due,
)
from sewer_rules.section_coverage import Coverage

from .models import Notice

#: From which event a period runs, in a notice's words.
START_WORDS = {
    ClockStart.SERVICE: "of the service of this notice",
    ClockStart.MAILING: "of the date this notice is mailed",
    ClockStart.RECEIPT: "of your receipt of this notice",
}


def own_law(town: str) -> LawPackage | None:
    """``town``'s package when its law is its own (not Article VII), else ``None``."""
    return None if keeps_article(town) else law_of(town)


def own_law_of(record: object) -> tuple[str, LawPackage] | None:
    """The record's town and its package when that town's law is its own. In an office of one
    town there is none (its primary keeps the article, system check ``sewer_use.E004``): no
    relation is read, so a list asks nothing more per row."""
    if not several():
        return None
    town = town_of(record)
    law = own_law(town)
    return None if law is None else (town, law)


def cite_violated(law: LawPackage, text: str, field: str = "section") -> str:
    """The provision(s) violated, as the town's law cites them: each a provision of its
    registry that is not a definition or statement (``informational``), or a federal
    requirement the software knows; several joined by "; "."""
    cited: list[str] = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        try:
            federal = parse_any(part)
        except CitationError:
            federal = None
        if isinstance(federal, FederalCitation):
            try:
                federal_subject(federal)
            except CitationError as e:
                raise InvalidInput({field: [str(e)]}) from None
            cited.append(str(federal))
            continue
        try:
            row = law.section(part)
        except CitationError as e:
            raise InvalidInput(
                {field: [f"{e} (write e.g. {law.grammar.example()}, as {law.name} cites it)"]}
            ) from None
        if row.status is Coverage.INFORMATIONAL:
            raise InvalidInput(
                {
                    field: [
                        f"{row.citation} ({row.heading}) imposes no duty or prohibition in "
                        f"{law.name}'s law: it cannot be violated."
                    ]
                }
            )
        cited.append(row.citation)
    if not cited:
        raise InvalidInput({field: ["Cite the provision violated."]})
    return "; ".join(cited)


def notice_step(law: LawPackage) -> Step:
    """The ladder's notice: its first step that demands an answer against a clock."""
    for step in law.ladder.steps:
        if step.clock is not None and step.demand in (Demand.CORRECT, Demand.EXPLAIN_AND_PLAN):
            return step
    raise InvalidInput(
        {"response": [f"{law.name}'s ladder has no notice that demands an answer in time."]}
    )


def notice_response(law: LawPackage) -> Response:
    """The notice as a response the office issues, under the town's own citation."""
    step = notice_step(law)
    return Response(step.key, step.label, ExternalReference(step.citation), True)


def clock_start(law: LawPackage) -> ClockStart:
    """The event the town's notice period runs from (service, mailing or receipt)."""
    clock = notice_step(law).clock
    assert clock is not None  # notice_step returns only a step with a clock
    return clock.start


def due(law: LawPackage, town: str, day: date, stated: int | None = None) -> ResponseDue:
    """The day the answer to the town's notice is due, its clock's event on ``day``."""
    start = clock_start(law)
    events = Events(
        served=day if start is ClockStart.SERVICE else None,
        mailed=day if start is ClockStart.MAILING else None,
        received=day if start is ClockStart.RECEIPT else None,
    )
    try:
        return response_due(notice_step(law), events, values_of(town), stated)
    except ResponseClockError as e:
        raise InvalidInput({"period_days": [str(e)]}) from None


def least_period(law: LawPackage, town: str, day: date) -> int:
    """The days the town's notice gives, in force on ``day``."""
    return due(law, town, day).days


def cites(record: object, citation: str) -> str:
    """The citation an event on ``record`` records: a step of the article's notice procedure
    (``§ 196-22 …``) on a violation of a town whose law is its own cites that town's notice;
    a federal requirement, or any record of an Article VII town, its own."""
    found = own_law_of(record)
    if found is None or not citation.startswith("§"):
        return citation
    return notice_step(found[1]).citation


#: What the person's answer to a notice is called, by what the town's notice demands.
ANSWER_NAMES = {
    Demand.EXPLAIN_AND_PLAN: "Record the explanation and plan",
    Demand.COMPLY_WITH_ORDER: "Record the compliance",
}


def step_name(record: object, name: str, label: str) -> str:
    """What a step of the article's procedure is called on ``record``: on a violation of a town
    whose law is its own, the person's answer is named for what the town's notice demands (an
    explanation and a plan), not a correction; every other step keeps its label."""
    if name != "report_correction" or (found := own_law_of(record)) is None:
        return label
    demand = notice_step(found[1]).demand
    return label if demand is None else ANSWER_NAMES.get(demand, label)


def fit_form(record: object, form: Any) -> None:
    """The article's notice form on a violation of a town whose law is its own: the period
    field says the least its law gives, counted as it counts (not § 196-22 A's ten days)."""
    found = own_law_of(record)
    fields = getattr(form, "fields", {})
    if found is None or "period_days" not in fields:
        return
    town, law = found
    step = notice_step(law)
    days = least_period(law, town, timezone.localdate())
    fields[
        "period_days"
    ].help_text = f"the period the notice states, at least {_counted(step, days)} ({step.citation})"


def _counted(step: Step, days: int) -> str:
    """``days`` as the step's clock counts them, from what it starts ("10 calendar days of the
    date this notice is mailed")."""
    assert step.clock is not None
    kind = "calendar days" if step.clock.count is DayCount.CALENDAR else "business days"
    return f"{days} {kind} {START_WORDS[step.clock.start]}"


def is_ladder_notice(notice: Notice) -> bool:
    """Whether ``notice`` is its town's own notice (not § 196-22 A's, not an order). A notice
    citing the article or a federal requirement is not: only another's is looked up."""
    if not several() or notice.citation.startswith("§") or " CFR " in notice.citation:
        return False
    found = own_law_of(notice.violation)
    return found is not None and notice.response == notice_step(found[1]).key


def period_words(law: LawPackage, days: int) -> str:
    """The notice's demand and period, as the town's law counts it."""
    step = notice_step(law)
    assert step.demand is not None
    official = law.ladder.official(step.issued_by).title
    return (
        f"Within {_counted(step, days)}, you shall "
        f"{DEMAND_WORDS[step.demand]}, to the {official} ({step.citation})."
    )


def fine_words(law: LawPackage) -> str:
    """What the town's law says of a fine, as far as its package states it."""
    fine = law.ladder.fine
    if fine.reason:
        return f"Fines under {law.name}'s law: {fine.reason}."
    return f"Fines under {law.name}'s law: {fine.kind}."


# --- the notice's words ------------------------------------------------------------------------


def notice_words(notice: Notice, law: LawPackage) -> dict[str, str]:
    """What the town's own notice says beyond the common heading: under which provision it is
    given, what it demands by when, and what the town's law says of fines. The article's
    § 196-22 C costs and § 196-21 A verification are Wappinger's, so they are not stated."""
    step = notice_step(law)
    return {
        "notice_text": (
            f"Notice is hereby given under {step.citation} that you are found to be violating "
            f"{notice.section}."
        ),
        "period": (
            f"{period_words(law, notice.period_days or 0)} {_count_words(law, notice)}"
            if notice.correction_clock and notice.period_days
            else "This notice states no period."
        ),
        "fine": fine_words(law),
        "signature": "\n".join(
            p for p in (signer(notice.issued_by), law.ladder.official(step.issued_by).title) if p
        ),
        "costs": "",
        "correction": "",
    }


def _count_words(law: LawPackage, notice: Notice) -> str:
    clock = notice_step(law).clock
    assert clock is not None
    rule = f"Day one is the day after {_EVENT_WORDS[clock.start]}"
    values = values_of(town_of(notice.violation))
    if ROLLOVER in values.parameters and clock.count is DayCount.CALENDAR:
        rollover = values.get(ROLLOVER, notice.issued_on)
        if rollover.value:
            return (
                f"{rule}; a last day falling on a Saturday, Sunday or public holiday moves to "
                f"the next business day ({rollover.authority})."
            )
    return f"{rule}."


_EVENT_WORDS = {
    ClockStart.SERVICE: "service",
    ClockStart.MAILING: "the notice is mailed",
    ClockStart.RECEIPT: "your receipt of the notice",
}


def deadline_words(notice: Notice) -> str:
    """The deadline a town's own notice set, and the rule that computed it, from the basis
    stored when its clock started."""
    basis = notice.deadline_basis or {}
    started = date.fromisoformat(str(basis["started"]))
    parts = [
        f"The period of {basis['days']} {basis['count']} days ({basis['days_authority']}) runs "
        f"from the day after {long_date(started)} ({basis['counted_from']}); the nominal last "
        f"day is {long_date(notice.nominal_deadline)}."
    ]
    moved = [
        f"{long_date(date.fromisoformat(d['day']))} ({d['reason']})"
        for d in basis.get("moved_over") or []
    ]
    if moved:
        parts.append(
            f"It moves over {'; '.join(moved)} to the next business day ({basis['moved_by']})."
        )
    if notice.deadline is not None:
        parts.append(
            f"Deadline: the end of {notice.deadline:%A}, {long_date(notice.deadline)} "
            f"({basis['citation']})."
        )
    return " ".join(parts)
