"""A user's notices of hazardous waste discharged to the sewer (40 CFR 403.12(p)), read by the
rule of :mod:`sewer_rules.federal.cfr403_hazardous`."""

from __future__ import annotations

import builtins
from datetime import date
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import WrittenOnce
from sewer_office.findings.models import FACILITY_PATHS
from sewer_office.pretreatment.choices import DischargeType, NotificationChannel
from sewer_rules.federal import cfr403_hazardous as hazardous


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
