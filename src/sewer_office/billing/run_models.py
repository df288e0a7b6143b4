"""Billing runs: every facility's surcharge of a period, computed as :class:`RunLine` rows the
clerk reviews before issue (:mod:`.runs`). Apart from :mod:`.models` (the books: charges,
invoices, payments) because a run is the computation that feeds them, not money owed.

A run spans the member towns of its facilities: each line is its facility's town's, and the
run is seen whole by an account acting for every town of its lines (:func:`.runs.seen_by`).
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from sewer_office.core.models import TimeStamped

from .choices import FlowSource, RunLineStatus, RunState


class BillingRun(TimeStamped):
    """Every facility's surcharge for one billing period, reviewed before issue.

    All-or-nothing and idempotent: one run per period that is not discarded (the database
    refuses a second); a correction after issue is a credit note plus a new invoice.
    """

    period = models.CharField(max_length=10, help_text="e.g. 2026-Q1")
    start = models.DateField()
    end = models.DateField(help_text="last day of the period (inclusive)")
    state = models.CharField(max_length=20, choices=RunState.choices, default=RunState.DRAFT)
    jurisdiction = models.CharField(max_length=40)
    total = models.DecimalField(
        max_digits=14, decimal_places=2, default=0, help_text="sum of the charged lines"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(null=True, blank=True)
    discard_reason = models.TextField(blank=True)

    #: A run spans the member towns of its lines (``jurisdiction`` above names the version of
    #: their values, not a town): a staff member sees a run whose every line is of a town they
    #: act for (:func:`.runs.seen_by`), never through these paths alone.
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ()

    class Meta:
        ordering = ("-start", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["period"],
                condition=~Q(state="discarded"),
                name="billing_one_run_per_period",
            ),
        )

    def __str__(self) -> str:
        return f"Billing run {self.period}"


class RunLine(models.Model):
    """One facility's surcharge in a run: the amount, or why none can be stated."""

    run = models.ForeignKey(BillingRun, on_delete=models.CASCADE, related_name="lines")
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="+"
    )
    person = models.ForeignKey("registry.Person", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=20, choices=RunLineStatus.choices)
    flow_source = models.CharField(max_length=20, choices=FlowSource.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    message = models.TextField(blank=True, help_text="why there is no amount, in words")
    computation = models.JSONField(default=dict, help_text="steps, parameters and inputs")

    #: A line is its facility's town's, as every record of a facility.
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = ("establishment__jurisdiction",)

    class Meta:
        ordering = ("run", "establishment__name", "id")
        constraints = (
            models.UniqueConstraint(fields=["run", "establishment"], name="billing_line_once"),
        )

    def __str__(self) -> str:
        return f"{self.run.period} {self.establishment}: {self.get_status_display()}"
