"""The federal pretreatment program's records: SIU designations, required reports and their
due dates, significant-noncompliance determinations.

Records of legal weight are never edited. A :class:`Designation` or an
:class:`SNCDetermination` is replaced by a newer one that ``supersedes`` it (the old one stays,
with its reason); a :class:`ReportDue` receives its received date once, then nothing; a
:class:`ReportRequirement` receives its end date once. Their ``save`` refuses anything else.
"""

from __future__ import annotations

import builtins
from datetime import date
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.links import link
from sewer_office.core.models import ImmutableRecord, WrittenOnce
from sewer_office.findings.models import FACILITY_PATHS
from sewer_rules.federal import cfr403_hazardous as hazardous

from .choices import (
    BASIS_CITATIONS,
    REPORT_CITATIONS,
    ChecklistSource,
    DesignationBasis,
    DesignationStatus,
    DischargeType,
    NotificationChannel,
    ReportKind,
)


def _fill_once(obj: models.Model, allowed: frozenset[str], what: str) -> None:
    """Refuse an update of a stored row unless it only fills ``allowed`` fields still empty."""
    stored = type(obj)._default_manager.filter(pk=obj.pk).values().first()
    if stored is None:
        return
    for f in obj._meta.concrete_fields:
        old, new = stored[f.attname], getattr(obj, f.attname)
        if old == new or (f.attname in allowed and old in (None, "")):
            continue
        raise ImmutableRecord(f"{what} is never edited ({f.name} cannot change)")


class _Superseded(models.Model):
    """Written once; replaced by a newer record that supersedes it, never edited or deleted."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ImmutableRecord(
                f"a {self._meta.verbose_name} is never edited: record a new one that supersedes it"
            )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord(f"a {self._meta.verbose_name} is never deleted")

    @builtins.property
    def current(self) -> bool:
        return not hasattr(self, "superseded_by")


class Designation(_Superseded):
    """Whether an industrial user is a significant industrial user (40 CFR 403.3(v)), and why."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="siu_designations"
    )
    status = models.CharField(max_length=10, choices=DesignationStatus.choices)
    basis = models.CharField(max_length=16, choices=DesignationBasis.choices)
    citation = models.CharField(max_length=60)
    #: The 403.3(v)(1) evaluation it rests on: criteria met or not, with their texts.
    evaluation = models.JSONField(default=dict)
    categorical_category = models.CharField(max_length=80, blank=True)
    flow_gpd = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    flow_source = models.CharField(max_length=120, blank=True)
    reason = models.TextField(blank=True, help_text="the Control Authority's reason or finding")
    decided_on = models.DateField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("-decided_on", "-id")

    def __str__(self) -> str:
        return f"{self.establishment.name}: {self.get_status_display()} ({self.decided_on})"

    @builtins.property
    def basis_citation(self) -> str:
        return BASIS_CITATIONS.get(self.basis, "")


