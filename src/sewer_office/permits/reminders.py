"""The permits' reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): an application's state changed, any kind."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import Source, recent_events

from .kinds import KINDS
from .notify import application_changed


def applications_changed(on: date) -> Iterator[Due]:
    """An application's state changed (any permit or approval kind)."""
    for kind in KINDS.values():
        events = list(recent_events(kind.model, on).exclude(state_to="").exclude(action="file"))
        found = kind.model.objects.in_bulk([int(e.object_id) for e in events])
        for e in events:
            app = found.get(int(e.object_id))
            due = None if app is None else application_changed(app, e, kind.label)
            if due is not None:
                yield due


SOURCES: Mapping[str, Source] = {Topic.APPLICATION: applications_changed}
