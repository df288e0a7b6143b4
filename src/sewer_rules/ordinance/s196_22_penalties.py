"""§ 196-22 Penalties for offenses — the notice/correction clock and accrued daily fines.

How the software reads § 196-22 A and B (INTERPRETATIONS.md, "Notices, correction and fines"):

- A written notice of violation is served on date S. The offender has
  ``notice.correction_days`` days (10): the correction deadline is S + 10 days, to the end of
  that calendar day in town time.
- Corrected on or before the deadline: no fine.
- Not corrected by the deadline: each day after the deadline, up to and including the day the
  Superintendent verifies the correction (or the as-of day, while it is not corrected), is one
  day of continuing violation. Served 2026-01-05, deadline 2026-01-15, corrected 2026-01-20
  → 5 days (16th–20th).
- The fine is the sum over those days of ``fine.daily_amount`` (the § 122-20 Y amount) in
  force on each day: a change of amount mid-violation applies from its effective date. A day
  on which no amount is configured is reported as such, and the total is then not stated.
- Each violation accrues separately (one computation per violation). The fine is *accrued,
  subject to conviction*: a court, not the software, convicts.
- § 196-20 (damage to or tampering with the works) is outside the notice procedure: it is
  referred at once, never given a correction clock.

Dates are calendar dates in the town's zone. Money is exact (``Decimal``) and rounded to cents,
half-up, only at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sewer_rules.calendars import NonBusinessDay, next_business_day
from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements

CENT = Decimal("0.01")

NOTICE = cite("§ 196-22 A")
FINE = cite("§ 196-22 B")
PROTECTION_FROM_DAMAGE = cite("§ 196-20")

CORRECTION_DAYS = "notice.correction_days"
ROLLOVER = "notice.deadline_rollover"
DAILY_AMOUNT = "fine.daily_amount"


class ClockError(ValueError):
    """Dates that cannot describe a notice and its correction (e.g. corrected before served)."""


class NoCorrectionClock(ClockError):
    """A violation of § 196-20, which is referred at once and has no correction clock."""


@dataclass(frozen=True)
class Procedure:
    """What § 196-22 does with a violation of the cited provision."""

    violated: Citation
    correction_clock: bool
    citation: Citation
    message: str

    def as_dict(self) -> dict[str, object]:
        return {
            "violated": str(self.violated),
            "correction_clock": self.correction_clock,
            "citation": str(self.citation),
            "message": self.message,
        }


@implements("§ 196-22 A", "§ 196-20")
def procedure_for(violated: Citation | str) -> Procedure:
    """Whether a violation of ``violated`` gets a written notice and a correction clock.

    § 196-22 A: "Any person found to be violating any provision of this article except
    § 196-20 shall be served by the Town with written notice stating the nature of the violation
    and shall have 10 days for the satisfactory correction thereof."

    § 196-20: "... Any person violating this provision shall be subject to immediate arrest
    under charge of disorderly conduct."  — so a § 196-20 violation is referred at once.
    """
    cited = violated if isinstance(violated, Citation) else cite(violated)
    if cited.section == PROTECTION_FROM_DAMAGE.section:
        return Procedure(
            violated=cited,
            correction_clock=False,
            citation=PROTECTION_FROM_DAMAGE,
            message=(
                f"{cited} (protection from damage) is outside the notice procedure of "
                f"{NOTICE}: it is referred at once — the offender is subject to immediate "
                "arrest under charge of disorderly conduct; no correction period and no daily "
                "fine under § 196-22 B"
            ),
        )
    return Procedure(
        violated=cited,
        correction_clock=True,
        citation=NOTICE,
        message=(
            f"a violation of {cited} is served with written notice stating its nature; the "
            f"offender has the correction period of {NOTICE}, and continuing beyond it accrues "
            f"the daily fine of {FINE}"
        ),
    )


@dataclass(frozen=True)
class Deadline:
    """The last day of a notice's correction period, and why it is that day.

    ``period_days`` is the period stated in the notice; ``minimum`` the article's 10 days
    (``notice.correction_days``); ``nominal`` the served day plus the period; ``deadline`` the
    day the period really ends, after a Saturday, Sunday or public holiday moved it
    (``moved_over``: the days passed over, with their reasons).
    """

    served: date
    period_days: int
    minimum: ParameterValue
    rollover: ParameterValue
    nominal: date
    deadline: date
    moved_over: tuple[NonBusinessDay, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "served": self.served.isoformat(),
            "period_days": self.period_days,
            "nominal_deadline": self.nominal.isoformat(),
            "deadline": self.deadline.isoformat(),
            "moved_over": [{"day": d.day.isoformat(), "reason": d.reason} for d in self.moved_over],
        }


@dataclass(frozen=True)
class FineSegment:
    """Consecutive days of continuing violation fined at one daily amount."""

    first_day: date
    last_day: date
    days: int
    daily_amount: ParameterValue

    @property
    def configured(self) -> bool:
        return self.daily_amount.value is not None

    @property
    def amount(self) -> Decimal | None:
        """``days × daily amount``, exact; None when no amount is configured for these days."""
        if self.daily_amount.value is None:
            return None
        return self.daily_amount.value * self.days

    def as_dict(self) -> dict[str, object]:
        amount = self.amount
        return {
            "first_day": self.first_day.isoformat(),
            "last_day": self.last_day.isoformat(),
            "days": self.days,
            "daily_amount": _money_text(self.daily_amount.value),
            "configured": self.configured,
            "effective": self.daily_amount.effective.isoformat(),
            "authority": self.daily_amount.authority,
            "amount": _money_text(amount),
        }


@dataclass(frozen=True)
class FineComputation:
    """The correction clock of one notice and the fine accrued on it as of a day."""

    served: date
    corrected: date | None
    as_of: date
    correction_days: ParameterValue
    clock: Deadline
    deadline: date
    days: int
    segments: tuple[FineSegment, ...]
    total: Decimal | None
    citations: tuple[Citation, ...]
    jurisdiction: str

    @property
    def first_day(self) -> date | None:
        return self.segments[0].first_day if self.segments else None

    @property
    def last_day(self) -> date | None:
        return self.segments[-1].last_day if self.segments else None

    @property
    def unconfigured_days(self) -> int:
        return sum(s.days for s in self.segments if not s.configured)

    @property
    def configured_subtotal(self) -> Decimal:
        """The part of the fine on days whose amount is configured, to the cent."""
        exact = sum((s.amount for s in self.segments if s.amount is not None), Decimal(0))
        return exact.quantize(CENT, rounding=ROUND_HALF_UP)

    @property
    def state(self) -> str:
        """``corrected_in_time``, ``within_correction_period``, ``corrected_late``, ``continuing``."""
        if self.corrected is not None:
            return "corrected_in_time" if self.corrected <= self.deadline else "corrected_late"
        return "within_correction_period" if self.as_of <= self.deadline else "continuing"

    @property
    def summary(self) -> str:
        state = self.state
        if state == "corrected_in_time":
            return (
                f"corrected on {self.corrected}, on or before the deadline {self.deadline}: "
                f"no fine ({NOTICE})"
            )
        if state == "within_correction_period":
            return (
                f"not corrected as of {self.as_of}; the correction period runs to the end of "
                f"{self.deadline}: no fine so far ({NOTICE})"
            )
        span = f"{self.days} day{'s' if self.days != 1 else ''} of continuing violation " + (
            f"({self.first_day} to {self.last_day})"
        )
        if state == "corrected_late":
            head = f"corrected on {self.corrected}, after the deadline {self.deadline}: {span}"
        else:
            head = (
                f"not corrected as of {self.as_of}, deadline {self.deadline} passed: {span}, "
                "and a further day accrues each day until the correction is verified"
            )
        if self.total is None:
            return (
                f"{head}; the daily amount (§ 122-20 Y) is not configured for "
                f"{self.unconfigured_days} of those days, so the fine cannot be stated ({FINE})"
            )
        return f"{head}; fine accrued USD {self.total:,} subject to conviction ({FINE})"

    def as_dict(self) -> dict[str, object]:
        return {
            "jurisdiction": self.jurisdiction,
            "served": self.served.isoformat(),
            "corrected": self.corrected.isoformat() if self.corrected else None,
            "as_of": self.as_of.isoformat(),
            "correction_days": {
                "name": self.correction_days.name,
                "value": str(self.correction_days.value),
                "effective": self.correction_days.effective.isoformat(),
                "authority": self.correction_days.authority,
                "reference": self.correction_days.reference,
            },
            "period_days": self.clock.period_days,
            "nominal_deadline": self.clock.nominal.isoformat(),
            "deadline": self.deadline.isoformat(),
            "deadline_moved_over": [
                {"day": d.day.isoformat(), "reason": d.reason} for d in self.clock.moved_over
            ],
            "state": self.state,
            "days": self.days,
            "first_day": self.first_day.isoformat() if self.first_day else None,
            "last_day": self.last_day.isoformat() if self.last_day else None,
            "segments": [s.as_dict() for s in self.segments],
            "daily": [s.as_dict() for s in self.segments],
            "unconfigured_days": self.unconfigured_days,
            "configured_subtotal": str(self.configured_subtotal),
            "total": _money_text(self.total),
            "currency": "USD",
            "subject_to_conviction": True,
            "citations": [str(c) for c in self.citations],
            "summary": self.summary,
        }


@implements("§ 196-22 A")
def notice_deadline(served: date, params: ParameterSet, period_days: int | None = None) -> Deadline:
    """The correction deadline of a notice served on ``served`` stating ``period_days``.

    § 196-22 A: "Any person found to be violating any provision of this article except
    § 196-20 shall be served by the Town with written notice stating the nature of the violation
    and shall have 10 days for the satisfactory correction thereof. The offender shall, within
    the period of time stated in such notice, permanently cease all violation."

    The period is the one stated in the notice, at least ``notice.correction_days`` (10; a
    shorter one is refused, since the article gives the offender 10 days), and by default
    exactly that. Counted from the day after service: the deadline is ``served + period``, to
    the end of that calendar day in town time. When that day is a Saturday, Sunday or public
    holiday it moves to the next business day (N.Y. General Construction Law § 25-a, public
    holidays per § 24: ``notice.deadline_rollover``, on by default).
    """
    minimum = params.get(CORRECTION_DAYS, served)
    if minimum.value is None:
        raise ClockError(
            f"{CORRECTION_DAYS} is not configured in {params.jurisdiction} on {served}"
        )
    if minimum.value != minimum.value.to_integral_value() or minimum.value < 0:
        raise ClockError(f"{CORRECTION_DAYS} must be a whole number of days, not {minimum.value}")
    least = int(minimum.value)
    period = least if period_days is None else period_days
    if period < least:
        raise ClockError(
            f"a correction period of {period} day{'s' if period != 1 else ''} is shorter than the "
            f"{least} days {NOTICE} gives the offender"
        )
    rollover = params.get(ROLLOVER, served)
    nominal = served + timedelta(days=period)
    deadline, moved = nominal, tuple[NonBusinessDay, ...]()
    if rollover.value:
        deadline, moved = next_business_day(nominal, params.holidays)
    return Deadline(served, period, minimum, rollover, nominal, deadline, moved)


def correction_deadline(served: date, params: ParameterSet) -> tuple[date, ParameterValue]:
    """The deadline of a notice stating the article's own period (see :func:`notice_deadline`)."""
    d = notice_deadline(served, params)
    return d.deadline, d.minimum


