"""What an applicant is told by e-mail when its application changes state.

:func:`announcer` gives each kind's workflow its ``announce`` (bound in :mod:`.kinds`):
:func:`sewer_office.core.services.perform` calls it inside the transition's transaction and
:func:`sewer_office.registry.notify.announce` sends the message once the change is committed,
to the representatives of the applicant (§ 196-15 PERSON) except the user who made the
change. The filing itself is no change to announce (the applicant filed, or the clerk filed
for them at the counter). The daily ``sewer-use send-reminders`` sends the same message under
the same key for the events it finds, so each goes out once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from sewer_office.core.models import AuditEvent
from sewer_office.mail.choices import Topic
from sewer_office.registry import notify
from sewer_office.registry.notify import Due

#: Actions that are no change of state to tell the applicant of.
NOT_ANNOUNCED = frozenset({"file"})


def application_changed(app: Any, event: AuditEvent, label: str) -> Due | None:
    """The message for ``event`` on ``app`` (a permit or approval of kind ``label``), or None
    when the event is no change of state."""
    if not event.state_to or event.state_from == event.state_to or event.action in NOT_ANNOUNCED:
        return None
    moved_from = event.state_from.replace("_", " ")
    moved_to = event.state_to.replace("_", " ")
    return Due(
        Topic.APPLICATION,
        f"application:{event.pk}",
        app,
        (app.applicant_id,),
        f"{label} {app}: {moved_to}",
        f"Your {label.lower()} {app} moved from {moved_from} to {moved_to} on "
        f"{timezone.localtime(event.at):%Y-%m-%d}"
        + (f": {event.reason}" if event.reason else ".")
        + (f" ({event.citation})" if event.citation else ""),
        actor_id=event.actor_id,
    )


def announcer(label: str) -> Callable[[Any, AuditEvent], None]:
    """The ``announce`` of the workflow of the applications of kind ``label``."""

    def announce(app: Any, event: AuditEvent) -> None:
        notify.announce(application_changed(app, event, label))

    return announce
