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
from sewer_office.core.town_law import town_of
from sewer_rules.citations import CitationError, ExternalReference, FederalCitation, parse_any
from sewer_rules.enforcement_ladder import ClockStart, DayCount, Demand, FineKind, Step
from sewer_rules.enforcement_terms import Response
from sewer_rules.federal.provisions import federal_subject
from sewer_rules.law_package import LawPackage
from sewer_rules.response_clock import (
    Events,
    ResponseClockError,
    ResponseDue,
    petition_due,
    response_due,
)
from sewer_rules.section_coverage import Coverage

from .models import Notice

#: From which event a period runs, in the words of the notice or order (``{doc}``).
START_WORDS = {
    ClockStart.SERVICE: "of the service of this {doc}",
    ClockStart.MAILING: "of the date this {doc} is mailed",
    ClockStart.RECEIPT: "of your receipt of this {doc}",
}


def document_noun(step: Step) -> str:
    """What the step's document is called in its own words: an order, or a notice."""
    return "order" if step.demand is Demand.COMPLY_WITH_ORDER else "notice"


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


def step_response(step: Step) -> Response:
    """A step of the town's ladder as a response the office issues, under its own citation: a
    step with a clock starts one when served."""
    return Response(step.key, step.label, ExternalReference(step.citation), step.clock is not None)


def notice_response(law: LawPackage) -> Response:
    """The notice as a response the office issues, under the town's own citation."""
    return step_response(notice_step(law))


def ladder_step(law: LawPackage, code: str) -> Step:
    """The step of the town's ladder a notice or order of response ``code`` is; any other code
    (the plant's guide's, as a superseded notice carries it) is the town's notice."""
    return next((s for s in law.ladder.steps if s.key == code), notice_step(law))


def later_steps(law: LawPackage) -> list[Step]:
    """The steps of the town's ladder after its notice that the office issues: each an order
    or notice of its own, in the order the law climbs them."""
    steps = list(law.ladder.steps)
    return steps[steps.index(notice_step(law)) + 1 :]


def next_ladder_step(law: LawPackage, taken: list[str]) -> Step | None:
    """The town's next step after those ``taken`` (response codes of the notices issued): the
    first later step not yet taken, once its notice has been."""
    if notice_step(law).key not in taken:
        return None
    return next((s for s in later_steps(law) if s.key not in taken), None)


def clock_start(law: LawPackage, step: Step | None = None) -> ClockStart:
    """The event ``step``'s period (the town's notice's by default) runs from (service,
    mailing or receipt)."""
    clock = (step or notice_step(law)).clock
    assert clock is not None  # a step the office issues with a period has a clock
    return clock.start


def due(
    law: LawPackage, town: str, day: date, stated: int | None = None, step: Step | None = None
) -> ResponseDue:
    """The day the answer to ``step`` (the town's notice by default) is due, its clock's event
    on ``day``."""
    step = step or notice_step(law)
    start = clock_start(law, step)
    try:
        return response_due(step, _events(start, day), values_of(town), stated)
    except ResponseClockError as e:
        raise InvalidInput({"period_days": [str(e)]}) from None


def _events(start: ClockStart, day: date) -> Events:
    return Events(
        served=day if start is ClockStart.SERVICE else None,
        mailed=day if start is ClockStart.MAILING else None,
        received=day if start is ClockStart.RECEIPT else None,
    )


def petition_window(law: LawPackage, town: str, step: Step, received: date) -> ResponseDue:
    """The last day to petition against the order ``step`` received on ``received``."""
    assert step.petition is not None
    try:
        return petition_due(step, _events(step.petition.clock.start, received), values_of(town))
    except ResponseClockError as e:
        raise InvalidInput({"received_on": [str(e)]}) from None


def least_period(law: LawPackage, town: str, day: date) -> int:
    """The days the town's notice gives, in force on ``day``."""
    return due(law, town, day).days


def current_step(law: LawPackage, violation: object) -> Step:
    """The step of the town's ladder the violation stands at: its latest notice or order in
    force, else the notice (not yet issued)."""
    in_force = [n for n in _notices(violation) if not hasattr(n, "superseded_by")]
    return ladder_step(law, in_force[-1].response) if in_force else notice_step(law)


def _notices(violation: object) -> list[Notice]:
    manager = getattr(violation, "notices", None)
    return list(manager.all()) if manager is not None else []


