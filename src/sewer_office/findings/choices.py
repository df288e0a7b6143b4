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
    #: The Control Authority's own oversight of an SIU (40 CFR 403.8(f)(2)(v)): not a
    #: violation by the user, a duty of the Town left undone.
    SIU_NOT_INSPECTED = "siu_not_inspected", "SIU not inspected in its program year"
    SIU_NOT_SAMPLED = "siu_not_sampled", "SIU not sampled by the Town in its program year"
    #: A user's own sampling showed a violation and no repeat sample was reported within
    #: 30 days (40 CFR 403.12(g)(2)).
    NO_REPEAT_SAMPLE = "no_repeat_sample", "No repeat sample within 30 days"
    BASELINE_INCOMPLETE = "baseline_incomplete", "Baseline report incomplete"
    #: A response of the adopted enforcement response plan not taken within its time frame
    #: (40 CFR 403.8(f)(5)).
    RESPONSE_LATE = "response_late", "Enforcement response late"


class ReviewState(models.TextChoices):
    NONE = "none", "Nothing to review"
    NEW = "new", "New"
    ACKNOWLEDGED = "acknowledged", "Acknowledged"
    CLOSED = "closed", "Closed"
