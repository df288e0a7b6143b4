"""Sampling points, discharge limits, sampling events and laboratory results.

What the rules conclude about a result is a finding, stored in the findings ledger
(:mod:`sewer_office.findings.models`) like every other app's findings.

Laboratory results are immutable once approved: a correction is a new :class:`LabResult`
that ``supersedes`` the old one, with a reason, and is evaluated again; the old result and
its findings stay, marked superseded (``current`` false).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import ImmutableRecord, TimeStamped
from sewer_office.core.moments import DAY, local
from sewer_office.findings.models import FACILITY_PATHS

from .choices import ImportSource, LimitType, ResultState, Sampler, SamplingBasis


class SamplingPoint(TimeStamped):
    """Where a facility's discharge is sampled and metered (§ 196-19 H, I)."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="sampling_points"
    )
    code = models.CharField(max_length=40, help_text="as laboratory files name it, e.g. CM-1")
    manhole = models.CharField(max_length=60, blank=True, help_text="network manhole id")
    basis = models.CharField(max_length=24, choices=SamplingBasis.choices)
    description = models.TextField(blank=True)
    active = models.BooleanField(default=True)
    #: How often the office samples here (an approval's condition or the Superintendent's
    #: programme; the article sets no frequency). Blank: no sampling programme.
    sampling_interval_days = models.PositiveIntegerField(null=True, blank=True)

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        ordering = ("establishment", "code")
        constraints = (
            models.UniqueConstraint(
                fields=["establishment", "code"], name="sampling_point_code_per_facility"
            ),
        )

    def __str__(self) -> str:
        return f"{self.establishment.code or self.establishment.name} {self.code}"


