"""The fixed vocabularies of the federal pretreatment program, each with its citation."""

from __future__ import annotations

from django.db import models


class DesignationStatus(models.TextChoices):
    SIU = "siu", "Significant industrial user"
    NOT_SIU = "not_siu", "Not a significant industrial user"


class DesignationBasis(models.TextChoices):
    """How a designation was reached (40 CFR 403.3(v))."""

    EVALUATED = "evaluated", "Evaluated on 403.3(v)(1) (categorical, flow, capacity)"
    DESIGNATED = "designated", "Designated by the Control Authority (403.3(v)(1)(ii))"
    DE_DESIGNATED = "de_designated", "Found not significant (403.3(v)(2))"


BASIS_CITATIONS: dict[str, str] = {
    DesignationBasis.EVALUATED: "40 CFR 403.3(v)(1)",
    DesignationBasis.DESIGNATED: "40 CFR 403.3(v)(1)(ii)",
    DesignationBasis.DE_DESIGNATED: "40 CFR 403.3(v)(2)",
}


class ReportKind(models.TextChoices):
    """Required reports of an industrial user (40 CFR 403.12)."""

    BASELINE = "baseline", "Baseline monitoring report"
    NINETY_DAY = "ninety_day", "90-day compliance report"
    PERIODIC = "periodic", "Periodic compliance report (categorical)"
    PERIODIC_NONCATEGORICAL = "periodic_noncat", "Periodic compliance report (non-categorical SIU)"


REPORT_CITATIONS: dict[str, str] = {
    ReportKind.BASELINE: "40 CFR 403.12(b)",
    ReportKind.NINETY_DAY: "40 CFR 403.12(d)",
    ReportKind.PERIODIC: "40 CFR 403.12(e)",
    ReportKind.PERIODIC_NONCATEGORICAL: "40 CFR 403.12(h)",
}


class ChecklistSource(models.TextChoices):
    """How a baseline report reached the office (40 CFR 403.12(b))."""

    PAPER = "paper", "Paper report, checked by the office"
    SIGNED = "signed", "Signed electronic report"


class BaselineAnswer(models.TextChoices):
    """How a report answers one element of 40 CFR 403.12(b) (sewer_rules' ``Answer``)."""

    GIVEN = "given", "Given"
    EXPLAINED = "explained", "Explained: does not apply, or why not given"
    MISSING = "missing", "Neither given nor explained"


class DischargeType(models.TextChoices):
    """The type of discharge of a hazardous waste (40 CFR 403.12(p)(1))."""

    CONTINUOUS = "continuous", "Continuous"
    BATCH = "batch", "Batch"
    OTHER = "other", "Other"


class NotificationChannel(models.TextChoices):
    """How a hazardous-waste notification reached the office."""

    PAPER = "paper", "Received in writing, recorded by the office"
    PORTAL = "portal", "Sent by the facility through the office's site"
