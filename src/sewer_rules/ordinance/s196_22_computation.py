"""What the § 196-22 count produces: notice deadlines, counted days, segments, the fine.

The rules that make these are in :mod:`.s196_22_penalties` (its docstring says how the
software reads § 196-22 A and B); this module holds the records they return and how those
records read (JSON, one-line summary), so that the CLI, the office and the tests show the same
words and fields. Split from the rules only to keep each module readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sewer_rules.calendars import NonBusinessDay
from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import ParameterValue

CENT = Decimal("0.01")
NOTICE = cite("§ 196-22 A")
FINE = cite("§ 196-22 B")


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
class Span:
    """Consecutive days, ``first`` to ``last`` inclusive."""

    first: date
    last: date

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def contains(self, day: date) -> bool:
        return self.first <= day <= self.last

    def text(self) -> str:
        return f"{self.first} to {self.last}" if self.first != self.last else str(self.first)

    def as_dict(self) -> dict[str, object]:
        return {
            "first_day": self.first.isoformat(),
            "last_day": self.last.isoformat(),
            "days": self.days,
        }


def suspension(later: Deadline) -> Span:
    """The days a later notice takes out of the count: the day after its service through its
    own deadline (the Town is bound by the period it served)."""
    return Span(later.served + timedelta(days=1), later.deadline)


def counted_spans(deadline: date, end: date, suspended: list[Span]) -> tuple[Span, ...]:
    """The days after ``deadline`` up to ``end`` inclusive, less the ``suspended`` spans.

    The interval is cut by each suspension in the order they begin (overlapping ones as
    one), so that a violation open for years costs what one open for days does; the tests
    check it against the count day by day (tests/test_fines_properties.py)."""
    spans: list[Span] = []
    start = deadline + timedelta(days=1)
    for cut in sorted((s for s in suspended if s.first <= s.last), key=lambda s: s.first):
        if cut.first > end:
            break
        if cut.last < start:
            continue
        if cut.first > start:
            spans.append(Span(start, cut.first - timedelta(days=1)))
        start = cut.last + timedelta(days=1)
    if start <= end:
        spans.append(Span(start, end))
    return tuple(spans)


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
            "daily_amount": money_text(self.daily_amount.value),
            "configured": self.configured,
            "effective": self.daily_amount.effective.isoformat(),
            "authority": self.daily_amount.authority,
            "amount": money_text(amount),
        }


@dataclass(frozen=True)
class FineComputation:
    """The correction clock of a violation's notices and the fine accrued on it as of a day.

    ``corrected`` is the day the violation ceased as the verification found it (None while
    not known); ``verified`` the day of that verification (None when not given). ``clock`` is
    the first notice's; ``later`` the later notices or orders, in order, each suspending the
    count from the day after its service through its own deadline; ``spans`` the days counted.
    """

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
    verified: date | None = None
    later: tuple[Deadline, ...] = ()
    spans: tuple[Span, ...] = ()

    @property
    def first_day(self) -> date | None:
        return self.segments[0].first_day if self.segments else None

    @property
    def last_day(self) -> date | None:
        return self.segments[-1].last_day if self.segments else None

    @property
    def deadline_in_force(self) -> date:
        """The latest deadline of the notices served as of the day (the period last given)."""
        return max([self.deadline, *(n.deadline for n in self.later)])

    @property
    def suspensions(self) -> list[tuple[Deadline, Span]]:
        """Each later notice with the days it takes out of the count."""
        return [(n, suspension(n)) for n in self.later]

    @property
    def unconfigured_days(self) -> int:
        return sum(s.days for s in self.segments if not s.configured)

    @property
    def configured_subtotal(self) -> Decimal:
        """The part of the fine on days whose amount is configured, to the cent."""
        exact = sum((s.amount for s in self.segments if s.amount is not None), Decimal(0))
        return exact.quantize(CENT, rounding=ROUND_HALF_UP)

    def _in_a_period(self, day: date) -> bool:
        return day <= self.deadline or any(suspension(n).contains(day) for n in self.later)

    @property
    def state(self) -> str:
        """``corrected_in_time``, ``within_correction_period``, ``corrected_late``, ``continuing``."""
        if self.corrected is not None:
            return "corrected_in_time" if self.days == 0 else "corrected_late"
        return "within_correction_period" if self._in_a_period(self.as_of) else "continuing"

    @property
    def span_text(self) -> str:
        parts = [f"{s.days} ({s.text()})" if len(self.spans) > 1 else s.text() for s in self.spans]
        plural = "s" if self.days != 1 else ""
        if len(self.spans) > 1:
            return f"{self.days} day{plural} of continuing violation: " + " + ".join(parts)
        return f"{self.days} day{plural} of continuing violation ({parts[0]})"

    @property
    def summary(self) -> str:
        state = self.state
        verified = f", verified on {self.verified}" if self.verified else ""
        deadline = self.deadline_in_force
        if state == "corrected_in_time":
            return (
                f"the violation ceased on {self.corrected}{verified}, within the period given "
                f"(deadline {deadline}): no fine ({NOTICE})"
            )
        if state == "within_correction_period" and self.days == 0:
            return (
                f"not corrected as of {self.as_of}; the correction period runs to the end of "
                f"{deadline}: no fine so far ({NOTICE})"
            )
        span = self.span_text
        if state == "corrected_late":
            head = f"the violation ceased on {self.corrected}{verified}, after the deadline: {span}"
        elif state == "within_correction_period":
            head = (
                f"not corrected as of {self.as_of}: {span} before the later notice; the period "
                f"it gives runs to the end of {deadline}, and the count resumes after it"
            )
        else:
            head = (
                f"not corrected as of {self.as_of}, deadline {deadline} passed: {span}, and a "
                "further day accrues each day until the violation ceases"
            )
        if self.total is None:
            return (
                f"{head}; the daily amount (§ 122-20 Y) is not configured for "
                f"{self.unconfigured_days} of those days, so the fine cannot be stated ({FINE})"
            )
        return f"{head}; fine accrued USD {self.total:,} subject to conviction ({FINE})"

    def notices_dicts(self) -> list[dict[str, object]]:
        """Every notice of the count in order: the first, then the later ones with the days
        each takes out of the count."""
        out: list[dict[str, object]] = [{**self.clock.as_dict(), "later": False, "suspends": None}]
        for n in self.later:
            out.append({**n.as_dict(), "later": True, "suspends": suspension(n).as_dict()})
        return out

    def as_dict(self) -> dict[str, object]:
        return {
            "jurisdiction": self.jurisdiction,
            "served": self.served.isoformat(),
            "corrected": self.corrected.isoformat() if self.corrected else None,
            "verified": self.verified.isoformat() if self.verified else None,
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
            "notices": self.notices_dicts(),
            "deadline_in_force": self.deadline_in_force.isoformat(),
            "state": self.state,
            "days": self.days,
            "first_day": self.first_day.isoformat() if self.first_day else None,
            "last_day": self.last_day.isoformat() if self.last_day else None,
            "periods": [s.as_dict() for s in self.spans],
            "segments": [s.as_dict() for s in self.segments],
            "daily": [s.as_dict() for s in self.segments],
            "unconfigured_days": self.unconfigured_days,
            "configured_subtotal": str(self.configured_subtotal),
            "total": money_text(self.total),
            "currency": "USD",
            "subject_to_conviction": True,
            "citations": [str(c) for c in self.citations],
            "summary": self.summary,
        }


def money_text(amount: Decimal | None) -> str | None:
    if amount is None:
        return None
    return str(amount.quantize(CENT, rounding=ROUND_HALF_UP))
