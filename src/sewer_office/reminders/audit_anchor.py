"""The audit chain's anchor e-mailed to the Superintendent: one more copy of the chain's head
outside the database, in mailboxes the database's users cannot rewrite.

``sewer-use anchor-audit`` (daily) sends each active user with the Superintendent role and an
e-mail address the anchor — what it counts in words, and the anchor file itself as JSON, to
be kept and, if ever needed, given to ``sewer-use verify-audit --anchor``. When the chain did
not verify, no anchor is taken and the same people get the problems instead. Each message
goes through :func:`sewer_office.mail.services.send_message` (recorded in the message log,
always sent: a preference stored in the database must not be able to silence it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from sewer_office.accounts.actors import Person
from sewer_office.accounts.roles import SUPERINTENDENT
from sewer_office.core.anchor import Anchor
from sewer_office.mail.choices import MessageStatus, Topic
from sewer_office.mail.services import send_message


@dataclass(frozen=True)
class Mailed:
    """What sending did: messages sent, failed, and the Superintendents without an address."""

    sent: int
    failed: int
    without_address: tuple[str, ...]


def superintendents() -> QuerySet[Person]:
    """The active users who hold the Superintendent role, by id."""
    users = get_user_model().objects.filter(is_active=True, groups__name=SUPERINTENDENT)
    return users.distinct().order_by("pk")


def anchor_message(anchor: Anchor, file: str) -> tuple[str, str]:
    """The subject and body of the anchor's e-mail."""
    subject = f"Audit chain anchor {anchor.anchored_at:%Y-%m-%d}: {anchor.events} audit event(s)"
    body = (
        f"The audit trail of the sewer office, {anchor.label}:\n\n"
        f"  events:           {anchor.events}\n"
        f"  last sequence no: {anchor.seq}\n"
        f"  last event:       #{anchor.event_id}\n"
        f"  its digest:       {anchor.digest or '-'}\n"
        f"  signed with key:  {anchor.key_id or '-'}\n"
        f"  anchor file:      {file}\n\n"
        "Keep this message. It is a copy of the trail's head that nobody with access to the "
        "database can change: if the trail is ever doubted, save the JSON below as a file and "
        "run `sewer-use verify-audit --anchor FILE`; it fails when events anchored here were "
        "removed or rewritten.\n\n"
        f"{anchor.text()}"
    )
    return subject, body


def alarm_message(problems: Sequence[str]) -> tuple[str, str]:
    """The subject and body of the e-mail sent when the chain does not verify."""
    listed = "\n".join(f"  - {p}" for p in problems)
    body = (
        "The daily check of the sewer office's audit trail FAILED; no new anchor was taken.\n\n"
        f"{listed}\n\n"
        "The trail was changed below the application, or events were removed, or the audit "
        'key file lacks a key. See docs/audit-chain.md, "When verification fails".'
    )
    return "Audit chain does NOT verify", body


def send(subject: str, body: str, key: str) -> Mailed:
    """Send one message to every Superintendent (``key`` + the user's id: each once)."""
    sent = failed = 0
    without: list[str] = []
    for user in superintendents():
        address = getattr(user, "email", "")
        if not address:
            without.append(user.get_username())
            continue
        message = send_message(
            to=address,
            subject=subject,
            body=body,
            topic=Topic.AUDIT_ANCHOR,
            user=user,
            key=f"{key}:u{user.pk}",
            legal=True,
        )
        if message.status == MessageStatus.FAILED:
            failed += 1
        else:
            sent += 1
    return Mailed(sent, failed, tuple(without))


def send_anchor(anchor: Anchor, file: str) -> Mailed:
    """E-mail ``anchor`` (written to ``file``) to every Superintendent."""
    subject, body = anchor_message(anchor, file)
    stamp = anchor.anchored_at.strftime("%Y%m%dT%H%M%S.%fZ")
    return send(subject, body, f"audit_anchor:{stamp}")


def send_alarm(problems: Sequence[str], stamp: str) -> Mailed:
    """E-mail the problems of a failed verification to every Superintendent."""
    subject, body = alarm_message(problems)
    return send(subject, body, f"audit_alarm:{stamp}")
