"""The reports an SIU must send (40 CFR 403.12): what is required and how often, each due date
and the day its report was received, and what a received baseline monitoring report gives of
each element of 403.12(b). A due date receives its received date once, then nothing; a
requirement receives its end date once."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import ImmutableRecord, WrittenOnce
from sewer_office.findings.models import FACILITY_PATHS
from sewer_office.pretreatment.choices import REPORT_CITATIONS, ChecklistSource, ReportKind
from sewer_office.pretreatment.models.immutability import fill_once


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
            fill_once(self, frozenset({"ends_on"}), "A report requirement")
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
            fill_once(
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
