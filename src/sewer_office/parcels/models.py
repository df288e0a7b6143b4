"""Records of the parcels app: each import of a roll or of the districts, the owners the roll
changed (dated events), and what the clerk decides of the parcels that left the roll.

The properties and persons themselves are the registry's (:mod:`sewer_office.registry.models`):
an import creates and updates them, and these records say when, from which file and why.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.moments import local
from sewer_office.registry.models import Person, Property

from .choices import ImportKind, ReviewKind, ReviewState


class RollImport(models.Model):
    """One file applied: the county's tax parcel roll, or its sewer districts' polygons.

    Written once, after the whole file was checked and applied in the same transaction; the
    file's name, SHA-256 and coordinate system say what was read, the counts what it did.
    The same bytes are never applied twice (``unique (kind, sha256)``).
    """

    kind = models.CharField(max_length=20, choices=ImportKind.choices, default=ImportKind.ROLL)
    source_name = models.CharField(max_length=300)
    sha256 = models.CharField(max_length=64)
    crs = models.CharField("coordinate system of the file", max_length=80, blank=True)
    #: The roll's date: owner changes take effect on it (None for districts).
    roll_date = models.DateField(null=True, blank=True)
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rows = models.PositiveIntegerField(default=0)
    new_count = models.PositiveIntegerField("new", default=0)
    changed_count = models.PositiveIntegerField("changed", default=0)
    unchanged_count = models.PositiveIntegerField("unchanged", default=0)
    review_count = models.PositiveIntegerField("held for review", default=0)
    owner_change_count = models.PositiveIntegerField("owner changes", default=0)
    persons_created = models.PositiveIntegerField(default=0)
    areas_assigned = models.PositiveIntegerField("service areas assigned", default=0)
    #: What changed on each changed row: ``[{"row", "key", "property", "fields": {name:
    #: [before, after]}}]`` — the import's own record of the values it replaced.
    changes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("-imported_at", "-id")
        constraints = (models.UniqueConstraint(fields=["kind", "sha256"], name="roll_import_once"),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.source_name})"

    @property
    def when(self) -> Any:
        return local(self.imported_at)


class OwnerChange(models.Model):
    """The roll names another owner of a parcel: a dated event, written once.

    Effective on the roll's date. What was served on the previous owner before (a notice of
    violation, an order) keeps naming the previous owner: those records name their person
    themselves and are not touched.
    """

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="owner_changes")
    previous_owner = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    new_owner = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    effective_on = models.DateField()
    roll_import = models.ForeignKey(
        RollImport, on_delete=models.PROTECT, related_name="owner_changes"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-effective_on", "-id")

    def __str__(self) -> str:
        return f"owner of property #{self.property_id} from {self.effective_on:%Y-%m-%d}"


class ParcelReview(models.Model):
    """Parcels that left the roll, and the new ones on the same ground, for the clerk.

    The roll says only that some SBLs are gone and others are new; that a new parcel was cut
    from a gone one is a guess from their outlines (:func:`sewer_io.parcels.shared_ground`),
    so nothing of it is applied by the import: the gone parcels stay as they were, the new
    ones wait here (their rows as the roll gave them, ``held``). Confirming records the
    relation, creates the held parcels (unless they exist by then) and retires the gone ones
    (:class:`Retirement`); rejecting leaves everything as it is (next year's roll raises it
    again if it still holds).
    """

    kind = models.CharField(max_length=20, choices=ReviewKind.choices)
    state = models.CharField(
        max_length=20, choices=ReviewState.choices, default=ReviewState.PENDING, db_index=True
    )
    roll_import = models.ForeignKey(RollImport, on_delete=models.PROTECT, related_name="reviews")
    #: Properties whose SBL the roll no longer has: ``[{"property", "key", "parcel_id",
    #: "address"}]``.
    gone = models.JSONField(default=list, blank=True)
    #: Parcels still on the roll (same SBL) that share ground with the gone ones (the rest of a
    #: split lot, the lot a merge kept): ``[{"property", "key", "parcel_id", "address"}]``.
    continuing = models.JSONField(default=list, blank=True)
    #: The new parcels' rows, as the roll gave them (what confirming creates).
    held = models.JSONField(default=list, blank=True)
    #: ``[[gone key, new key, share of the gone parcel's area], ...]``
    shares = models.JSONField(default=list, blank=True)
    #: The properties confirming created (or found already created), filled once.
    created = models.JSONField(default=list, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.get_kind_display().split(' (')[0]} review #{self.pk}"

    def gone_keys(self) -> list[str]:
        return [str(g["key"]) for g in self.gone]

    def new_keys(self) -> list[str]:
        return [str(h["key"]) for h in self.held]


class Retirement(models.Model):
    """A property whose parcel left the roll, as the clerk confirmed (split, merged, gone).

    The property stays (permits, violations and invoices name it); it is no longer looked for
    on the roll.
    """

    property = models.OneToOneField(Property, on_delete=models.PROTECT, related_name="retirement")
    review = models.ForeignKey(ParcelReview, on_delete=models.PROTECT, related_name="retirements")
    retired_on = models.DateField()

    class Meta:
        ordering = ("-retired_on", "-id")

    def __str__(self) -> str:
        return f"property #{self.property_id} retired on {self.retired_on:%Y-%m-%d}"
