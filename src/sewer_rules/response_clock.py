"""When a step of an enforcement ladder falls due, under any jurisdiction's declaration.

One rule for every town: the step's clock (:class:`~.enforcement_ladder.Clock`) names the
event it runs from (service, mailing or receipt), the number of days (or the dated parameter
holding them, read on the day of that event), and whether they are calendar or business days.
Day one is the day after the event: "within 10 calendar days of the date the notice is mailed"
ends on the mailing day plus ten. A period of calendar days whose last day is a Saturday,
Sunday or public holiday moves to the next business day where the jurisdiction's
``notice.deadline_rollover`` says so (in New York, General Construction Law § 25-a, which
applies to every local law; the holidays are § 24's, :mod:`.calendars`). Business days skip
those days as they are counted.

Wappinger's § 196-22 A deadline (:func:`sewer_rules.ordinance.s196_22_penalties.notice_deadline`)
is this rule with its ladder's first step; tests/test_law_packages.py checks the two agree on
every day of several years.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from .calendars import NonBusinessDay, next_business_day, non_business_day
from .enforcement_ladder import DEMAND_WORDS, ClockStart, DayCount, Demand, Step
from .parameters import ParameterError, ParameterSet

ROLLOVER = "notice.deadline_rollover"
#: Days a President or Governor appointed as public holidays (N.Y. Gen. Constr. Law § 24):
#: an entry of value 1 on the day (the day after returns to 0).
APPOINTED = "holiday.appointed"


class ResponseClockError(ValueError):
    """The event a step's clock runs from is not given, or its days are not configured."""


@dataclass(frozen=True)
class Events:
    """The days a notice or order was served, mailed and received (any may be unknown)."""

    served: date | None = None
    mailed: date | None = None
    received: date | None = None

    def of(self, start: ClockStart) -> date | None:
        return {
            ClockStart.SERVICE: self.served,
            ClockStart.MAILING: self.mailed,
            ClockStart.RECEIPT: self.received,
        }[start]


@dataclass(frozen=True)
class ResponseDue:
    """The last day to answer a step, and how it was counted."""

    step: str
    citation: str
    demand: Demand | None
    start: ClockStart
    started: date
    count: DayCount
    days: int
    days_authority: str
    nominal: date
    due: date
    moved_over: tuple[NonBusinessDay, ...]
    #: The authority of the rule that moved the last day (``notice.deadline_rollover``'s).
    moved_by: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "step": self.step,
            "citation": self.citation,
            "demand": None if self.demand is None else str(self.demand),
            "demand_words": None if self.demand is None else DEMAND_WORDS[self.demand],
            "counted_from": str(self.start),
            "started": self.started.isoformat(),
            "count": str(self.count),
            "days": self.days,
            "days_authority": self.days_authority,
            "nominal_due": self.nominal.isoformat(),
            "due": self.due.isoformat(),
            "moved_over": [{"day": d.day.isoformat(), "reason": d.reason} for d in self.moved_over],
            "moved_by": self.moved_by,
        }


def appointed_days(params: ParameterSet) -> dict[date, str]:
    """The days a President or Governor appointed (``holiday.appointed``), date → authority."""
    if APPOINTED not in params.parameters:
        return {}
    return {v.effective: v.authority for v in params.parameter(APPOINTED).values if v.value == 1}


def _days(step: Step, started: date, params: ParameterSet, stated: int | None) -> tuple[int, str]:
    clock = step.clock
    assert clock is not None
    if clock.stated:  # the law sets no number: the order states its own period
        if stated is None or stated < 1:
            raise ResponseClockError(
                f"{step.label} ({step.citation}) runs for the period the order states: "
                "state it, in whole days (at least one)"
            )
        return stated, f"{stated} days stated in the order ({step.citation})"
    if clock.parameter:
        try:
            value = params.get(clock.parameter, started)
        except ParameterError as e:  # the law was not yet in force on that day
            raise ResponseClockError(f"{step.citation}: {e}") from None
        if value.value is None:
            raise ResponseClockError(
                f"{clock.parameter} ({step.citation}) is not configured in {params.jurisdiction} "
                f"on {started}"
            )
        least, authority = (
            int(value.value),
            f"{clock.parameter} = {value.value} ({value.authority})",
        )
    elif clock.days is not None:
        least, authority = clock.days, step.citation
    else:
        raise ResponseClockError(f"the days of {step.label} ({step.citation}) are not configured")
    if stated is None:
        return least, authority
    if not clock.at_least and stated != least:
        raise ResponseClockError(
            f"{step.citation} gives {least} days; a notice cannot state {stated}"
        )
    if stated < least:
        raise ResponseClockError(
            f"a period of {stated} days is shorter than the {least} days {step.citation} gives"
        )
    return stated, f"{stated} days stated in the notice (at least {least}: {authority})"


def response_due(
    step: Step, events: Events, params: ParameterSet, stated_days: int | None = None
) -> ResponseDue:
    """The day ``step`` falls due: its clock's days after the event it runs from."""
    clock = step.clock
    if clock is None:
        raise ResponseClockError(f"{step.label} ({step.citation}) sets no time to answer")
    started = events.of(clock.start)
    if started is None:
        raise ResponseClockError(
            f"{step.label} ({step.citation}) is counted from the day of {clock.start}: "
            f"give that day"
        )
    days, authority = _days(step, started, params, stated_days)
    appointed = appointed_days(params)
    moved: tuple[NonBusinessDay, ...] = ()
    moved_by = ""
    if clock.count is DayCount.BUSINESS:
        day, left, passed = started, days, []
        while left:
            day += timedelta(days=1)
            why = non_business_day(day, params.holidays, appointed)
            if why is None:
                left -= 1
            else:
                passed.append(why)
        nominal = due = day
        moved = tuple(passed)
    else:
        nominal = due = started + timedelta(days=days)
        rollover = params.get(ROLLOVER, started) if ROLLOVER in params.parameters else None
        if rollover is not None and rollover.value:
            due, moved = next_business_day(nominal, params.holidays, appointed)
            moved_by = rollover.authority if moved else ""
    return ResponseDue(
        step.key,
        step.citation,
        step.demand,
        clock.start,
        started,
        clock.count,
        days,
        authority,
        nominal,
        due,
        moved,
        moved_by,
    )


def petition_due(step: Step, events: Events, params: ParameterSet) -> ResponseDue:
    """The last day to petition against ``step`` (an order), counted as its petition says."""
    if step.petition is None:
        raise ResponseClockError(f"{step.label} ({step.citation}) allows no petition")
    as_step = Step(
        key=f"{step.key}.petition",
        label=f"Petition against {step.label}",
        citation=step.petition.citation,
        issued_by=step.petition.to,
        clock=step.petition.clock,
    )
    return response_due(as_step, events, params)
