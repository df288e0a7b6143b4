"""Inspections of facilities, easements and works (§ 196-21).

An :class:`Inspection` is scheduled (or opened unscheduled), then completed by an inspector
who presented credentials (§ 196-21 A, B) with an answer to every checklist item, or
cancelled with a reason. A completed inspection is never edited: its answers store the
question and citation as they were asked, and later remarks are appended as
:class:`InspectionAddendum` s, each audited. Inspectors of EPA, DEC and the County Health
Department who take part are recorded with their credentials (:class:`AgencyInspector`), and
a refusal of entry (:class:`EntryRefusal`) is recorded with who refused, when, what was asked
and the credentials shown.
"""

from __future__ import annotations

import builtins

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from sewer_office.core.links import link
from sewer_office.core.models import Attachment, KeepsItsTown, TimeStamped, WrittenOnce
from sewer_office.core.moments import DAY, local
from sewer_office.findings.models import FACILITY_PATHS

from .choices import Agency, Answer, InspectionKind, InspectionState

#: Outside users reach an inspection through its facility or its property.
INSPECTION_PATHS = (*FACILITY_PATHS, "property__owner")


class Inspection(KeepsItsTown, TimeStamped):
    """One inspection of a facility, a property, or works on an easement; of the town of its
    facility's parcel, else of its own parcel."""

    kind = models.CharField(max_length=20, choices=InspectionKind.choices)
    unscheduled = models.BooleanField(
        default=False, help_text="an unannounced visit, not planned on the calendar"
    )
    scheduled_for = models.DateTimeField(null=True, blank=True)
    establishment = models.ForeignKey(
        "registry.Establishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="inspections",
    )
    property = models.ForeignKey(
        "registry.Property",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="inspections",
    )
    on_easement = models.BooleanField(
        default=False, help_text="works on a Town easement through private property (§ 196-21 B)"
    )
    location = models.CharField(max_length=200, blank=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="inspections"
    )
    scheduled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    notes = models.TextField(blank=True, help_text="purpose of the visit")
    state = models.CharField(
        max_length=12, choices=InspectionState.choices, default=InspectionState.SCHEDULED
    )
    credentials_presented = models.BooleanField(default=False)
    credential = models.CharField(
        max_length=120, blank=True, help_text="which credential or identification number"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    observations = models.TextField(blank=True)
    samples = models.ManyToManyField(
        "monitoring.SamplingEvent", blank=True, related_name="inspections"
    )
    samples_text = models.TextField(blank=True, help_text="samples taken, one per line")
    completed_at = models.DateTimeField(null=True, blank=True)
    #: The key of the form that completed it (a random key given with the form): the same form
    #: sent again — a tablet resending its draft when the connection returns — finds the
    #: inspection already completed with its key and writes nothing a second time.
    completion_key = models.CharField(max_length=64, blank=True, default="")
    cancel_reason = models.TextField(blank=True)

    ACCESS_PATHS = INSPECTION_PATHS
    TOWN_SOURCES = ("establishment", "property")
    #: What outside users may see of the records their paths reach: completed inspections
    #: only, so that no inspection is announced in advance (applied by
    #: :func:`sewer_office.inspections.services.visible_inspections`).
    OUTSIDE_FILTER = models.Q(state="completed")

    class Meta:
        ordering = ("-scheduled_for", "-id")
        indexes = (
            models.Index(fields=["state", "scheduled_for"], name="inspection_state_when"),
            models.Index(fields=["establishment", "state"], name="inspection_facility_state"),
            models.Index(
                fields=["jurisdiction", "state", "scheduled_for"], name="inspection_town_state"
            ),
        )
        constraints = (
            models.UniqueConstraint(
                fields=["completion_key"],
                condition=~models.Q(completion_key=""),
                name="inspection_completion_key_unique",
            ),
        )

    def __str__(self) -> str:
        return f"{self.number} {self.get_kind_display()} — {self.subject}"

    @builtins.property
    def number(self) -> str:
        return f"INSP-{self.pk}"

    @builtins.property
    def subject(self) -> str:
        """The facility, property or easement location inspected, for lists and the report."""
        parts = []
        est, prop = self.establishment, self.property
        if est is not None:
            parts.append(est.name)
        if prop is not None:
            parts.append(prop.address)
        elif est is not None:
            parts.append(est.building.property.address)
        if self.location:
            parts.append(self.location)
        return ", ".join(parts)

    @builtins.property
    def entry_citation(self) -> str:
        """The subsection under which the inspector enters: easements B, otherwise A."""
        return "§ 196-21 B" if self.on_easement else "§ 196-21 A"

    @builtins.property
    def overdue(self) -> bool:
        return (
            self.state == InspectionState.SCHEDULED
            and self.scheduled_for is not None
            and self.scheduled_for < timezone.now()
        )

    def get_absolute_url(self) -> str:
        return link("inspections:detail", args=[self.pk])

    def photos(self) -> models.QuerySet[Attachment]:
        """The photos the inspector took (the inspection's attachments): the detail page, the
        API and the printed report show them."""
        return Attachment.objects.filter(
            content_type=ContentType.objects.get_for_model(self), object_id=str(self.pk)
        )


class InspectionAnswer(models.Model):
    """The answer to one checklist item, with the question and citation as asked."""

    inspection = models.ForeignKey(Inspection, on_delete=models.PROTECT, related_name="answers")
    position = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=60)
    question = models.TextField()
    citation = models.CharField(max_length=80)
    result = models.CharField(max_length=4, choices=Answer.choices)
    note = models.TextField(blank=True)

    ACCESS_PATHS = tuple(f"inspection__{p}" for p in INSPECTION_PATHS)

    class Meta:
        ordering = ("inspection", "position")
        constraints = (
            models.UniqueConstraint(fields=["inspection", "key"], name="inspection_answer_once"),
        )

    def __str__(self) -> str:
        return f"{self.key}: {self.result}"


