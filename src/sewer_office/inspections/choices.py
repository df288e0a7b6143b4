"""Choices of the inspections: the kinds of inspection, their states and a checklist item's answer."""

from __future__ import annotations

from django.db import models


class InspectionKind(models.TextChoices):
    INDUSTRIAL_USER = "industrial_user", "Industrial user"
    FOOD_SERVICE = "food_service", "Food service"
    BUILDING_SEWER = "building_sewer", "Building sewer"
    CONTROL_MANHOLE = "control_manhole", "Control manhole"
    PRIVATE_SYSTEM = "private_system", "Private wastewater disposal system"


class InspectionState(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"


class Answer(models.TextChoices):
    PASS = "pass", "Pass"
    FAIL = "fail", "Fail"
    NOT_APPLICABLE = "na", "Not applicable"


class Agency(models.TextChoices):
    """The agencies besides the Town whose inspectors § 196-21 A admits, bearing credentials."""

    EPA = "epa", "Environmental Protection Agency"
    DEC = "dec", "New York State Department of Environmental Conservation"
    COUNTY_HEALTH = "county_health", "Dutchess County Department of Health"