class DischargeLimit(TimeStamped):
    """A numeric limit of a facility's discharge approval (§ 196-16 E conditions)."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="discharge_limits"
    )
    approval = models.ForeignKey(
        "permits.IndustrialDischargeApproval",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="limits",
    )
    parameter = models.CharField(max_length=60, help_text="analyte, e.g. copper")
    limit_type = models.CharField(max_length=24, choices=LimitType.choices)
    value = models.CharField(max_length=40, help_text="exact decimal, as written in the approval")
    unit = models.CharField(max_length=20)
    effective_from = models.DateField()
    effective_to = models.DateField(null=True, blank=True)
    citation = models.CharField(max_length=40, default="§ 196-16 E")

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        ordering = ("establishment", "parameter", "limit_type", "effective_from")

    def __str__(self) -> str:
        return f"{self.parameter} {self.get_limit_type_display().lower()} {self.value} {self.unit}"

    @property
    def permit_id(self) -> str:
        return self.approval.number if self.approval is not None else f"LIMIT-{self.pk}"

    def as_record(self) -> dict[str, str]:
        """The limit as a row of a permit-limits file, the form the engine reads."""
        return {
            "facility": self.establishment.code,
            "parameter": self.parameter,
            "limit_type": self.limit_type,
            "value": self.value,
            "unit": self.unit,
            "effective_from": self.effective_from.isoformat(),
            "effective_to": self.effective_to.isoformat() if self.effective_to else "",
            "permit_id": self.permit_id if self.pk else "new",
            "citation": self.citation,
        }


class LabImport(models.Model):
    """One stored laboratory file (or one manual entry): refused if its bytes come again."""

    sha256 = models.CharField(max_length=64, unique=True)
    source = models.CharField(max_length=20, choices=ImportSource.choices)
    source_name = models.CharField(max_length=300, blank=True)
    imported_at = models.DateTimeField(default=timezone.now)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: The towns whose values judged it ("demo"; "demo, wappinger" for a file of two towns'
    #: facilities) and their parameters versions, in the same order: each finding keeps its own.
    #: Text without a bound: the plant's laboratory sends one file for every member town.
    jurisdiction = models.TextField()
    parameters_version = models.TextField()
    result_count = models.PositiveIntegerField(default=0)
    finding_count = models.PositiveIntegerField(default=0)
    #: The one facility an outside user's self-monitoring upload was limited to.
    establishment = models.ForeignKey(
        "registry.Establishment", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: The laboratory mapping the file was read through, as it stood then (its dictionary,
    #: ``sewer_io.lab_mapping.LabMapping.to_dict``); empty for the project's own layout.
    mapping = models.JSONField(default=dict, blank=True)

    #: Outside users see their own self-monitoring uploads; the office's imports are staff's.
    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        ordering = ("-imported_at", "-id")

    def __str__(self) -> str:
        return f"{self.get_source_display()} {self.source_name} ({local(self.imported_at, DAY)})"


class SamplingEvent(TimeStamped):
    """One sample: where, when, how (grab or composite, § 196-19 I), and its chain of custody."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="sampling_events"
    )
    sampling_point = models.ForeignKey(
        SamplingPoint, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    sample_id = models.CharField(max_length=80)
    sample_type = models.CharField(max_length=20)
    collected_at = models.DateTimeField()
    collected_by = models.CharField(max_length=120, blank=True)
    #: Who took the sample: the Control Authority (the Town's own compliance sampling, 40 CFR
    #: 403.8(f)(2)(v)) or the industrial user (self-monitoring, 403.12(e), (g), (h)).
    sampler = models.CharField(max_length=20, choices=Sampler.choices, default=Sampler.UNKNOWN)
    relinquished_at = models.DateTimeField(null=True, blank=True)
    relinquished_by = models.CharField(max_length=120, blank=True)
    received_at = models.DateTimeField(null=True, blank=True, help_text="received by the lab")
    received_by = models.CharField(max_length=120, blank=True)
    laboratory = models.CharField(max_length=120, blank=True)
    lab_import = models.ForeignKey(
        LabImport, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        ordering = ("-collected_at", "-id")
        indexes = (
            models.Index(fields=["establishment", "collected_at"], name="event_facility_time"),
        )
        constraints = (
            # A laboratory's later file attaches its results to the sample recorded when it
            # was taken: one sample per facility and sample id.
            models.UniqueConstraint(
                fields=["establishment", "sample_id"], name="sample_id_per_facility"
            ),
        )

    def __str__(self) -> str:
        return f"{self.sample_id} ({local(self.collected_at)})"


class LabResult(models.Model):
    """One reported value of one parameter of one sample, as the laboratory wrote it."""

    event = models.ForeignKey(SamplingEvent, on_delete=models.PROTECT, related_name="results")
    #: The sample's facility and import, copied from ``event`` for fast lists and pages. The
    #: database checks the link to the sample (``event``); these copies are written by the
    #: import from the same rows, so they carry no second foreign-key check — on PostgreSQL
    #: each check is a lookup at commit, seconds on a million-row import. Indexed by the
    #: composite indexes below (facility first), not on its own.
    establishment = models.ForeignKey(
        "registry.Establishment",
        on_delete=models.PROTECT,
        related_name="lab_results",
        db_index=False,
        db_constraint=False,
    )
    lab_import = models.ForeignKey(
        LabImport,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="results",
        db_constraint=False,
    )
    row = models.PositiveIntegerField(null=True, blank=True, help_text="line in the file")
    sampled_at = models.DateTimeField()
    parameter = models.CharField(max_length=60, help_text="analyte (canonical name)")
    value_text = models.CharField(max_length=40)
    unit = models.CharField(max_length=20)
    qualifier = models.CharField(max_length=10, blank=True)
    reporting_limit = models.CharField(max_length=40, blank=True)
    method = models.CharField(max_length=80, blank=True)
    analyzed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=20, help_text="the most severe finding's status")
    state = models.CharField(
        max_length=12, choices=ResultState.choices, default=ResultState.REPORTED
    )
    #: The result this one corrects. Each result is corrected at most once (a partial unique
    #: constraint below: the million results that correct nothing stay out of its index).
    supersedes = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="corrections",
        db_index=False,
    )
    correction_reason = models.TextField(blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = FACILITY_PATHS
    #: Fields that never change once written (the state and approval are recorded by services).
    FROZEN = (
        "event_id",
        "establishment_id",
        "sampled_at",
        "parameter",
        "value_text",
        "unit",
        "qualifier",
        "reporting_limit",
        "method",
        "analyzed_at",
    )

    class Meta:
        ordering = ("-sampled_at", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["supersedes"],
                condition=models.Q(supersedes__isnull=False),
                name="result_corrected_once",
            ),
        )
        indexes = (
            models.Index(fields=["establishment", "sampled_at"], name="result_facility_time"),
            models.Index(
                fields=["establishment", "parameter", "sampled_at"], name="result_facility_param"
            ),
        )

    def __str__(self) -> str:
        return f"{self.parameter} {self.value_text} {self.unit}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            stored = type(self).objects.filter(pk=self.pk).values(*self.FROZEN).first()
            if stored and any(stored[f] != getattr(self, f) for f in self.FROZEN):
                raise ImmutableRecord(
                    "a laboratory result is never edited: record a correction that supersedes it"
                )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("laboratory results are never deleted")

    @property
    def superseded_by(self) -> LabResult | None:
        """The correction that replaced this result, if any."""
        return self.corrections.first()


class LabMapping(TimeStamped):
    """How one laboratory's own file (its EDD) is read as the project's layout: the
    dictionary of ``sewer_io.lab_mapping.LabMapping`` (columns, date format, time zone,
    analytes, qualifier codes, constants), named for the import page and ``--mapping``."""

    name = models.CharField(max_length=80, unique=True)
    laboratory = models.CharField(max_length=120, blank=True)
    mapping = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return f"{self.name} ({self.laboratory})" if self.laboratory else self.name