def taken(violation: object) -> list[str]:
    """The response codes of the violation's notices and orders."""
    return [n.response for n in _notices(violation)]


def cites(record: object, name: str, citation: str) -> str:
    """The citation an event on ``record`` records: a step of the article's notice procedure
    (``§ 196-22 …``) on a violation of a town whose law is its own cites the step of that
    town's ladder it concerns (escalating: the next step, while there is one; else the step the
    violation stands at); a federal requirement, or any record of an Article VII town, its
    own."""
    found = own_law_of(record)
    if found is None or not citation.startswith("§"):
        return citation
    law = found[1]
    if name == "escalate" and (later := next_ladder_step(law, taken(record))) is not None:
        return later.citation
    return current_step(law, record).citation


#: What the person's answer to a notice is called, by what the town's notice demands.
ANSWER_NAMES = {
    Demand.EXPLAIN_AND_PLAN: "Record the explanation and plan",
    Demand.COMPLY_WITH_ORDER: "Record the compliance",
}


def step_name(record: object, name: str, label: str) -> str:
    """What a step of the article's procedure is called on ``record``: on a violation of a town
    whose law is its own, the person's answer is named for what the step it stands at demands
    (an explanation and a plan, compliance with an order), not a correction, and escalating
    names the next step of its ladder; every other step keeps its label."""
    if name not in ("report_correction", "escalate") or (found := own_law_of(record)) is None:
        return label
    law = found[1]
    if name == "escalate":
        later = next_ladder_step(law, taken(record))
        return label if later is None else f"Issue the next step: {later.label}"
    demand = current_step(law, record).demand
    return label if demand is None else ANSWER_NAMES.get(demand, label)


def state_name(record: object, state: str, label: str) -> str:
    """What a violation's state is called under its town's law: past its deadline, a town
    whose law states no fine has no "fines accruing" (its deadline passed unanswered)."""
    if state != "fines_accruing" or (found := own_law_of(record)) is None:
        return label
    if found[1].ladder.fine.kind is FineKind.NOT_CONFIGURED:
        return "Deadline passed unanswered (no fine stated under its law)"
    return "Deadline passed unanswered"


def fit_form(record: object, form: Any, name: str = "") -> None:
    """The article's notice form on a violation of a town whose law is its own: the period
    field says the least its law gives, counted as it counts (not § 196-22 A's ten days); on
    escalating to an order whose law sets no number, that the order states its period."""
    found = own_law_of(record)
    fields = getattr(form, "fields", {})
    if found is None or "period_days" not in fields:
        return
    town, law = found
    step = notice_step(law)
    if name == "escalate":
        later = next_ladder_step(law, taken(record))
        if later is None or later.clock is None:
            return
        step = later
    elif name == "supersede_notice":
        step = current_step(law, record)
    if step.clock is not None and step.clock.stated:
        start = START_WORDS[step.clock.start].format(doc=document_noun(step))
        fields["period_days"].required = True
        fields["period_days"].help_text = (
            f"the period the {document_noun(step)} states, in {_kind(step)} {start} "
            f"({step.citation})"
        )
        return
    days = least_period(law, town, timezone.localdate())
    fields[
        "period_days"
    ].help_text = f"the period the notice states, at least {counted(step, days)} ({step.citation})"


def counted(step: Step, days: int) -> str:
    """``days`` as the step's clock counts them, from what it starts ("10 calendar days of the
    date this notice is mailed")."""
    assert step.clock is not None
    start = START_WORDS[step.clock.start].format(doc=document_noun(step))
    return f"{days} {_kind(step)} {start}"


def _kind(step: Step) -> str:
    assert step.clock is not None
    return "calendar days" if step.clock.count is DayCount.CALENDAR else "business days"


def is_ladder_notice(notice: Notice) -> bool:
    """Whether ``notice`` is a step of its town's own ladder (its notice, or a later order of
    that law: not § 196-22 A's, not the guide's). A notice citing the article or a federal
    requirement is not: only another's is looked up."""
    if not several() or notice.citation.startswith("§") or " CFR " in notice.citation:
        return False
    found = own_law_of(notice.violation)
    return found is not None and any(s.key == notice.response for s in found[1].ladder.steps)


def fine_words(law: LawPackage) -> str:
    """What the town's law says of a fine, as far as its package states it."""
    fine = law.ladder.fine
    if fine.reason:
        return f"Fines under {law.name}'s law: {fine.reason}."
    return f"Fines under {law.name}'s law: {fine.kind}."
