"""Onboarding records: the column mappings the clerk keeps, the imports of a town's
spreadsheet of users and facilities, and the rows waiting for a parcel in the review queue.

A town starts with a spreadsheet (industrial users, restaurants: facility, code, kind,
operator and its mailing address, contacts, the parcel's SBL or street address). A
:class:`ColumnMapping` says which of its columns holds each field the office needs and which of
its words mean which kind of establishment; it is chosen once and reused for the next file
with the same header. A :class:`FacilityImport` records one import: the file's name and
SHA-256, the mapping as it was used, the counts, and what became of each row. A row whose
parcel could not be found is not refused: it waits as a :class:`ReviewItem` until the clerk
picks the parcel (or dismisses it, with a reason).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from sewer_office.core.models import TimeStamped
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment, Property

from .choices import ReviewState


class ColumnMapping(TimeStamped):
    """Which column of a spreadsheet holds each field the import needs, and which words of
    its kind column mean which :class:`~sewer_office.registry.choices.EstablishmentKind`."""

    name = models.CharField(max_length=80, unique=True)
    #: The header (column names, in the file's order) the mapping was chosen from: the columns
    #: offered when it is edited, and (as a set, :attr:`header_key`) how a later file with the
    #: same header finds it.
    header = models.JSONField(default=list)
    header_key = models.CharField(max_length=64, db_index=True)
    #: target field → the header of its column (targets not in the file are absent).
    columns = models.JSONField(default=dict)
    #: a word of the kind column (compared without regard to case and spacing) → a kind.
    kind_values = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    def kind_words(self) -> list[tuple[str, str]]:
        """(word, the kind's label) of each word of the kind column, for reading."""
        labels = dict(EstablishmentKind.choices)
        return [(w, str(labels.get(k, k))) for w, k in self.kind_values.items()]

    def column_rows(self) -> list[tuple[str, str]]:
        """(the file's column, the field's name) of each field mapped, for reading."""
        return [(column, target.replace("_", " ")) for target, column in self.columns.items()]


class FacilityImport(models.Model):
    """One spreadsheet of users and facilities applied to the registry (written once; what
    became of each row, :attr:`outcomes`, is filled once right after)."""

    source_name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64, db_index=True)
    sheet = models.CharField(max_length=120, blank=True)
    #: The mapping as it was used (a later edit or deletion of the mapping changes nothing here).
    mapping_name = models.CharField(max_length=80)
    mapping = models.JSONField(default=dict)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    imported_at = models.DateTimeField()
    row_count = models.PositiveIntegerField(default=0)
    new_count = models.PositiveIntegerField(default=0)
    changed_count = models.PositiveIntegerField(default=0)
    unchanged_count = models.PositiveIntegerField(default=0)
    queued_count = models.PositiveIntegerField(default=0)
    persons_new_count = models.PositiveIntegerField(default=0)
    #: One entry a row: row number, outcome, the facility (id, name), the review item, the
    #: changes made.
    outcomes = models.JSONField(default=list)

    class Meta:
        ordering = ("-imported_at", "-id")

    def __str__(self) -> str:
        return f"Facility import #{self.pk} ({self.source_name})"


class ReviewItem(TimeStamped):
    """A row of an import whose parcel was not found, waiting for the clerk."""

    facility_import = models.ForeignKey(
        FacilityImport, on_delete=models.PROTECT, related_name="review_items"
    )
    row = models.PositiveIntegerField()
    #: target field → the row's text (as mapped by the import's mapping).
    values = models.JSONField(default=dict)
    #: SHA-256 of :attr:`values`: the same row imported again is not queued twice.
    values_key = models.CharField(max_length=64, db_index=True)
    reason = models.CharField(max_length=300)
    state = models.CharField(
        max_length=20, choices=ReviewState.choices, default=ReviewState.OPEN, db_index=True
    )
    resolved_property = models.ForeignKey(
        Property, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_establishment = models.ForeignKey(
        Establishment, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ("facility_import", "row", "id")

    def __str__(self) -> str:
        name = str(self.values.get("facility_name", "")) or "(no name)"
        return f"Row {self.row} of import #{self.facility_import_id}: {name}"
