"""An import of records of the past: one file (a ZIP) or directory of CSV files and scanned
documents, brought in at once. Each record it created carries its own provenance
(:class:`sewer_office.core.models.ImportedRecord`, which names this import by its SHA-256)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.links import link
from sewer_office.core.models import WrittenOnce


class RecordImport(WrittenOnce):
    """One import of records of the past, as applied: its name, SHA-256, what it created and
    the documents it attached (name, size, SHA-256), who and when. Written once; the same
    bytes are never imported twice."""

    name = models.CharField(max_length=300, help_text="the file's or directory's name")
    sha256 = models.CharField(max_length=64, unique=True)
    source = models.TextField(
        blank=True, help_text="where the paper records are kept, for rows that do not say"
    )
    #: file → number of records created from it ("permits.csv": 12, ...).
    counts = models.JSONField(default=dict)
    #: [{"name", "size", "sha256", "records": [label, ...]}] — every document attached.
    documents = models.JSONField(default=list)
    imported_at = models.DateTimeField(default=timezone.now)
    #: None: the office's command line at the server.
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("-imported_at", "-id")

    def __str__(self) -> str:
        return f"import of records of the past #{self.pk} ({self.name})"

    @property
    def total(self) -> int:
        """How many records it created."""
        return sum(int(n) for n in (self.counts or {}).values())

    @property
    def imported_by_name(self) -> str:
        user = self.imported_by
        if user is None:
            return "the office's command line"
        return str(user.get_full_name() or user.get_username())

    def get_absolute_url(self) -> str:
        return link("archive:detail", args=[self.pk])
