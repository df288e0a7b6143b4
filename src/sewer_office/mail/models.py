"""The message log and each person's choice of reminders."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sewer_office.core.models import TimeStamped, WrittenOnce
from sewer_office.core.moments import local

from .choices import MessageStatus, Topic


class SentMessage(WrittenOnce):
    """One message the office sent (or tried to, or withheld): to whom, what, when, about what.

    Written once with its outcome. ``key`` is the dedupe key of a reminder (topic + record +
    occasion): at most one message with a given key is sent or withheld; a failed attempt does
    not hold the key, so the next run tries again.
    """

    to = models.EmailField(max_length=254)
    subject = models.CharField(max_length=250)
    body = models.TextField()
    topic = models.CharField(max_length=40, choices=Topic.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sent_messages",
    )
    about_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    about_id = models.CharField(max_length=64, blank=True)
    about_label = models.CharField(max_length=200, blank=True)
    about = GenericForeignKey("about_type", "about_id")
    #: The member town of the record it is about ("" for a message about no town's record:
    #: the audit anchor, a sign-in): a staff member of one town sees their town's messages.
    jurisdiction = models.CharField(max_length=40, blank=True, default="", editable=False)
    # NULL, not "": a message without a dedupe key is outside the unique constraint.
    key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    legal = models.BooleanField(default=False)
    sent_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=MessageStatus.choices)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ("-sent_at", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["key"],
                condition=Q(key__isnull=False) & ~Q(status="failed"),
                name="mail_key_sent_once",
            ),
        )
        indexes = (
            models.Index(fields=["sent_at"], name="mail_sent_at"),
            models.Index(fields=["topic", "sent_at"], name="mail_topic_time"),
        )

    def __str__(self) -> str:
        return f"{local(self.sent_at)} {self.to}: {self.subject}"[:200]


class Preference(TimeStamped):
    """A person's choice for one topic (no row: the reminder is wanted)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preferences"
    )
    topic = models.CharField(max_length=40, choices=Topic.choices)
    wanted = models.BooleanField(default=True)

    class Meta:
        ordering = ("user", "topic")
        constraints = (
            models.UniqueConstraint(fields=["user", "topic"], name="mail_preference_once"),
        )

    def __str__(self) -> str:
        return f"{self.user}: {self.topic} {'on' if self.wanted else 'off'}"