class ReportRequirement(models.Model):
    """A report an SIU must send: its kind, how often, and the first due date."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="report_requirements"
    )
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    #: Months between due dates (6 for twice a year); 0 for a report due once.
    every_months = models.PositiveSmallIntegerField(default=6)
    first_due = models.DateField()
    ends_on = models.DateField(null=True, blank=True, help_text="no due date after this day")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("establishment", "kind", "first_due")

    def __str__(self) -> str:
        every = f"every {self.every_months} months" if self.every_months else "once"
        return f"{self.get_kind_display()} ({every}, from {self.first_due})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            _fill_once(self, frozenset({"ends_on"}), "A report requirement")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("a report requirement is never deleted: end it")

    @builtins.property
    def citation(self) -> str:
        return REPORT_CITATIONS.get(self.kind, "")


class ReportDue(models.Model):
    """One due date of a required report, and the day the report was received."""

    requirement = models.ForeignKey(
        ReportRequirement, on_delete=models.PROTECT, related_name="dues"
    )
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="report_dues"
    )
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    due_on = models.DateField()
    received_on = models.DateField(null=True, blank=True)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    received_note = models.CharField(max_length=200, blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("due_on", "id")
        constraints = (
            models.UniqueConstraint(fields=["requirement", "due_on"], name="report_due_once"),
        )
        indexes = (models.Index(fields=["establishment", "due_on"], name="report_due_facility"),)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} due {self.due_on}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            _fill_once(
                self,
                frozenset({"received_on", "received_by_id", "received_note"}),
                "A report's due date",
            )
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("a report's due date is never deleted")

    @builtins.property
    def citation(self) -> str:
        return REPORT_CITATIONS.get(self.kind, "")


class SNCDetermination(_Superseded):
    """Significant noncompliance of one facility over one period (40 CFR 403.8(f)(2)(viii)).

    ``determinations`` and ``reports`` are the rules' own output for the facility (each limit
    series with the measurements it counted; each report with its days late), so the record
    shows what was counted however the stored results change later. A re-computation for the
    same facility and period supersedes it.
    """

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="snc_determinations"
    )
    period_start = models.DateField()
    period_end = models.DateField()
    rolling = models.BooleanField(default=False)
    snc = models.BooleanField()
    criteria = models.JSONField(default=list)
    citations = models.JSONField(default=list)
    determinations = models.JSONField(default=list)
    reports = models.JSONField(default=list)
    staff_criteria = models.JSONField(
        default=list, help_text="criteria (C)–(E), (G), (H) recorded by staff or other apps"
    )
    measurements = models.PositiveIntegerField(default=0)
    parameters_version = models.CharField(max_length=80, blank=True)
    violation = models.ForeignKey(
        "enforcement.Violation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="snc_determinations",
    )
    computed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    computed_at = models.DateTimeField(default=timezone.now)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("-period_end", "establishment__name", "-id")
        indexes = (
            models.Index(fields=["period_end", "snc"], name="snc_period_snc"),
            models.Index(fields=["establishment", "period_start"], name="snc_facility_period"),
        )

    def __str__(self) -> str:
        verdict = "SNC " + ", ".join(self.criteria) if self.snc else "not in SNC"
        return f"{self.establishment.name} {self.period_label}: {verdict}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            # written once; the violation it opened is linked once, right after
            _fill_once(self, frozenset({"violation_id"}), "A determination of SNC")
            models.Model.save(self, *args, **kwargs)
            return
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return link("pretreatment:snc-detail", args=[self.pk])

    @builtins.property
    def period_label(self) -> str:
        window = " (rolling)" if self.rolling else ""
        return f"{self.period_start}..{self.period_end}{window}"


class BaselineChecklist(WrittenOnce):
    """What a received baseline monitoring report gives of each element of 40 CFR 403.12(b):
    given, explained or missing (``entries``: code → answer, text, file, title, citation).

    Written once, when the report is recorded received: by the office from a paper report, or
    from the data of a signed report when the office accepts it. ``missing`` lists the codes
    neither given nor explained; a report with any is incomplete (a BASELINE_INCOMPLETE
    finding, recorded in the same transaction)."""

    due = models.OneToOneField(
        ReportDue, on_delete=models.PROTECT, related_name="baseline_checklist"
    )
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="baseline_checklists"
    )
    source = models.CharField(max_length=10, choices=ChecklistSource.choices)
    rule = models.CharField(max_length=200, help_text="the version of 40 CFR 403.12(b) applied")
    entries = models.JSONField(default=dict)
    missing = models.JSONField(default=list, help_text="codes of the elements missing")
    report_ref = models.CharField(max_length=40, blank=True, help_text="the signed report")
    scan = models.ForeignKey(
        "core.Attachment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the paper report as filed, when the office stored it",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("-recorded_at", "-id")

    def __str__(self) -> str:
        return f"Baseline checklist of {self.establishment.name}, due {self.due.due_on}"

    @builtins.property
    def complete(self) -> bool:
        return not self.missing

    @builtins.property
    def missing_text(self) -> str:
        """The elements missing, with their citations, as the checklist recorded them."""
        rows = [self.entries.get(code, {}) for code in self.missing]
        return "; ".join(f"{r.get('title', '')} ({r.get('citation', '')})" for r in rows)


class HazardousWasteNotification(WrittenOnce):
    """A user's written notice of a hazardous waste discharged to the sewer (40 CFR 403.12(p)):
    the waste, its EPA number, the type of discharge, above 100 kg a month its constituents and
    estimates, and the certification of a waste-reduction program ((p)(4)).

    Written once; a correction or a changed discharge is a new notice (403.12(j)), and the
    facility's page lists them all."""

    establishment = models.ForeignKey(
        "registry.Establishment",
        on_delete=models.PROTECT,
        related_name="hazardous_waste_notifications",
    )
    waste_name = models.CharField(max_length=200, help_text="as 40 CFR 261 names it")
    waste_number = models.CharField(max_length=4, help_text="EPA hazardous waste number")
    discharge_type = models.CharField(max_length=12, choices=DischargeType.choices)
    discharge_detail = models.CharField(max_length=200, blank=True)
    monthly_kg = models.DecimalField(
        max_digits=12, decimal_places=3, help_text="mass of the waste discharged a month, kg"
    )
    acute = models.BooleanField(default=False, help_text="an acute hazardous waste")
    constituents = models.TextField(blank=True)
    month_estimate = models.TextField(blank=True)
    year_estimate = models.TextField(blank=True)
    not_known = models.TextField(blank=True, help_text="what is not known or readily available")
    minimization_certified = models.BooleanField()
    discharge_began_on = models.DateField(null=True, blank=True)
    notified_on = models.DateField(help_text="the day of the written notice")
    epa_notified_on = models.DateField(null=True, blank=True)
    state_notified_on = models.DateField(null=True, blank=True)
    channel = models.CharField(max_length=10, choices=NotificationChannel.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = FACILITY_PATHS

    class Meta:
        ordering = ("-notified_on", "-id")
        indexes = (models.Index(fields=["notified_on"], name="hazwaste_notified_on"),)

    def __str__(self) -> str:
        return f"{self.waste_number} {self.waste_name} at {self.establishment.name}"

    def notice(self) -> hazardous.Notice:
        """What the notice states, as the rule reads it."""
        return hazardous.Notice(
            waste_name=self.waste_name,
            waste_number=self.waste_number,
            discharge_type=self.discharge_type,
            discharge_detail=self.discharge_detail,
            monthly_kg=self.monthly_kg,
            constituents=self.constituents,
            month_estimate=self.month_estimate,
            year_estimate=self.year_estimate,
            not_known=self.not_known,
            minimization_certified=self.minimization_certified,
        )

    @builtins.property
    def monthly_kg_text(self) -> str:
        """The mass as written, without trailing zeros (120, not 120.000)."""
        return format(self.monthly_kg.normalize(), "f")

    @builtins.property
    def above_detail_mass(self) -> bool:
        """More than 100 kg a month: the constituents and estimates are part of it."""
        return hazardous.needs_detail(self.notice(), self.notified_on)

    @builtins.property
    def exempt(self) -> bool:
        """A month of no more than 15 kg of a waste not acute: no notice was needed."""
        return hazardous.exempt(self.notice(), self.notified_on)

    @builtins.property
    def due_by(self) -> date | None:
        began = self.discharge_began_on
        return hazardous.due_by(began) if began is not None else None

    @builtins.property
    def late(self) -> bool:
        due_by = self.due_by
        return due_by is not None and self.notified_on > due_by


__all__ = [
    "BaselineChecklist",
    "Designation",
    "HazardousWasteNotification",
    "ReportDue",
    "ReportRequirement",
    "SNCDetermination",
]
