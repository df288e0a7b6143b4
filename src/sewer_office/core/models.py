"""Base models and the audit trail.

Every state change in the office writes an :class:`AuditEvent` in the same database
transaction as the change itself (see :mod:`sewer_office.core.audit`), so the record's
timeline can never disagree with the record. Audit events are append-only: the model refuses
updates and deletes, because a legal record's history must not be rewritten; below the
application, PostgreSQL triggers refuse them too (:mod:`sewer_office.core.protection`), and a
hash chain over the events shows any change made anyway (``sewer-use verify-audit``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from sewer_office.accounts.jurisdictions import parcel_town
from sewer_office.accounts.towns import primary

from .filetypes import by_media_type, download_name
from .moments import local


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


class KeepsItsTown(models.Model):
    """A record that keeps the member town of its parcel in a column of its own.

    In an office of several towns every record belongs to its parcel's town
    (``registry.Property.jurisdiction``). A record reached from its parcel through joins is
    found slowly among a county's (a town's permits joined to their parcels to keep a
    twentieth of them); one that keeps the town is found by an index that begins with it
    (docs/scale.md). ``TOWN_SOURCES`` are the lookups from the record to its parcel, the first
    that reaches one giving the town when the record is written; the record follows its parcel
    when the parcel moves to another town by an act
    (:func:`~sewer_office.registry.services.move_to_jurisdiction`), as it did when its town was
    read through the joins. The column is never edited otherwise."""

    jurisdiction = models.CharField(
        max_length=40,
        default=primary,
        editable=False,
        help_text="the member town of the record's parcel, kept with the record",
    )

    TOWN_SOURCES: ClassVar[tuple[str, ...]] = ()
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ("jurisdiction",)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self._state.adding and (town := parcel_town(self)):
            self.jurisdiction = town
        super().save(*args, **kwargs)


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
    #: The event's place in the chain: 1, 2, 3... with no gap (a removed event leaves one).
    seq = models.PositiveBigIntegerField(null=True, blank=True)
    #: The id of the audit key whose HMAC is ``digest`` (:mod:`sewer_office.core.audit_keys`);
    #: blank for the events hashed before the chain was keyed (plain SHA-256, form ``v1``).
    key_id = models.CharField(max_length=40, blank=True, default="")

    target = GenericForeignKey("content_type", "object_id")

    class Meta:
        ordering = ("at", "id")
        indexes = (
            models.Index(fields=["content_type", "object_id", "at"], name="audit_object_time"),
            models.Index(fields=["at"], name="audit_time"),
        )

    def __str__(self) -> str:
        return f"{local(self.at)} {self.actor_name or 'system'} {self.action} {self.object_repr}"

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
    #: The name the file had on the sender's computer: shown, never used to store or serve it
    #: (the stored name is generated, its extension chosen from the checked content).
    original_name = models.CharField(max_length=255, blank=True, default="")
    #: The type its content was checked to be (:mod:`sewer_office.core.filetypes`), served as
    #: such; blank for a file stored before types were recorded (its bytes are checked then).
    media_type = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ("created_at", "id")
        indexes = (models.Index(fields=["content_type", "object_id"], name="attachment_object"),)

    def __str__(self) -> str:
        return self.title

    @property
    def filename(self) -> str:
        """The file's name as shown and downloaded: the sender's, with the extension of its
        checked type (a file stored before names were kept: its stored name)."""
        stored = (self.file.name or "").rsplit("/", 1)[-1]
        return download_name(self.original_name or stored, by_media_type(self.media_type))


# --- letters (see sewer_office.core.letters) -------------------------------------------------


class LetterTemplate(WrittenOnce):
    """One version of the wording of a kind of letter, as a town's office saved it. Never
    edited: an edit is a new version, the newest of the town is current (none stored: the
    bundled template is current, "version 0")."""

    #: The member town whose letters use it (a law package's name): in an office of several
    #: towns each keeps its own versions of each letter, as of its letterhead.
    jurisdiction = models.CharField(max_length=40, default=primary)
    kind = models.CharField(max_length=80)
    version = models.PositiveIntegerField()
    body = models.TextField()
    note = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("jurisdiction", "kind", "-version")
        constraints = (
            models.UniqueConstraint(
                fields=("jurisdiction", "kind", "version"), name="letter_template_town_version"
            ),
        )

    def __str__(self) -> str:
        return f"{self.kind} version {self.version} ({self.jurisdiction})"


class Letterhead(WrittenOnce):
    """One version of a town's letterhead (name, address, contact, logo). The logo is kept
    in the row as bytes: a small image, written once with the version that uses it, so an old
    version still renders exactly as it did and no file can go missing from storage."""

    #: The member town whose letters carry it (a law package's name): in an office of several
    #: towns each keeps its own versions.
    jurisdiction = models.CharField(max_length=40, default=primary, db_index=True)
    version = models.PositiveIntegerField()
    town_name = models.CharField(max_length=200)
    office_name = models.CharField(max_length=200)
    address = models.TextField(help_text="The complete mailing address, one line per line.")
    phone = models.CharField(max_length=60, blank=True)
    email = models.CharField(max_length=120, blank=True)
    hours = models.CharField(max_length=200, blank=True)
    payment_instructions = models.TextField(blank=True)
    logo = models.BinaryField(blank=True, default=b"")
    logo_type = models.CharField(max_length=10, blank=True)
    note = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("-version",)
        constraints = (
            models.UniqueConstraint(
                fields=["jurisdiction", "version"], name="core_letterhead_version_per_town"
            ),
        )

    def __str__(self) -> str:
        return f"letterhead version {self.version}"


class IssuedDocument(WrittenOnce):
    """A document of record as it was issued: its bytes and their SHA-256, with the template
    and letterhead versions it was rendered with. Served from here ever after, never
    re-rendered; one per (kind, record)."""

    kind = models.CharField(max_length=80)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField(max_length=64)
    record = GenericForeignKey("content_type", "object_id")
    title = models.CharField(max_length=200)
    filename = models.CharField(max_length=200)
    content = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    template = models.ForeignKey(
        LetterTemplate, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    letterhead = models.ForeignKey(
        Letterhead, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("issued_at", "id")
        constraints = (
            models.UniqueConstraint(
                fields=("kind", "content_type", "object_id"), name="issued_document_once"
            ),
        )

    def __str__(self) -> str:
        return self.title

    @property
    def template_version(self) -> int:
        return self.template.version if self.template is not None else 0

    @property
    def letterhead_version(self) -> int:
        return self.letterhead.version if self.letterhead is not None else 0


# --- records of the past (see sewer_office.core.imported) -------------------------------------


class ImportedRecord(WrittenOnce):
    """Where a record made outside the office came from: a permit, an approval, an inspection
    or a violation written on paper before the town adopted the office, brought in by an
    import of records of the past (the archive app). One per record, written with it, never
    changed: every page showing the record says it was imported, from where and by whom."""

    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.CharField(max_length=64)
    record = GenericForeignKey("content_type", "object_id")
    #: The number or identifier written on the paper record ("IDA-98-12"), as written; blank
    #: when the paper carries none. The record itself has an office number.
    original_number = models.CharField(max_length=100, blank=True, db_index=True)
    #: The record's own date on paper (decided, filed, inspected, found).
    made_on = models.DateField(null=True, blank=True)
    #: Where the paper record is kept ("file cabinet B, folder 1998-12").
    source = models.TextField()
    #: The import it came with: the file's (or directory's) name and SHA-256.
    batch_name = models.CharField(max_length=300)
    batch_sha256 = models.CharField(max_length=64, db_index=True)
    #: The file and row of the import it was read from (row 1 = the header).
    file = models.CharField(max_length=100)
    row = models.PositiveIntegerField()
    #: The row as written in the import (column → text, empty cells left out).
    as_written = models.JSONField(default=dict)
    imported_at = models.DateTimeField(default=timezone.now)
    #: None: the office's command line at the server.
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("imported_at", "id")
        constraints = (
            models.UniqueConstraint(
                fields=("content_type", "object_id"), name="imported_record_once"
            ),
        )

    def __str__(self) -> str:
        return f"imported {self.content_type.model} #{self.object_id}"

    @property
    def imported_by_name(self) -> str:
        """Who imported it, as the pages say it."""
        user = self.imported_by
        if user is None:
            return "the office's command line"
        return user.get_full_name() or user.get_username()
