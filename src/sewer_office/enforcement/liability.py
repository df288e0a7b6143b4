"""What a violation owes: the fine count (§ 196-22 B), with the records it reads (the notices
in force, the verified correction), and the Town's costs recorded (§ 196-22 C).

A reading, not a change: the services (a referral keeps the count of its day), the letters (a
referral's letter states it in words), the pages and the API all ask it, so it stands below
them in a module of its own — the letters need it and the services issue the letters. It is
the app's published reading of what is owed: everyone who asks (:func:`fines`,
:func:`costs_total`) imports it from here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import models
from django.utils import timezone

from sewer_office.core.town_law import town_of

from . import rules
from .models import Correction, Notice, Violation
from .town_ladder import fine_words, own_law


def notices_in_force(violation: Violation) -> list[Notice]:
    """The violation's notices that no later notice superseded, oldest first."""
    return [n for n in violation.notices.all() if not hasattr(n, "superseded_by")]


def verified_correction(violation: Violation) -> Correction | None:
    """The first verified correction (from ``prefetch_related("corrections")`` when the
    caller prefetched them, so that a list of violations costs no query per row)."""
    return _first_verified(violation.corrections.all())


def _first_verified(corrections: Iterable[Correction]) -> Correction | None:
    verified = [c for c in corrections if c.verified_on is not None]
    return min(verified, key=lambda c: c.pk) if verified else None


@dataclass(frozen=True)
class FineRecords:
    """What a violation's fine count reads: its notices in force, oldest first, and its
    corrections."""

    notices: list[Notice]
    corrections: list[Correction]


def records_of(violation: Violation) -> FineRecords:
    """The records of one violation (prefetched by the caller, or read now)."""
    return FineRecords(notices_in_force(violation), list(violation.corrections.all()))


def with_records(
    violations: models.QuerySet[Violation],
) -> list[tuple[Violation, FineRecords]]:
    """Many violations, each with its records, in four statements: a document that counts the
    fines of thousands (the annual report) reads them here rather than through Django's
    prefetch, which builds a queryset for each violation and each relation."""
    ids = violations.order_by().values("pk")
    superseded = set(
        Notice.objects.filter(supersedes__violation__in=ids).values_list("supersedes", flat=True)
    )
    notices: defaultdict[int, list[Notice]] = defaultdict(list)
    # in the order ``violation.notices.all()`` gives (the model's: issued, then id)
    for n in Notice.objects.filter(violation__in=ids).order_by("issued_at", "id"):
        if n.pk not in superseded:
            notices[n.violation_id].append(n)
    corrections: defaultdict[int, list[Correction]] = defaultdict(list)
    for c in Correction.objects.filter(violation__in=ids):
        corrections[c.violation_id].append(c)
    return [(v, FineRecords(notices[v.pk], corrections[v.pk])) for v in violations]


@dataclass(frozen=True)
class Fines:
    """The fine accrued on a violation as of a day, or why none can be stated."""

    computation: rules.FineComputation | None
    notice: Notice | None
    message: str
    unconfigured: str = ""

    @property
    def total(self) -> Decimal | None:
        return self.computation.total if self.computation else None

    @property
    def accruing(self) -> bool:
        return self.computation is not None and self.computation.days > 0


def clock_notice(violation: Violation) -> Notice | None:
    """The notice whose deadline starts the fine: the first served notice in force with a
    correction clock (a superseded notice is replaced by the one that supersedes it)."""
    return next(iter(_clock_notices(violation)), None)


def _clock_notices(violation: Violation) -> list[Notice]:
    return _clock_notices_of(notices_in_force(violation))


def _clock_notices_of(in_force: Iterable[Notice]) -> list[Notice]:
    """The served notices in force with a correction period, in the order served."""
    served = [
        n
        for n in in_force
        if n.served_on is not None and n.correction_clock and n.period_days is not None
    ]
    return sorted(served, key=lambda n: (n.served_on, n.pk))


def fines(
    violation: Violation, as_of: date | None = None, read: FineRecords | None = None
) -> Fines:
    """Accrued per violation, day by day at the amount in force each day (§ 196-22 B) —
    subject to conviction — by the rule :func:`~sewer_rules.ordinance.s196_22_penalties.
    accrued_fines`: from the first served notice's deadline to the day the violation ceased as
    its verification found it (or ``as_of`` while not verified by then), less the period each
    later notice or order (a second notice, an administrative order) gives from the day after
    its service through its own deadline. A notice mailed and not yet delivered is not served:
    it starts nothing and suspends nothing."""
    as_of = as_of or timezone.localdate()
    town = town_of(violation)
    own = own_law(town)
    if own is not None:  # a town whose law is its own: its package says what a fine needs
        return Fines(None, None, fine_words(own))
    procedure = rules.procedure_for(violation.section)
    if not procedure.correction_clock:
        return Fines(None, None, procedure.message)
    read = read or records_of(violation)
    notices = _clock_notices_of(read.notices)
    if not notices:
        mailed = any(n.awaiting_delivery for n in read.notices)
        return Fines(
            None,
            None,
            "The notice was mailed and its delivery is not yet recorded: the correction "
            "period has not started (§ 196-22 A)."
            if mailed
            else "No notice served yet: the correction period has not started.",
        )
    notice, later = notices[0], notices[1:]
    assert notice.served_on is not None
    day = max(as_of, notice.served_on)
    verified = _first_verified(read.corrections)
    corrected = verified_on = None
    if verified is not None and verified.verified_on is not None and verified.verified_on <= day:
        corrected, verified_on = verified.ceased_day, verified.verified_on
    computation = rules.accrued_fines(
        notice.served_on,
        corrected,
        day,
        rules.params(town),
        violation=violation.section,
        period_days=notice.period_days,
        verified=verified_on,
        later_notices=[
            (n.served_on, n.period_days)
            for n in later
            if n.served_on is not None and n.served_on <= day
        ],
    )
    unconfigured = ""
    if computation.total is None:
        unconfigured = rules.unconfigured_message(computation.jurisdiction)
    return Fines(computation, notice, computation.summary, unconfigured)


# A JSON object on purpose: it is stored as it stood on the referral (a JSONField), and the
# referral letter and the API read it back from there.
def fines_as_referred(violation: Violation, day: date) -> dict[str, Any]:
    """The fine count as it stood on the day of a referral (§ 196-22 B), kept on the referral:
    the court imposes the fine on conviction, and the Town Attorney needs the count the office
    made — the days, the spans later notices suspended, the daily amount and its authority, the
    total — as it was, whatever is recorded later. :func:`fines` of that day, as data."""
    f = fines(violation, day)
    return {
        "as_of": day.isoformat(),
        "message": f.message,
        "unconfigured": f.unconfigured,
        "notice": f.notice.number if f.notice is not None else None,
        "fine": f.computation.as_dict() if f.computation is not None else None,
    }


def costs_total(violation: Violation) -> Decimal:
    """The Town's recorded expense, loss or damage on the violation, for recovery (§ 196-22 C)."""
    total = violation.costs.aggregate(t=models.Sum("amount"))["t"] or Decimal(0)
    return Decimal(total).quantize(Decimal("0.01"))  # a sum of cents is cents (no "195.5")
