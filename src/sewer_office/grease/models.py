"""Grease traps and interceptors of the establishments, their sizing checks and pump-outs.

§ 196-19 F(2) requires a grease trap of every food preparation service, processing operation
and restaurant, sized by the method the town applies and "readily and easily accessible for
cleaning and inspection"; § 196-19 F(1) lets the Superintendent require oil and sand
interceptors. The office keeps an inventory (:class:`GreaseInterceptor`), the sizing check
made when a new installation was registered (:class:`SizingCheck`, written once), and the
pump-outs haulers made (:class:`PumpOut`, never edited: a mistaken record is voided with a
reason and kept).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import ImmutableRecord, TimeStamped
from sewer_office.findings.models import FACILITY_PATHS

from .choices import InterceptorKind, SizingMethodUsed

#: The same persons reach an interceptor's sizing check and pump-outs through the interceptor.
INTERCEPTOR_PATHS = tuple(f"interceptor__{p}" for p in FACILITY_PATHS)


class GreaseInterceptor(TimeStamped):
    """One installed grease trap or interceptor of an establishment."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="grease_interceptors"
    )
    #: The Superintendent's (or clerk's) requirement this installation answers, if recorded.
    requirement = models.ForeignKey(
        "permits.InterceptorRequirement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="installations",
    )
    kind = models.CharField(max_length=20, choices=InterceptorKind.choices)
    capacity_gal = models.DecimalField(
        "capacity (gallons)", max_digits=9, decimal_places=1, null=True, blank=True
    )
    rated_gpm = models.DecimalField(
        "rated flow (gpm)", max_digits=7, decimal_places=1, null=True, blank=True
    )
    grease_capacity_lb = models.DecimalField(
        "grease capacity (lb)", max_digits=7, decimal_places=1, null=True, blank=True
    )
    make_model = models.CharField("make and model", max_length=120, blank=True)
    location = models.CharField(max_length=200)
    accessible = models.BooleanField(
        "readily and easily accessible for cleaning and inspection", default=False
    )
    access_note = models.TextField(blank=True)
    installed_on = models.DateField(null=True, blank=True)
    cleaning_interval_days = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="set by this establishment's approval; blank = the town's interval",
    )
    active = models.BooleanField(default=True)
    removed_on = models.DateField(null=True, blank=True)
    removal_reason = models.TextField(blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        ordering = ("establishment__name", "id")

    def __str__(self) -> str:
        return f"{self.get_kind_display().split(' (')[0]} #{self.pk}, {self.establishment.name}"

    @property
    def citation(self) -> str:
        return "§ 196-19 F(1)" if self.kind == InterceptorKind.OIL_SAND else "§ 196-19 F(2)"

    @property
    def capacity_text(self) -> str:
        parts = []
        if self.rated_gpm is not None:
            parts.append(f"{self.rated_gpm.normalize():f} gpm")
        if self.grease_capacity_lb is not None:
            parts.append(f"{self.grease_capacity_lb.normalize():f} lb grease")
        if self.capacity_gal is not None:
            parts.append(f"{self.capacity_gal.normalize():f} gal")
        return ", ".join(parts) or "not recorded"


class SizingCheck(models.Model):
    """The sizing computation made when an installation was registered: written once."""

    interceptor = models.OneToOneField(
        GreaseInterceptor, on_delete=models.PROTECT, related_name="sizing_check"
    )
    method = models.CharField(max_length=20, choices=SizingMethodUsed.choices)
    fixture_volume_in3 = models.DecimalField(max_digits=12, decimal_places=2, null=True)
    drain_minutes = models.PositiveSmallIntegerField(null=True)
    dfu = models.PositiveIntegerField("drainage fixture units", null=True)
    installed_value = models.CharField(max_length=40, blank=True)
    computed_size = models.CharField(max_length=40, help_text="e.g. 50 gpm, 1000 gal, none")
    passed = models.BooleanField(null=True, help_text="None: a reference, not a determination")
    determination = models.BooleanField(default=False, help_text="the method in force decides")
    citation = models.CharField(max_length=40)
    message = models.TextField()
    details = models.JSONField(default=dict)
    judged_on = models.DateField(help_text="the day whose method in force was applied")
    parameter = models.CharField(max_length=120)
    effective = models.DateField()
    parameters_version = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = INTERCEPTOR_PATHS

    def __str__(self) -> str:
        return f"sizing of {self.interceptor}: {self.computed_size}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ImmutableRecord("a sizing check is never changed once stored")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("sizing checks are never deleted")


class PumpOut(models.Model):
    """One pump-out (cleaning) of an interceptor by a hauler; voided, never edited."""

    interceptor = models.ForeignKey(
        GreaseInterceptor, on_delete=models.PROTECT, related_name="pump_outs"
    )
    pumped_on = models.DateField()
    hauler_name = models.CharField(max_length=120)
    hauler_permit = models.CharField("hauler permit / licence no.", max_length=60, blank=True)
    volume_gal = models.DecimalField("volume pumped (gal)", max_digits=9, decimal_places=1)
    grease_depth_in = models.DecimalField(
        "grease/solids depth (in)", max_digits=6, decimal_places=2, null=True, blank=True
    )
    grease_percent = models.DecimalField(
        "grease/solids (% of depth)", max_digits=5, decimal_places=1, null=True, blank=True
    )
    manifest_number = models.CharField(max_length=60, blank=True)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    voided = models.BooleanField(default=False)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_reason = models.TextField(blank=True)

    ACCESS_PATHS = INTERCEPTOR_PATHS
    #: Fields that never change once written (only the voiding is recorded later).
    FROZEN = (
        "interceptor_id",
        "pumped_on",
        "hauler_name",
        "hauler_permit",
        "volume_gal",
        "grease_depth_in",
        "grease_percent",
        "manifest_number",
        "notes",
        "recorded_by_id",
        "recorded_at",
    )

    class Meta:
        ordering = ("-pumped_on", "-id")
        indexes = (models.Index(fields=["interceptor", "pumped_on"], name="pumpout_trap_day"),)

    def __str__(self) -> str:
        return f"pump-out {self.pumped_on:%Y-%m-%d} of {self.interceptor}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            stored = type(self).objects.filter(pk=self.pk).values(*self.FROZEN).first()
            if stored and any(stored[f] != getattr(self, f) for f in self.FROZEN):
                raise ImmutableRecord("a pump-out is never edited: void it and record it again")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("pump-outs are never deleted: void them with a reason")
