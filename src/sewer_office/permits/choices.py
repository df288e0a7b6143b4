"""Choices of the permits and approvals, each tied to the words of the article."""

from __future__ import annotations

from django.db import models


class SystemType(models.TextChoices):
    SEPTIC = "septic", "Septic tank and absorption field"
    SEPTIC_RAISED = "septic_raised", "Septic tank and raised bed / fill system"
    CESSPOOL = "cesspool", "Cesspool (existing)"
    OTHER = "other", "Other approved system"


class PermitClass(models.IntegerChoices):
    """§ 196-18 B: "two classes of building sewer permits"."""

    RESIDENTIAL_COMMERCIAL = 1, "Class 1 — residential and commercial service"
    INDUSTRIAL = 2, "Class 2 — establishments producing industrial wastes"


class ServiceUse(models.TextChoices):
    """What the application states the service is for (§ 196-18 B(1), B(2))."""

    RESIDENTIAL = "residential", "Residential"
    COMMERCIAL = "commercial", "Commercial (sanitary sewage only)"
    INDUSTRIAL = "industrial", "An establishment producing industrial wastes"


class DischargeKind(models.TextChoices):
    """§ 196-16 E: new discharges and alterations; § 196-16 F: cooling water."""

    NEW = "new", "New discharge of industrial waste"
    CHANGE_QUANTITY = "change_quantity", "Change in quantity"
    CHANGE_TEMPERATURE = "change_temperature", "Change in temperature"
    CHANGE_CHARACTER = "change_character", "Change in chemical characteristics"
    COOLING_WATER = "cooling_water", "Industrial cooling water"


class InterceptorKind(models.TextChoices):
    GREASE_TRAP = "grease_trap", "Grease trap (§ 196-19 F(2))"
    OIL_SAND = "oil_sand_interceptor", "Oil and sand interceptor (§ 196-19 F(1))"


class Provision(models.TextChoices):
    PUBLIC_SEWER = "public_sewer", "Public sewer (§ 196-23 A)"
    PRIVATE_SYSTEMS = (
        "private_systems",
        "Private systems until public sewer is available (§ 196-23 B)",
    )


class SampleType(models.TextChoices):
    """How a self-monitoring sample is taken (40 CFR 403.8(f)(1)(iii)(B)(4): "sample type")."""

    GRAB = "grab", "grab"
    COMPOSITE = "composite", "24-hour composite"


class MonitoringFrequency(models.TextChoices):
    """How often a self-monitoring sample is taken (40 CFR 403.8(f)(1)(iii)(B)(4))."""

    DAILY = "daily", "Daily"
    WEEKLY = "weekly", "Weekly"
    MONTHLY = "monthly", "Monthly"
    QUARTERLY = "quarterly", "Quarterly"
    SEMIANNUAL = "semiannual", "Twice a year"
    ANNUAL = "annual", "Once a year"


#: Sampling events a frequency requires in a year (daily is every day of the year, not a
#: five-day working week).
EVENTS_PER_YEAR: dict[str, int] = {
    MonitoringFrequency.DAILY: 365,
    MonitoringFrequency.WEEKLY: 52,
    MonitoringFrequency.MONTHLY: 12,
    MonitoringFrequency.QUARTERLY: 4,
    MonitoringFrequency.SEMIANNUAL: 2,
    MonitoringFrequency.ANNUAL: 1,
}
