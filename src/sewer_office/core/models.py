"""Base models and the audit trail.

Every state change in the office writes an :class:`AuditEvent` in the same database
transaction as the change itself (see :mod:`sewer_office.core.audit`), so the record's
timeline can never disagree with the record. Audit events are append-only: the model refuses
updates and deletes, because a legal record's history must not be rewritten; below the
application, PostgreSQL triggers refuse them too (:mod:`sewer_office.core.protection`), and a
hash chain over the events shows any change made anyway (``sewer-use verify-audit``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone


class TimeStamped(models.Model):
    """When a row was created and last changed (not a substitute for the audit trail)."""

    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class ImmutableRecord(Exception):
    """An attempt to change or delete an append-only record."""


class WrittenOnce(models.Model):
    """A record of legal or financial weight written once: never changed, never deleted
    (a notice's cost, a referral, a charge, a payment...). A mistake is corrected by a new
    record that says why (a credit note, a refund, a superseding notice)."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ImmutableRecord(f"a {self._meta.verbose_name} is never edited once recorded")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord(f"a {self._meta.verbose_name} is never deleted")


class AuditEvent(models.Model):
    """One thing that happened to one record: who, what, when, why, and the values before/after."""

    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=64)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField(max_length=64)
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    state_from = models.CharField(max_length=40, blank=True)
    state_to = models.CharField(max_length=40, blank=True)
    reason = models.TextField(blank=True)
    citation = models.CharField(max_length=80, blank=True)
    #: The hash chain (:mod:`sewer_office.core.chain`): the previous event's ``digest`` and the
    #: SHA-256 of this event's content after it, written by :mod:`sewer_office.core.audit`.
    prev_hash = models.CharField(max_length=64, blank=True, default="")
    digest = models.CharField(max_length=64, blank=True, default="")

    target = GenericForeignKey("content_type", "object_id")

    class Meta:
        ordering = ("at", "id")
        indexes = (
            models.Index(fields=["content_type", "object_id", "at"], name="audit_object_time"),
            models.Index(fields=["at"], name="audit_time"),
        )

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name or 'system'} {self.action} {self.object_repr}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.pop("_allow_update", False):
            raise ImmutableRecord("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("audit events are never deleted")

    @property
    def changes(self) -> list[tuple[str, Any, Any]]:
        """Fields whose value differs between ``before`` and ``after`` (for the timeline)."""
        before, after = self.before or {}, self.after or {}
        keys = [k for k in after if before.get(k) != after.get(k)]
        return [(k, before.get(k), after.get(k)) for k in keys]


def upload_path(instance: Attachment, filename: str) -> str:
    """Files under ``attachments/<model>/<object id>/``, never under a guessable public URL."""
    return f"attachments/{instance.content_type.model}/{instance.object_id}/{filename}"


class Attachment(TimeStamped):
    """A file attached to a record (plans, specifications, approvals of other agencies).

    Downloaded only through :func:`sewer_office.core.views.download_attachment`, which checks
    that the user may see the record the file belongs to.
    """

    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField(max_length=64)
    record = GenericForeignKey("content_type", "object_id")
    title = models.CharField(max_length=200)
    file = models.FileField(upload_to=upload_path, max_length=300)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("created_at", "id")
        indexes = (models.Index(fields=["content_type", "object_id"], name="attachment_object"),)

    def __str__(self) -> str:
        return self.title

    @property
    def filename(self) -> str:
        return (self.file.name or "").rsplit("/", 1)[-1]
