"""The reminders the daily run sends (``sewer-use send-reminders``): the plug each app fills.

Each app that owes people a message on some day (a sampling due, a report due, a notice
served, an invoice overdue…) has a ``reminders`` module with one function per topic — the
day in, the :class:`~.notify.Due` messages out — and adds them from its own ``apps.py``
(``REMINDERS.add(self.label, reminders.SOURCES)``). The run (:mod:`sewer_office.reminders`)
reads :data:`REMINDERS` and names no app: it stands below them, beside the registry, which
knows who represents a person (§ 196-15 PERSON).

Reminders ahead of a date (a report due in 30 and 7 days, sampling due, a pump-out due, a
deadline in 3 days) are due from their first day until the date itself (:func:`stage`): a run
missed on the first day still sends them the next day; once the date has passed, they are no
longer sent (what is late is the office's business, through its findings). Events (a notice
served, a correction verified, an invoice issued, an application's state changed) are told at
once by the service where they happen (:func:`~.notify.announce`); the daily run sends, under
the same keys, what that could not, within :data:`EVENT_DAYS` of the event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from sewer_office.core.models import AuditEvent
from sewer_office.core.plugs import Plugs
from sewer_office.mail.choices import Topic

from .models import Establishment
from .notify import Due

#: One topic's reminders owed on a day.
Source = Callable[[date], Iterator[Due]]

#: Every app's sources, topic → function, added by the app's ``ready()``.
REMINDERS: Plugs[Mapping[str, Source]] = Plugs("reminders")

#: How far back an event is still announced by the next run.
EVENT_DAYS = 7


def sources() -> dict[str, Source]:
    """Every registered source by topic, in the order of :class:`Topic` (the order a run
    reports them in), whichever app registered first."""
    found: dict[str, Source] = {}
    for contributed in REMINDERS:
        found.update(contributed)
    order = {topic: i for i, topic in enumerate(Topic.values)}
    return dict(sorted(found.items(), key=lambda item: order.get(item[0], len(order))))


def stage(day: date, on: date, leads: Iterable[int]) -> int | None:
    """The latest reminder stage reached on ``on`` for a date ``day`` (the smallest lead
    whose first day has come), or None before the first stage and after the date."""
    if on > day:
        return None
    reached = [lead for lead in leads if on >= day - timedelta(days=lead)]
    return min(reached) if reached else None


def facility_persons(est: Establishment) -> tuple[int, ...]:
    """Who is told about a facility: its operator and the owner of its property."""
    owner = est.building.property.owner_id
    return tuple(sorted({est.operator_id, owner} - {None}))


def recent_events(
    model: type[models.Model], on: date, **filters: Any
) -> models.QuerySet[AuditEvent]:
    """The audit events of ``model``'s records in the last :data:`EVENT_DAYS` before ``on``."""
    since = timezone.make_aware(datetime.combine(on - timedelta(days=EVENT_DAYS), time.min))
    return AuditEvent.objects.filter(
        content_type=ContentType.objects.get_for_model(model), at__gte=since, **filters
    ).order_by("id")