class InspectionAddendum(models.Model):
    """A note appended to a completed inspection (the inspection itself is never edited)."""

    inspection = models.ForeignKey(Inspection, on_delete=models.PROTECT, related_name="addenda")
    text = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = tuple(f"inspection__{p}" for p in INSPECTION_PATHS)

    class Meta:
        ordering = ("inspection", "at", "id")
        verbose_name_plural = "inspection addenda"

    def __str__(self) -> str:
        return f"Addendum to INSP-{self.inspection_id} ({local(self.at, DAY)})"


class AgencyInspector(WrittenOnce):
    """An inspector of EPA, DEC or the County Health Department taking part (§ 196-21 A).

    § 196-21 A admits "duly authorized employees of the Town and/or" those agencies "bearing
    proper credentials and identification"; § 196-21 B (easements) admits the Town's staff
    only, so an easement inspection records none. Written once, never edited.
    """

    inspection = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, related_name="agency_inspectors"
    )
    agency = models.CharField(max_length=20, choices=Agency.choices)
    name = models.CharField(max_length=120)
    credential = models.CharField(
        max_length=120, help_text="the credential and identification shown (kind and number)"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = tuple(f"inspection__{p}" for p in INSPECTION_PATHS)

    class Meta:
        ordering = ("inspection", "recorded_at", "id")

    def __str__(self) -> str:
        return f"{self.name} ({self.get_agency_display()})"


class EntryRefusal(WrittenOnce):
    """A refusal to admit an inspector bearing credentials (a violation of § 196-21 A or B).

    What a court will ask: who refused (name and capacity), when, what was asked (entry to
    which part, for inspection, sampling or measurement), and which credentials were shown.
    Written once, never edited; the finding it makes is what a violation is opened from.
    """

    inspection = models.ForeignKey(Inspection, on_delete=models.PROTECT, related_name="refusals")
    refused_by = models.CharField(max_length=160, help_text="name and capacity of who refused")
    refused_at = models.DateTimeField()
    asked = models.TextField(help_text="what the inspector asked to enter or do, and why")
    credentials_shown = models.TextField(help_text="the credentials and identification shown")
    citation = models.CharField(max_length=20, help_text="§ 196-21 A, or B on an easement")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = tuple(f"inspection__{p}" for p in INSPECTION_PATHS)

    class Meta:
        ordering = ("inspection", "refused_at", "id")

    def __str__(self) -> str:
        return f"Entry refused by {self.refused_by} ({local(self.refused_at, DAY)})"
