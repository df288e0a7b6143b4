"""The words of a member town's own notice and orders, as its law's ladder says them.

:mod:`.town_ladder` says which step of the town's ladder a notice is and when its answer is
due; this module writes what the letter of that step says: under which provision it is given,
what it demands by when and counted how, whether it may end sewer service, the petition the
law allows against it, and what the town's law says of fines. No town is named here: every
word comes from the package's ``law.yaml`` and the town's dated values.
"""

from __future__ import annotations

from datetime import date

from sewer_office.accounts.towns import values_of
from sewer_office.core.letters import long_date, signer
from sewer_office.core.town_law import town_of
from sewer_rules.enforcement_ladder import DEMAND_WORDS, ClockStart, DayCount, Demand, Step
from sewer_rules.law_package import LawPackage
from sewer_rules.response_clock import ROLLOVER

from .models import Notice
from .town_ladder import (
    counted,
    document_noun,
    fine_words,
    is_ladder_notice,
    ladder_step,
    notice_step,
    own_law_of,
)


def period_words(law: LawPackage, days: int, step: Step | None = None) -> str:
    """The demand and period of ``step`` (the town's notice by default), as its law counts."""
    step = step or notice_step(law)
    assert step.demand is not None
    official = law.ladder.official(step.answered_to).title
    return (
        f"Within {counted(step, days)}, you shall "
        f"{DEMAND_WORDS[step.demand]}, to the {official} ({step.citation})."
    )


def notice_words(notice: Notice, law: LawPackage) -> dict[str, str]:
    """What the town's own notice or order says beyond the common heading: under which
    provision it is given, what it demands by when, whether it may end service, the petition
    its law allows, and what the town's law says of fines. The article's § 196-22 C costs and
    § 196-21 A verification are Wappinger's, so they are not stated."""
    step = ladder_step(law, notice.response)
    noun = document_noun(step)
    period = "This notice states no period."
    if notice.correction_clock and notice.period_days:
        period = f"{period_words(law, notice.period_days, step)} {_count_words(notice, step)}"
    return {
        "notice_text": (
            f"{noun.capitalize()} is hereby given under {step.citation} that you are found to be "
            f"violating {notice.section}."
        ),
        "period": period + _service_words(step) + _petition_words(notice, law, step),
        "fine": fine_words(law),
        "signature": "\n".join(
            p for p in (signer(notice.issued_by), law.ladder.official(step.issued_by).title) if p
        ),
        "costs": "",
        "correction": "",
    }


def _service_words(step: Step) -> str:
    if not step.may_end_service:
        return ""
    return (
        "\n\nUnless the violation is corrected within that period and does not recur, sewer "
        f"service to the premises may be discontinued ({step.citation})."
    )


def _petition_words(notice: Notice, law: LawPackage, step: Step) -> str:
    """The petition the law allows against the order: to whom, within how many days (in force
    on the day the order is issued), counted from what."""
    petition = step.petition
    if petition is None:
        return ""
    clock = petition.clock
    days: object = clock.days
    if clock.parameter:
        days = values_of(town_of(notice.violation)).get(clock.parameter, notice.issued_on).value
    start = _EVENT_WORDS[clock.start].format(doc="this order")
    kind = "calendar" if clock.count is DayCount.CALENDAR else "business"
    return (
        f"\n\nYou may petition the {law.ladder.official(petition.to).title} in writing to modify "
        f"or suspend this order within {days} {kind} days of {start} ({petition.citation})."
    )


def _count_words(notice: Notice, step: Step) -> str:
    clock = step.clock
    assert clock is not None
    event = _EVENT_WORDS[clock.start].format(doc=f"the {document_noun(step)}")
    rule = f"Day one is the day after {event}"
    values = values_of(town_of(notice.violation))
    if ROLLOVER in values.parameters and clock.count is DayCount.CALENDAR:
        rollover = values.get(ROLLOVER, notice.issued_on)
        if rollover.value:
            return (
                f"{rule}; a last day falling on a Saturday, Sunday or public holiday moves to "
                f"the next business day ({rollover.authority})."
            )
    return f"{rule}."


#: The event a period runs from, in a letter's words (``{doc}``: the notice or the order).
_EVENT_WORDS = {
    ClockStart.SERVICE: "service",
    ClockStart.MAILING: "{doc} is mailed",
    ClockStart.RECEIPT: "your receipt of {doc}",
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


# --- the reminders' words ----------------------------------------------------------------------

#: What the person's answer is called in a reminder, by what the step demands.
ANSWER_WORDS = {
    Demand.CORRECT: "correction",
    Demand.EXPLAIN_AND_PLAN: "explanation and plan",
    Demand.COMPLY_WITH_ORDER: "compliance",
}


def _ladder_of(notice: Notice) -> tuple[LawPackage, Step] | None:
    """The town's law and the step of its ladder ``notice`` is, when it is one."""
    if not is_ladder_notice(notice):
        return None
    found = own_law_of(notice.violation)
    assert found is not None  # a ladder notice is of a town whose law is its own
    return found[1], ladder_step(found[1], notice.response)


def answer_sentence(notice: Notice) -> str | None:
    """What the served notice or order of a town's own ladder demands by its deadline, to
    whom, under which provision (the e-mail that tells of its service); None for any other."""
    found = _ladder_of(notice)
    if found is None or notice.deadline is None:
        return None
    law, step = found
    assert step.demand is not None
    official = law.ladder.official(step.answered_to).title
    words = DEMAND_WORDS[step.demand]
    return (
        f"{words[:1].upper()}{words[1:]} by {notice.deadline:%Y-%m-%d}, to the {official} "
        f"({step.citation})."
    )


def deadline_reminder(notice: Notice) -> tuple[str, str] | None:
    """The subject and text of the reminder of a town's own notice's or order's deadline, as
    its law says (what is due, to whom, what its law says of fines); None for any other."""
    found = _ladder_of(notice)
    if found is None or notice.deadline is None:
        return None
    law, step = found
    assert step.demand is not None
    what = ANSWER_WORDS[step.demand]
    official = law.ladder.official(step.answered_to).title
    return (
        f"{notice.number}: {what} due by {notice.deadline:%Y-%m-%d}",
        f"The {what} required by {notice.number} ({step.citation}) is due by "
        f"{notice.deadline:%Y-%m-%d}, to the {official}. {fine_words(law)}" + _service_words(step),
    )
