"""§ 196-22 Penalties for offenses — the notice/correction clock and accrued daily fines.

How the software reads § 196-22 A and B (docs/interpretations.md, "Notices, correction and fines"):

- A written notice of violation is served on date S (personal service: the day of delivery;
  certified mail: the day of delivery on the return receipt or the carrier's record, never the
  day of mailing). It states a correction period of at least ``notice.correction_days`` (10):
  the deadline is S + the period, counted from the day after service, to the end of that day
  in town time, moved past a Saturday, Sunday or public holiday (N.Y. General Construction Law
  §§ 24, 25-a; :mod:`sewer_rules.calendars`).
- Each day after the deadline up to and including the day the violation *ceased* is one day
  of continuing violation. Whoever verifies the correction (the Superintendent or a § 196-21 A
  inspector) finds that day — the day reported when the verification bears it out, or another
  day found on inspection — never later than the verification itself: the Town's delay in
  verifying is not the offender's violation. A correction reported in time and verified later
  carries no fine. Served 2026-01-05, deadline 2026-01-15, ceased 2026-01-18, verified
  2026-01-25 → 3 days (16th–18th). While the day is not known, the count runs to the as-of day.
- A later notice or order on the same violation (a second notice, an administrative order, a
  compliance schedule), served on day L with its own period and deadline D_L (computed as for
  any notice), binds the Town: the days from L + 1 through D_L are not counted; the days after
  an earlier deadline up to and including L stay counted; the count resumes after D_L. One
  served before the earlier deadline only extends it. Served 2026-01-05 (deadline 01-15), a
  later notice of 30 days served 2026-02-02 (deadline 03-04), ceased 2026-03-10 → 18 days
  (01-16 to 02-02) + 6 days (03-05 to 03-10) = 24 days.
- The fine is the sum over the counted days of ``fine.daily_amount`` (the § 122-20 Y amount)
  in force on each day: a change of amount mid-violation applies from its effective date. A day
  on which no amount is configured is reported as such, and the total is then not stated.
- Each violation accrues separately (one computation per violation). The fine is *accrued,
  subject to conviction*: a court, not the software, convicts.
- § 196-20 (damage to or tampering with the works) is outside the notice procedure: it is
  referred at once, never given a correction clock.

Dates are calendar dates in the town's zone. Money is exact (``Decimal``) and rounded to cents,
half-up, only at the end. The records returned are in :mod:`.s196_22_computation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sewer_rules.calendars import NonBusinessDay, next_business_day
from sewer_rules.citations import Citation, FederalCitation, cite, read_cited
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.response_clock import ROLLOVER
from sewer_rules.response_clock import appointed_days as appointed_holidays
from sewer_rules.sections import implements

from .s196_22_computation import (
    CENT,
    FINE,
    NOTICE,
    Deadline,
    FineComputation,
    FineSegment,
    Span,
    counted_spans,
    suspension,
)

__all__ = [
    "CENT",
    "FINE",
    "NOTICE",
    "Deadline",
    "FineComputation",
    "FineSegment",
    "Span",
    "appointed_holidays",
]

PROTECTION_FROM_DAMAGE = cite("§ 196-20")

CORRECTION_DAYS = "notice.correction_days"
DAILY_AMOUNT = "fine.daily_amount"


class ClockError(ValueError):
    """Dates that cannot describe a notice and its correction (e.g. corrected before served)."""


class NoCorrectionClock(ClockError):
    """A violation of § 196-20, which is referred at once and has no correction clock."""


@dataclass(frozen=True)
class Procedure:
    """What § 196-22 does with a violation of the cited provision."""

    violated: Citation | FederalCitation
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
def procedure_for(violated: Citation | FederalCitation | str) -> Procedure:
    """Whether a violation of ``violated`` gets a written notice and a correction clock.

    § 196-22 A: "Any person found to be violating any provision of this article except
    § 196-20 shall be served by the Town with written notice stating the nature of the violation
    and shall have 10 days for the satisfactory correction thereof."

    § 196-20: "... Any person violating this provision shall be subject to immediate arrest
    under charge of disorderly conduct."  — so a § 196-20 violation is referred at once.
    """
    # A text may cite several provisions ("40 CFR 403.8(f)(2)(viii); § 196-19 D(2)"): the
    # article's own decides (§ 196-20 or not); a federal requirement alone the Town enforces
    # through the notice of § 196-22 A like any provision but § 196-20.
    if isinstance(violated, str):
        cited_all = read_cited(violated)
        cited = next((c for c in cited_all if isinstance(c, Citation)), cited_all[0])
    else:
        cited = violated
    if isinstance(cited, Citation) and cited.section == PROTECTION_FROM_DAMAGE.section:
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
        deadline, moved = next_business_day(nominal, params.holidays, appointed_holidays(params))
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
    verified: date | None = None,
    later_notices: Sequence[tuple[date, int | None]] = (),
) -> FineComputation:
    """The days of continuing violation after a notice and the daily fine accrued on them.

    § 196-22 B: "Any person who shall continue any violation beyond the time limit provided for
    in Subsection A shall be guilty of a violation and, on conviction thereof, shall be fined in
    the amount set forth in Chapter 122, Article V, § 122-20Y of the Code per day for each
    violation. Fees will continue to be levied until the violation has been corrected to the
    satisfaction of the Superintendent and/or other authorized personnel as cited in
    § 196-21A."

    ``corrected``: the day the violation ceased, as the verification found it (None while not
    known: the count runs to ``as_of``); ``verified``: the day of that verification, not before
    ``corrected`` nor after ``as_of``. ``later_notices``: (day served, period stated or None for
    the article's) of each later notice or order on the same violation, in order; each takes
    the day after its service through its own deadline out of the count. Days counted: after
    the first notice's deadline, up to ``corrected`` (or ``as_of``) inclusive, less those
    periods; each fined at the ``fine.daily_amount`` in force on that day. ``violation``, when
    given, is the provision violated: a § 196-20 violation raises :class:`NoCorrectionClock`.
    ``period_days`` is the first notice's period (:func:`notice_deadline`).
    """
    if violation is not None:
        procedure = procedure_for(violation)
        if not procedure.correction_clock:
            raise NoCorrectionClock(procedure.message)
    _check_days(served, corrected, verified, as_of)
    clock = notice_deadline(served, params, period_days)
    later = _later(served, as_of, later_notices, params)
    end = corrected if corrected is not None else as_of
    spans = counted_spans(clock.deadline, end, [suspension(n) for n in later])
    segments = tuple(seg for span in spans for seg in _segments(span.first, span.last, params))
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
        deadline=clock.deadline,
        days=days,
        segments=segments,
        total=total,
        citations=(NOTICE, FINE),
        jurisdiction=params.jurisdiction,
        verified=verified,
        later=later,
        spans=spans,
    )


def _check_days(served: date, corrected: date | None, verified: date | None, as_of: date) -> None:
    """Dates that can describe a notice, the day the violation ceased and its verification.

    The day it ceased may precede the service (the person corrected before the notice reached
    it: no fine); it is known only once verified, so never after the verification or the
    as-of day.
    """
    if as_of < served:
        raise ClockError(f"the as-of date {as_of} is before the notice was served ({served})")
    if verified is not None:
        if corrected is None:
            raise ClockError(
                f"a verification on {verified} finds the day the violation ceased: give that day"
            )
        if verified < corrected:
            raise ClockError(
                f"the verification on {verified} is before the day the violation ceased "
                f"({corrected}): the correction cannot be found before it was made"
            )
        if verified > as_of:
            raise ClockError(f"the verification on {verified} is after the as-of date {as_of}")
    if corrected is not None and corrected > as_of:
        raise ClockError(
            f"the day the violation ceased ({corrected}) is after the as-of date {as_of}: it is "
            "known only once the correction has been verified"
        )


def _later(
    served: date,
    as_of: date,
    later_notices: Sequence[tuple[date, int | None]],
    params: ParameterSet,
) -> tuple[Deadline, ...]:
    """The later notices' clocks, checked: in order, after the first service, by ``as_of``."""
    out: list[Deadline] = []
    previous = served
    for n, (day, period) in enumerate(later_notices, 1):
        if day < served:
            raise ClockError(
                f"later notice {n} (served {day}) is before the first notice was served ({served})"
            )
        if day < previous:
            raise ClockError(
                f"later notice {n} (served {day}) is before the notice listed before it "
                f"({previous}): list the later notices in the order they were served"
            )
        if day > as_of:
            raise ClockError(f"later notice {n} (served {day}) is after the as-of date {as_of}")
        out.append(notice_deadline(day, params, period))
        previous = day
    return tuple(out)


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
