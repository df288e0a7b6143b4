"""The grease interceptors' reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): a pump-out due."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import Source, facility_persons, stage

from .models import GreaseInterceptor
from .services import clocks

#: Days before a pump-out is due its reminder starts (§ 196-19 F(3): kept in good order).
PUMPOUT_LEAD = 14


def pumpouts_due(on: date) -> Iterator[Due]:
    """A grease interceptor's next pump-out, from 14 days before it is due."""
    for c in clocks(GreaseInterceptor.objects.all(), on):
        due = c.status.next_due
        if due is None or c.status.status != "due" or stage(due, on, (PUMPOUT_LEAD,)) is None:
            continue
        est = c.trap.establishment
        yield Due(
            Topic.PUMPOUT_DUE,
            f"pumpout_due:{c.trap.pk}:{due.isoformat()}",
            c.trap,
            facility_persons(est),
            f"Pump-out due by {due:%Y-%m-%d}: {c.trap}",
            f"The {c.trap} at {est.name} is due to be pumped out by {due:%Y-%m-%d}. Record the "
            "hauler's manifest with the Town once it is done.",
        )


SOURCES: Mapping[str, Source] = {Topic.PUMPOUT_DUE: pumpouts_due}
