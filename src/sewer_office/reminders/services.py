"""``sewer-use send-reminders``: every message the office owes on a day, sent once.

For each source the apps registered (:func:`sewer_office.registry.reminders.sources`: each
app's ``reminders`` module, added from its ``apps.py``) and each representative of the persons a message is for,
:func:`run` calls :func:`sewer_office.mail.services.send_message` with the reminder's key and
the user: the key (one per event, stage and user) makes it go out once across any number of
runs, the user's choice withholds the optional topics they turned off, and legal notices are
sent whatever they chose. A representative without an e-mail address is counted, not skipped
silently. ``dry_run`` computes the same tally and sends and records nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from sewer_office.mail.choices import MessageStatus
from sewer_office.mail.models import SentMessage
from sewer_office.mail.services import send_message, wants
from sewer_office.registry.notify import recipients, user_key
from sewer_office.registry.reminders import sources

#: The tally's columns, in the order printed.
OUTCOMES = ("sent", "already sent", "not wanted", "no e-mail address", "failed")


@dataclass
class Tally:
    """What a run did, per topic and outcome."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, topic: str, outcome: str) -> None:
        self.counts.setdefault(topic, Counter())[outcome] += 1

    def count(self, topic: str, outcome: str) -> int:
        return self.counts.get(topic, Counter())[outcome]

    def total(self, outcome: str) -> int:
        return sum(c[outcome] for c in self.counts.values())

    def lines(self) -> list[str]:
        out = []
        for topic in sources():
            c = self.counts.get(topic, Counter())
            out.append(f"{topic:<20} " + ", ".join(f"{c[o]} {o}" for o in OUTCOMES))
        return out


def run(on: date, *, dry_run: bool = False) -> Tally:
    """Send every reminder and notification owed on ``on`` (see the module's text)."""
    tally = Tally()
    for topic, source in sources().items():
        for due in source(on):
            for user, _person in recipients(due.persons, actor_id=due.actor_id):
                key = user_key(due, user.pk)
                if not user.email:
                    tally.add(topic, "no e-mail address")
                    continue
                if dry_run:
                    done = SentMessage.objects.filter(key=key).exclude(status=MessageStatus.FAILED)
                    if done.exists():
                        tally.add(topic, "already sent")
                    elif not due.legal and not wants(user, topic):
                        tally.add(topic, "not wanted")
                    else:
                        tally.add(topic, "sent")
                    continue
                before = (
                    SentMessage.objects.filter(key=key)
                    .exclude(status=MessageStatus.FAILED)
                    .exists()
                )
                message = send_message(
                    to=user.email,
                    subject=due.subject,
                    body=due.body,
                    topic=topic,
                    user=user,
                    about=due.about,
                    key=key,
                    legal=due.legal,
                )
                if before:
                    tally.add(topic, "already sent")
                else:
                    tally.add(
                        topic,
                        {
                            MessageStatus.SENT: "sent",
                            MessageStatus.WITHHELD: "not wanted",
                            MessageStatus.FAILED: "failed",
                        }[MessageStatus(message.status)],
                    )
    return tally
