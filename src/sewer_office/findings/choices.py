"""Choices of the findings ledger: what a finding is about and where its review stands."""

from __future__ import annotations

from django.db import models


class FindingKind(models.TextChoices):
    LAB_RESULT = "lab_result", "Laboratory result"
    ADVISORY = "advisory", "Advisory on a result"
    MONTHLY_AVERAGE = "monthly_average", "Monthly average"
    SLUG = "slug", "Slug discharge"
    EXCURSION = "excursion", "Excursion"
    UNREPORTED_SLUG = "unreported_slug", "Slug not reported"
    PUMP_OUT_OVERDUE = "pump_out_overdue", "Grease trap cleaning overdue"
    INSPECTION = "inspection", "Inspection"
    APPROVAL_EXPIRED = "approval_expired", "Industrial approval expired"
    MILESTONE_MISSED = "milestone_missed", "Compliance-schedule milestone missed"
    REPORT_LATE = "report_late", "Required report not received"
    SNC = "snc", "Significant noncompliance"


class ReviewState(models.TextChoices):
    NONE = "none", "Nothing to review"
    NEW = "new", "New"
    ACKNOWLEDGED = "acknowledged", "Acknowledged"
    CLOSED = "closed", "Closed"
