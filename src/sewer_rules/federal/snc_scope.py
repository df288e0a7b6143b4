"""Who the criteria of significant noncompliance apply to, day by day.

40 CFR 403.8(f)(2)(viii): "For the purposes of this provision, a Significant Industrial User
(or any Industrial User which violates paragraphs (f)(2)(viii)(C), (D), or (H) of this
section) is in significant noncompliance if its violation meets one or more of the following
criteria".

So the criteria are of two kinds. (C) interference or pass through, (D) imminent endangerment
or the emergency authority, and (H) any other violation that harms the local program make any
industrial user in significant noncompliance. (A) chronic, (B) technical review criteria,
(E) a milestone, (F) a report and (G) inaccurate reporting make only a significant industrial
user (SIU, 40 CFR 403.3(v)) so.

Whether a user is an SIU is decided by the Control Authority on a day and can change: a user
evaluated on 403.3(v)(1), designated for its potential, or found not significant under
403.3(v)(2). Each decision holds from its day until a later decision replaces it from that
later decision's day; a user never decided about by a day was not an SIU on that day (the
status is the Control Authority's to give, not presumed).

The scope is decided day by day, on the day each piece of evidence belongs to:

- (A), (B): a measurement counts only if it was sampled on a day the user was an SIU (a
  month's average for a monthly limit is made of the results of such days only);
- (F): a report counts only if it was due on a day the user was an SIU;
- (E): a compliance-schedule milestone counts only if it was due on such a day;
- (G): a determination of staff counts only if its day is such a day;
- (C), (D), (H): whatever the user's status.

The scope is applied as a filter of the inputs, before the determination: the measurements
and reports outside it are set aside, then :func:`~.snc_determination.determine` and the
columnar :func:`~.snc_columnar.determine_table` run unchanged on what is left, so the two stay
equal (``tests/test_snc_scope_rules.py`` checks it on generated series). What was set aside is
returned too, so that a determination can say what did not count and why.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from .cfr403_snc import CITATION
from .snc_chronic_and_trc import Measurement
from .snc_late_reports import Report

#: The criteria that make only a significant industrial user in significant noncompliance.
SIU_ONLY = frozenset({"A", "B", "E", "F", "G"})
#: The criteria that make any industrial user in significant noncompliance.
ANY_USER = frozenset({"C", "D", "H"})


def applies_to_any_user(letter: str) -> bool:
    """Whether criterion ``letter`` applies to an industrial user that is not an SIU."""
    if letter not in SIU_ONLY | ANY_USER:
        raise ValueError(f"criterion {letter!r}: 403.8(f)(2)(viii) has criteria A to H")
    return letter in ANY_USER


@dataclass(frozen=True)
class Status:
    """One decision of the Control Authority on whether a user is an SIU, from ``decided_on``.

    ``why`` says in a few words how it was decided, with its citation, for the texts that tell
    a reader why a criterion did not apply.
    """

    decided_on: date
    siu: bool
    why: str = ""


@dataclass(frozen=True)
class SIUHistory:
    """A user's SIU status on each day, from its decisions in the order they were recorded.

    A decision replaces every earlier-recorded one from its own day on, even one dated later
    (a correction dated back): ``segments`` are the resulting stretches, each from its start
    day to the next one's start, ordered by day.
    """

    segments: tuple[Status, ...] = ()
    _starts: tuple[date, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        days = tuple(s.decided_on for s in self.segments)
        if list(days) != sorted(set(days)):
            raise ValueError("the segments of an SIU history start on increasing days")
        object.__setattr__(self, "_starts", days)

    @classmethod
    def of(cls, recorded: Iterable[Status]) -> SIUHistory:
        """The history of decisions given in the order they were recorded."""
        segments: list[Status] = []
        for s in recorded:
            segments = [x for x in segments if x.decided_on < s.decided_on] + [s]
        return cls(tuple(segments))

    def on(self, day: date) -> Status | None:
        """The decision in force on ``day``, or None when none was made by then."""
        i = bisect_right(self._starts, day)
        return self.segments[i - 1] if i else None

    def was_siu(self, day: date) -> bool:
        status = self.on(day)
        return status is not None and status.siu

    def why_not(self, day: date) -> str:
        """Why the user was not an SIU on ``day`` (for a day it was not)."""
        status = self.on(day)
        if status is None:
            return "not designated a significant industrial user by then"
        return status.why or f"not a significant industrial user from {status.decided_on}"

    def siu_spans(self, first: date, last: date) -> list[tuple[date, date]]:
        """The stretches of ``first``..``last`` (inclusive) on which the user was an SIU."""
        out: list[tuple[date, date]] = []
        for k, s in enumerate(self.segments):
            nxt = self.segments[k + 1].decided_on if k + 1 < len(self.segments) else None
            lo = max(s.decided_on, first)
            hi = last if nxt is None else min(last, nxt - timedelta(days=1))
            if s.siu and lo <= hi:
                out.append((lo, hi))
        return out


#: A user the Control Authority never decided about: not an SIU on any day.
NEVER_DECIDED = SIUHistory()


def always(siu: bool, why: str) -> SIUHistory:
    """A status held on every day (a file-based run, which has no dated designations)."""
    return SIUHistory.of([Status(date.min, siu, why)])


@dataclass(frozen=True)
class Scope:
    """The SIU histories of the facilities of a run, by facility key; ``default`` for any
    facility not named (never decided about, in the office; taken to be an SIU, on files)."""

    histories: Mapping[str, SIUHistory]
    default: SIUHistory = NEVER_DECIDED

    def of(self, facility: str) -> SIUHistory:
        return self.histories.get(facility, self.default)

    def was_siu(self, facility: str, day: date) -> bool:
        return self.of(facility).was_siu(day)

    def applies(self, letter: str, facility: str, day: date) -> bool:
        """Whether criterion ``letter`` can make ``facility`` in SNC by evidence of ``day``."""
        return applies_to_any_user(letter) or self.was_siu(facility, day)


def split_measurements(
    measurements: Iterable[Measurement], scope: Scope
) -> tuple[list[Measurement], list[Measurement]]:
    """The measurements sampled on a day their user was an SIU, and the others."""
    kept: list[Measurement] = []
    left: list[Measurement] = []
    for m in measurements:
        (kept if scope.was_siu(m.facility, m.day) else left).append(m)
    return kept, left


def split_reports(reports: Iterable[Report], scope: Scope) -> tuple[list[Report], list[Report]]:
    """The reports due on a day their user was an SIU (judged under (F)), and the others."""
    kept: list[Report] = []
    left: list[Report] = []
    for r in reports:
        (kept if scope.was_siu(r.facility, r.due) else left).append(r)
    return kept, left


def days_text(days: Sequence[date]) -> str:
    """``2026-04-03`` or ``2026-04-03..2026-06-20``: the span of some days."""
    first, last = min(days), max(days)
    return str(first) if first == last else f"{first}..{last}"


def not_counted(what: str, facility: str, days: Sequence[date], scope: Scope, letters: str) -> str:
    """The sentence saying why evidence of ``days`` did not count for criteria ``letters``:
    ``3 results sampled 2026-04-03..2026-06-20 not counted for (A), (B): not a significant
    industrial user then (found not significant on 2026-04-01, 40 CFR 403.3(v)(2)); those
    criteria apply to SIUs only (40 CFR 403.8(f)(2)(viii))``."""
    history = scope.of(facility)
    reasons = list(dict.fromkeys(history.why_not(d) for d in sorted(days)))
    return (
        f"{what} {days_text(days)} not counted for {letters}: {'; '.join(reasons)}; "
        f"those criteria apply to significant industrial users only ({CITATION})"
    )