@implements("§ 196-22 B")
def accrued_fines(
    served: date,
    corrected: date | None,
    as_of: date,
    params: ParameterSet,
    *,
    violation: Citation | str | None = None,
    period_days: int | None = None,
) -> FineComputation:
    """The days of continuing violation after a notice and the daily fine accrued on them.

    § 196-22 B: "Any person who shall continue any violation beyond the time limit provided for
    in Subsection A shall be guilty of a violation and, on conviction thereof, shall be fined in
    the amount set forth in Chapter 122, Article V, § 122-20Y of the Code per day for each
    violation. Fees will continue to be levied until the violation has been corrected to the
    satisfaction of the Superintendent and/or other authorized personnel as cited in
    § 196-21A."

    Days counted: from the day after the deadline to the correction day inclusive (``corrected``:
    the day the Superintendent verified it), or to ``as_of`` inclusive while not corrected.
    Each day is fined at the ``fine.daily_amount`` in force on that day. ``violation``, when
    given, is the provision violated: a § 196-20 violation raises :class:`NoCorrectionClock`.
    ``period_days`` is the correction period stated in the notice (:func:`notice_deadline`).
    """
    if violation is not None:
        procedure = procedure_for(violation)
        if not procedure.correction_clock:
            raise NoCorrectionClock(procedure.message)
    if as_of < served:
        raise ClockError(f"the as-of date {as_of} is before the notice was served ({served})")
    if corrected is not None:
        if corrected < served:
            raise ClockError(
                f"the correction date {corrected} is before the notice was served ({served})"
            )
        if corrected > as_of:
            raise ClockError(
                f"the correction date {corrected} is after the as-of date {as_of}: a correction "
                "is known only once the Superintendent has verified it"
            )
    clock = notice_deadline(served, params, period_days)
    deadline = clock.deadline
    last = corrected if corrected is not None else as_of
    first = deadline + timedelta(days=1)
    segments = _segments(first, last, params) if last >= first else ()
    days = sum(s.days for s in segments)
    total: Decimal | None
    if all(s.configured for s in segments):
        exact = sum((s.amount or Decimal(0) for s in segments), Decimal(0))
        total = exact.quantize(CENT, rounding=ROUND_HALF_UP)
    else:
        total = None
    return FineComputation(
        served=served,
        corrected=corrected,
        as_of=as_of,
        correction_days=clock.minimum,
        clock=clock,
        deadline=deadline,
        days=days,
        segments=segments,
        total=total,
        citations=(NOTICE, FINE),
        jurisdiction=params.jurisdiction,
    )


def _segments(first: date, last: date, params: ParameterSet) -> tuple[FineSegment, ...]:
    """Split ``first..last`` (inclusive) where the daily amount changes."""
    changes = [d for d in params.breakpoints([DAILY_AMOUNT]) if first < d <= last]
    starts = [first, *changes]
    ends = [d - timedelta(days=1) for d in changes] + [last]
    return tuple(
        FineSegment(
            first_day=start,
            last_day=end,
            days=(end - start).days + 1,
            daily_amount=params.get(DAILY_AMOUNT, start),
        )
        for start, end in zip(starts, ends, strict=True)
    )


def _money_text(amount: Decimal | None) -> str | None:
    if amount is None:
        return None
    return str(amount.quantize(CENT, rounding=ROUND_HALF_UP))
