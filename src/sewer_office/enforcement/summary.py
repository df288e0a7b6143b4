"""One line per violation: what the list's download and ``sewer-use violations`` show.

A JSON object on purpose, not a dataclass: ``sewer-use violations`` prints it as JSON (its keys
are the command's published output) and the list's download reads it by column name. Its shape
is :class:`ViolationSummary`, so that the command, the download and the tests read the same
keys and mypy checks them.
"""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from django.utils import timezone

from sewer_office.core.town_law import town_of

from . import grounds
from .liability import fines
from .models import Violation
from .notices import current_notice

#: What the office shows in place of an amount (§ 196-22 B: a fine is imposed on conviction).
SUBJECT_TO_CONVICTION = "accrued, subject to conviction"
NOT_CONFIGURED = "not configured"


class ViolationSummary(TypedDict):
    """A violation in plain field names (days as ISO text, the fine as decimal text)."""

    id: int
    number: str
    jurisdiction: str
    facility: str
    person: str
    section: str
    kind: str
    state: str
    stage: str
    observed_on: str
    notice_deadline: str | None
    days_late: int | None
    fines_accrued: str | None
    fines_status: str
    fines_note: str
    would_now_be_refused: str | None


def violation_summary(violation: Violation, today: date | None = None) -> ViolationSummary:
    """The violation as the list and ``sewer-use violations`` show it, with plain field names:
    the deadline of the notice in force, the days of continuing violation past it, the fine
    accrued ("accrued, subject to conviction", or "not configured" with the resolution to
    record), as of ``today``."""
    today = today or timezone.localdate()
    f = fines(violation, today)
    notice = current_notice(violation)
    if f.total is not None:
        fines_status = SUBJECT_TO_CONVICTION
    elif f.unconfigured:
        fines_status = NOT_CONFIGURED
    else:
        fines_status = f.message
    # days of continuing violation past the deadline (to the verified correction, if any)
    days_late = f.computation.days if f.computation is not None else None
    return {
        "id": violation.pk,
        "number": violation.number,
        "jurisdiction": town_of(violation),  # the member town whose law governs it
        "facility": violation.subject,
        "person": violation.person.name,
        "section": violation.section,
        "kind": violation.kind,
        "state": violation.state,
        "stage": violation.state_label,
        "observed_on": violation.observed_on.isoformat(),
        "notice_deadline": notice.deadline.isoformat() if notice and notice.deadline else None,
        "days_late": days_late,
        "fines_accrued": None if f.total is None else str(f.total),
        "fines_status": fines_status,
        "fines_note": f.unconfigured,
        # recorded before the rule of grounds and refused by it now (the record is unchanged)
        "would_now_be_refused": grounds.refusal_of(violation),
    }
