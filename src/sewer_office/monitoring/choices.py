"""Choices of sampling and results: how a sampling point was chosen, the kinds of limit, where
results came from and the state of a result."""

from __future__ import annotations

from django.db import models


class SamplingBasis(models.TextChoices):
    CONTROL_MANHOLE = "control_manhole", "Control manhole (§ 196-19 H)"
    NEAREST_DOWNSTREAM = (
        "nearest_downstream",
        "Nearest downstream manhole in the public sewer (§ 196-19 I)",
    )
    OTHER = "other", "Other (described)"


class LimitType(models.TextChoices):
    DAILY_MAXIMUM = "daily_maximum", "Daily maximum"
    MONTHLY_AVERAGE = "monthly_average", "Monthly average"
    INSTANTANEOUS_MINIMUM = "instantaneous_minimum", "Instantaneous minimum"
    INSTANTANEOUS_MAXIMUM = "instantaneous_maximum", "Instantaneous maximum"


class ImportSource(models.TextChoices):
    LAB_FILE = "lab_file", "Laboratory file"
    MANUAL = "manual", "Manual entry"
    SELF_MONITORING = "self_monitoring", "Self-monitoring upload"


class ResultState(models.TextChoices):
    REPORTED = "reported", "Reported"
    APPROVED = "approved", "Approved"
    SUPERSEDED = "superseded", "Superseded"


class Sampler(models.TextChoices):
    """Who took a sample: the Town's own compliance sampling counts toward 40 CFR
    403.8(f)(2)(v); the user's own is self-monitoring (403.12(e), (g), (h))."""

    CONTROL_AUTHORITY = "control_authority", "The Town (Control Authority)"
    INDUSTRIAL_USER = "industrial_user", "The industrial user (self-monitoring)"
    UNKNOWN = "unknown", "Not recorded"
