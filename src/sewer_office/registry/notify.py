"""Telling a person something by e-mail: its representatives get the message (§ 196-15 PERSON).

A :class:`Due` is one message owed to the representatives of some persons (the outside users
who act for them, ``Person.representatives``): its topic, its **key** (the event and the
stage of a reminder, e.g. ``notice_served:12``), the record it is about, its text. Each
representative gets it under the key ``<key>:u<user id>``, so that
:func:`sewer_office.mail.services.send_message` sends it to each of them once, whoever asks
first — the service where the event happens (:func:`announce`) or the daily
``sewer-use send-reminders`` catching up on what that could not send.

:func:`announce` is what a service calls inside its transaction when something happens that
people are told of at once (a notice served, a correction verified, an invoice issued, an
application's state changed): the messages are sent by ``transaction.on_commit``, after the
change is committed. A transaction rolled back sends nothing and records nothing (no
SentMessage "sent" for a change that never happened); a message that fails after the commit
(the SMTP server refuses, the network is down) is recorded failed and sent by the next daily
run, under the same key. Announcing never fails the change itself: it is already committed,
and an error of the mail is logged, not raised into the request.

The registry is the app of persons and their representatives, below every app whose events
are announced (permits, enforcement, billing) and above mail, which it calls.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction

from sewer_office.mail.models import SentMessage
from sewer_office.mail.services import send_message

from .models import Person

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Due:
    """One message owed to the representatives of ``persons``."""

    topic: str
    key: str
    about: models.Model
    persons: tuple[int, ...]
    subject: str
    body: str
    legal: bool = False
    #: The user who made the change: not told by e-mail of what they just did themselves.
    actor_id: int | None = None


def user_key(due: Due, user_pk: int) -> str:
    """The dedupe key of ``due`` for one recipient."""
    return f"{due.key}:u{user_pk}"


def recipients(
    person_ids: Iterable[int], *, actor_id: int | None = None
) -> list[tuple[Any, Person]]:
    """The active representatives (outside users) of the persons, with the person each acts
    for; ``actor_id``, the user who made the change, is left out."""
    out: list[tuple[Any, Person]] = []
    for person in Person.objects.filter(pk__in=list(person_ids)).prefetch_related(
        "representatives"
    ):
        out.extend(
            (user, person)
            for user in person.representatives.all()
            if user.is_active and user.pk != actor_id
        )
    return out


def deliver(due: Due) -> list[SentMessage]:
    """Send ``due`` to each of its recipients with an e-mail address (once per key).

    Called after the change is committed: an error for one recipient (an address the mail
    refuses) is logged and does not keep the others from their message; the daily run sends
    what this could not.
    """
    sent: list[SentMessage] = []
    for user, _person in recipients(due.persons, actor_id=due.actor_id):
        if not user.email:
            continue  # counted by the daily run; nothing to send to
        key = user_key(due, user.pk)
        try:
            sent.append(
                send_message(
                    to=user.email,
                    subject=due.subject,
                    body=due.body,
                    topic=due.topic,
                    user=user,
                    about=due.about,
                    key=key,
                    legal=due.legal,
                )
            )
        except Exception:  # the change stands; the next send-reminders run tries again
            log.exception("announcing %s failed; the next send-reminders run sends it", key)
    return sent


def announce(due: Due | None) -> None:
    """Send ``due`` once the current transaction commits (nothing if it rolls back)."""
    if due is not None:
        transaction.on_commit(lambda: deliver(due), robust=True)
