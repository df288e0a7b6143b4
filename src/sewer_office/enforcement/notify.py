"""What people are told by e-mail when a violation moves: a notice served (§ 196-22 A, a
legal notice, always sent) and a correction verified (§ 196-22 B).

:func:`announce` is the violation workflow's ``announce`` (called by
:func:`sewer_office.core.services.perform` inside the transition's transaction): it hands the
message to :func:`sewer_office.registry.notify.announce`, which sends it once the transition
is committed. The same messages, under the same keys, are what the daily
``sewer-use send-reminders`` sends for the events it finds (a message that could not be sent
at once goes out then, never twice).
"""

from __future__ import annotations

from django.utils import timezone

from sewer_office.core.models import AuditEvent
from sewer_office.mail.choices import Topic
from sewer_office.registry import notify
from sewer_office.registry.notify import Due

from .models import Notice, Violation
from .town_words import answer_sentence


def notice_served(n: Notice) -> Due:
    """A notice of violation or an order served (§ 196-22 A): a legal notice."""
    v = n.violation
    deadline = f" Correct it by {n.deadline:%Y-%m-%d}." if n.deadline else ""
    if (own := answer_sentence(n)) is not None:  # a town's own notice or order, its words
        deadline = f" {own}"
    return Due(
        Topic.NOTICE_SERVED,
        f"notice_served:{n.pk}",
        n,
        (v.person_id,),
        f"{n.number}: {n.response_label} served on {n.served_on:%Y-%m-%d}",
        f"{n.number} ({n.response_label}, {n.citation}) was served on "
        f"{n.served_on:%Y-%m-%d}: {n.nature}{deadline} The notice itself, as served, is the "
        "legal document; this message only tells you of it.",
        legal=True,
    )


def correction_verified(v: Violation, event: AuditEvent) -> Due:
    """A reported correction verified by the Superintendent (§ 196-22 B: the fine stops;
    under a town's own law, the provision its verification event cites)."""
    return Due(
        Topic.CORRECTION_VERIFIED,
        f"correction_verified:{event.pk}",
        v,
        (v.person_id,),
        f"Correction verified: {v}",
        f"The Town verified the correction of {v} on {timezone.localtime(event.at):%Y-%m-%d} "
        f"({event.citation or '§ 196-22 B'}).",
        actor_id=event.actor_id,
    )


def announce(violation: Violation, event: AuditEvent) -> None:
    """Tell the violator's representatives of a notice served or a correction verified."""
    if event.action in ("serve", "record_delivery"):
        # certified mail: "serve" records the mailing, and the notice is served on delivery
        latest = (
            Notice.objects.filter(Notice.in_force(), violation=violation)
            .select_related("violation")
            .order_by("-id")
            .first()
        )
        if latest is not None and latest.served_on is not None:
            notify.announce(notice_served(latest))
    elif event.action == "verify":
        notify.announce(correction_verified(violation, event))
