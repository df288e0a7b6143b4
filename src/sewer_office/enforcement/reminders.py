"""Enforcement's reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): notices served, correction deadlines in 3 days,
corrections verified. The messages of events are :mod:`.notify`'s, the same the services
announce at once, so both ways send the same under the same keys."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta

from django.db import models

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import EVENT_DAYS, Source, recent_events, stage

from .models import Notice, Violation
from .notify import correction_verified, notice_served
from .town_words import deadline_reminder

#: Days before a notice's correction deadline its reminder starts (§ 196-22 A).
DEADLINE_LEAD = 3
#: Violation states in which a notice's correction deadline still runs.
OPEN_CORRECTION = ("served", "notice_issued")


def _served_notices() -> models.QuerySet[Notice]:
    return Notice.objects.filter(served_on__isnull=False).select_related("violation")


def notices_served(on: date) -> Iterator[Due]:
    """A notice of violation or an order served (§ 196-22 A): a legal notice, always sent."""
    for n in _served_notices().filter(served_on__gte=on - timedelta(days=EVENT_DAYS)):
        yield notice_served(n)


def deadlines(on: date) -> Iterator[Due]:
    """A served notice's correction deadline in 3 days, the correction not yet reported."""
    notices = _served_notices().filter(
        Notice.in_force(),
        deadline__gte=on,
        deadline__lte=on + timedelta(days=DEADLINE_LEAD),
        violation__state__in=OPEN_CORRECTION,
    )
    for n in notices:
        if n.deadline is None or stage(n.deadline, on, (DEADLINE_LEAD,)) is None:
            continue
        # a town's own notice or order: what its law demands and says of fines
        subject, text = deadline_reminder(n) or (
            f"{n.number}: correction due by {n.deadline:%Y-%m-%d}",
            f"The correction required by {n.number} ({n.section}) is due by "
            f"{n.deadline:%Y-%m-%d}. After that day the fines of § 196-22 B may accrue for "
            "each day the violation continues.",
        )
        yield Due(
            Topic.DEADLINE,
            f"deadline:{n.pk}:{n.deadline.isoformat()}",
            n,
            (n.violation.person_id,),
            subject,
            text,
            legal=True,
        )


def corrections_verified(on: date) -> Iterator[Due]:
    """A reported correction verified by the Superintendent (the violation corrected)."""
    events = list(recent_events(Violation, on, action="verify"))
    found = Violation.objects.in_bulk([int(e.object_id) for e in events])
    for e in events:
        v = found.get(int(e.object_id))
        if v is not None:
            yield correction_verified(v, e)


SOURCES: Mapping[str, Source] = {
    Topic.NOTICE_SERVED: notices_served,
    Topic.DEADLINE: deadlines,
    Topic.CORRECTION_VERIFIED: corrections_verified,
}
