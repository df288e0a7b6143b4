"""Sending a message and recording it; a person's choice of reminders.

:func:`send_message` is the one way the office sends e-mail. It

1. returns the earlier record, sending nothing, when a message with the same ``key`` was
   already sent (or withheld): a reminder goes out once whatever the number of runs;
2. withholds the message (recorded, not sent) when ``user`` turned the topic off, unless the
   message is ``legal`` or its topic is one that is always sent (:data:`.choices.ALWAYS_SENT`);
3. sends it through Django's e-mail framework (``EMAIL_BACKEND``: SMTP in production, the
   file backend under ``var/mail/`` on a laptop) and records it, with its audit event.

The record is inserted before the message is handed to the backend and committed after: a
second sender of the same key waits on the unique key and then finds the first's record, so
two runs at once do not both send. A failure of the backend (the SMTP server refuses, the
network is down) rolls that back and records the attempt as failed, with the error; a failed
attempt does not hold the key, so the next run tries again.
"""

from __future__ import annotations

import smtplib
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import IntegrityError, models, transaction

from sewer_office.accounts.actors import Actor, Person, signed_in
from sewer_office.accounts.jurisdictions import jurisdiction_of, jurisdiction_paths
from sewer_office.accounts.roles import is_office_user
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput

from .choices import ALWAYS_SENT, OPTIONAL, MessageStatus, Topic
from .models import Preference, SentMessage

#: What a failing backend raises: SMTP refusals, and the socket's errors (refused, timed out).
SEND_ERRORS: tuple[type[BaseException], ...] = (smtplib.SMTPException, OSError)


def wants(user: Person, topic: str) -> bool:
    """Whether ``user`` gets messages of ``topic`` (always, for the topics always sent)."""
    if topic in ALWAYS_SENT:
        return True
    pref = Preference.objects.filter(user=user, topic=topic).values_list("wanted", flat=True)
    return next(iter(pref), True)


def preferences(user: Person) -> dict[str, bool]:
    """Every optional topic → whether ``user`` gets it."""
    chosen = dict(Preference.objects.filter(user=user).values_list("topic", "wanted"))
    return {topic: chosen.get(topic, True) for topic in OPTIONAL}


def set_preferences(user: Actor, wanted: dict[str, bool]) -> dict[str, bool]:
    """Record ``user``'s choice for the optional topics in ``wanted`` (each change audited).

    The topics always sent cannot be turned off: naming one is an error, not a silent no-op.
    """
    if not is_office_user(user):
        raise Forbidden("only a user of the office chooses their reminders")
    person = signed_in(user)
    errors: dict[str, list[str]] = {}
    for topic in wanted:
        if topic in ALWAYS_SENT:
            errors.setdefault(topic, []).append(
                f"{Topic(topic).label} is a legal notice or an account message: always sent"
            )
        elif topic not in OPTIONAL:
            errors.setdefault(topic, []).append(f"no such topic: {topic!r}")
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        before = preferences(person)
        for topic, value in wanted.items():
            if before[topic] == value:
                continue
            pref, _ = Preference.objects.get_or_create(user=person, topic=topic)
            old = audit.snapshot(pref)
            pref.wanted = value
            pref.save(update_fields=["wanted", "updated_at"])
            audit.record(
                actor=person,
                action="set_mail_preference",
                obj=pref,
                before=old,
                after=audit.snapshot(pref),
            )
        return preferences(person)


class About(TypedDict):
    """The record a message is about, as the message's log keeps it (a label that outlives it)."""

    about_type: ContentType | None
    about_id: str
    about_label: str
    jurisdiction: str


def _about(about: models.Model | None) -> About:
    if about is None:
        return {"about_type": None, "about_id": "", "about_label": "", "jurisdiction": ""}
    paths = jurisdiction_paths(type(about))
    return {
        "about_type": ContentType.objects.get_for_model(about),
        "about_id": str(about.pk),
        "about_label": str(about)[:200],
        # the town of a record of one town; "" for a person's or another shared record
        "jurisdiction": jurisdiction_of(about) if paths else "",
    }


def _validate(to: str, subject: str, topic: str, key: str | None) -> None:
    errors: dict[str, list[str]] = {}
    try:
        validate_email(to)
    except ValidationError:
        errors["to"] = [f"not an e-mail address: {to[:80]!r}"]
    if not subject.strip():
        errors["subject"] = ["a message needs a subject"]
    elif len(subject) > 250 or "\n" in subject or "\r" in subject:
        errors["subject"] = ["a subject is one line of at most 250 characters"]
    if topic not in Topic.values:
        errors["topic"] = [f"no such topic: {topic!r}"]
    if key is not None and not (0 < len(key) <= 200):
        errors["key"] = ["a dedupe key has 1 to 200 characters"]
    if errors:
        raise InvalidInput(errors)


def _already(key: str | None) -> SentMessage | None:
    if key is None:
        return None
    return SentMessage.objects.filter(key=key).exclude(status=MessageStatus.FAILED).first()


def send_message(
    *,
    to: str,
    subject: str,
    body: str,
    topic: str,
    user: Person | None = None,
    about: models.Model | None = None,
    key: str | None = None,
    legal: bool = False,
) -> SentMessage:
    """Send one message to ``to`` and record it (see the module's text for the rules)."""
    _validate(to, subject, topic, key)
    legal = legal or topic in ALWAYS_SENT
    earlier = _already(key)
    if earlier is not None:
        return earlier
    withheld = not legal and user is not None and not wants(user, topic)
    # the log row's fields: SentMessage's columns, handed to ``create``
    fields: dict[str, Any] = {
        "to": to,
        "subject": subject,
        "body": body,
        "topic": topic,
        "user": user,
        "key": key,
        "legal": legal,
        **_about(about),
    }
    try:
        with transaction.atomic():
            status = MessageStatus.WITHHELD if withheld else MessageStatus.SENT
            message = SentMessage.objects.create(**fields, status=status)
            if not withheld:
                EmailMessage(
                    subject=subject,
                    body=body,
                    from_email=settings.DEFAULT_FROM_EMAIL,
                    to=[to],
                ).send(fail_silently=False)
            _audit(message)
        return message
    except IntegrityError:
        # Another run sent this key meanwhile (the unique key made us wait for it).
        found = _already(key)
        if found is None:
            raise
        return found
    except SEND_ERRORS as exc:
        with transaction.atomic():
            failed = SentMessage.objects.create(
                **fields, status=MessageStatus.FAILED, error=f"{type(exc).__name__}: {exc}"
            )
            _audit(failed)
        return failed


def _audit(message: SentMessage) -> None:
    audit.record(
        actor=None,
        action={
            MessageStatus.SENT: "send_message",
            MessageStatus.WITHHELD: "withhold_message",
            MessageStatus.FAILED: "message_failed",
        }[MessageStatus(message.status)],
        obj=message,
        after={
            k: v
            for k, v in audit.snapshot(message).items()
            if k != "body"  # the body is the record's own, written once
        },
        reason=message.error,
    )
