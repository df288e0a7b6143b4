"""The Control Authority's determinations about an industrial user: whether it is a significant
industrial user (40 CFR 403.3(v)) and whether it was in significant noncompliance over a period
(40 CFR 403.8(f)(2)(viii)). Each is replaced by a newer one that supersedes it, never edited."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.links import link
from sewer_office.findings.models import FACILITY_PATHS
from sewer_office.pretreatment.choices import BASIS_CITATIONS, DesignationBasis, DesignationStatus
from sewer_office.pretreatment.models.immutability import Superseded, fill_once


class Designation(Superseded):
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


class SNCDetermination(Superseded):
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
            fill_once(self, frozenset({"violation_id"}), "A determination of SNC")
            models.Model.save(self, *args, **kwargs)
            return
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return link("pretreatment:snc-detail", args=[self.pk])

    @builtins.property
    def period_label(self) -> str:
        window = " (rolling)" if self.rolling else ""
        return f"{self.period_start}..{self.period_end}{window}"
