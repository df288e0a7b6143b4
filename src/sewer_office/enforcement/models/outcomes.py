"""What follows a notice: the correction the person reports and the office verifies or
rejects (§ 196-22 A, B), the Town's costs (§ 196-22 C), the referrals to the Town Attorney or
the police, the court's judgment on a referral for prosecution and what was collected on it
(§ 196-22 B). A :class:`Correction` receives its decision once; the others are written once
(their ``save`` refuses anything else, :class:`~sewer_office.core.models.WrittenOnce`)."""

from __future__ import annotations

import builtins
from datetime import date
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import ImmutableRecord, WrittenOnce
from sewer_office.enforcement.choices import (
    CollectedBy,
    CostCategory,
    ReferralKind,
)
from sewer_office.enforcement.models.violations import (
    VIOLATION_PATHS,
    Notice,
    Violation,
    only_filling,
)


class Correction(models.Model):
    """The person's report that the violation is corrected, and the Town's verification.

    Three days are kept: the report, the verification, and the day the violation ceased as the
    verification found it (``ceased_on``: the reported day when the verification bears it out,
    or another day found on inspection, never after the verification). The fine runs to the
    day it ceased (§ 196-22 B): the Town's delay in verifying is not the offender's violation.
    A verification recorded before ``ceased_on`` existed found no other day: it ceased on the
    reported day (:attr:`ceased_day`).
    """

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="corrections")
    notice = models.ForeignKey(
        Notice, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    reported_on = models.DateField()
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reported_at = models.DateTimeField(default=timezone.now)
    description = models.TextField()
    verified_on = models.DateField(null=True, blank=True)
    ceased_on = models.DateField(
        null=True,
        blank=True,
        help_text="the day the violation ceased, as the verification found it",
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rejected_on = models.DateField(null=True, blank=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    inspection = models.ForeignKey(
        "inspections.Inspection",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the follow-up inspection the verification rests on, if any",
    )
    decision_note = models.TextField(blank=True)
    returns_to = models.CharField(
        max_length=24, help_text="the violation's state before the report (if it is rejected)"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)
    DECISION_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {
            "verified_on",
            "ceased_on",
            "verified_by_id",
            "rejected_on",
            "rejected_by_id",
            "inspection_id",
            "decision_note",
        }
    )

    class Meta:
        ordering = ("reported_on", "id")

    def __str__(self) -> str:
        return f"Correction of VIOL-{self.violation_id} reported {self.reported_on}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            only_filling(self, self.DECISION_FIELDS, "A reported correction")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("corrections are never deleted")

    @builtins.property
    def pending(self) -> bool:
        return self.verified_on is None and self.rejected_on is None

    @builtins.property
    def ceased_day(self) -> date | None:
        """The day the violation ceased as verified (None until verified)."""
        if self.verified_on is None:
            return None
        return self.ceased_on or self.reported_on

    @builtins.property
    def gap_days(self) -> int | None:
        """Days between the report and the verification (shown on the violation page)."""
        return None if self.verified_on is None else (self.verified_on - self.reported_on).days


class Cost(WrittenOnce):
    """An item of the Town's expense, loss or damage, recorded for recovery (§ 196-22 C)."""

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="costs")
    category = models.CharField(max_length=20, choices=CostCategory.choices)
    description = models.CharField(max_length=200)
    hours = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    incurred_on = models.DateField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)

    class Meta:
        ordering = ("incurred_on", "id")

    def __str__(self) -> str:
        return f"{self.get_category_display()} {self.amount} ({self.incurred_on})"


class Referral(WrittenOnce):
    """A matter handed to the police (§ 196-20) or the Town Attorney (§ 196-22 B, D)."""

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="referrals")
    kind = models.CharField(max_length=20, choices=ReferralKind.choices)
    response = models.CharField(max_length=40, blank=True, help_text="response code of the guide")
    citation = models.CharField(max_length=80)
    referred_on = models.DateField()
    referred_to = models.CharField(max_length=200, blank=True)
    note = models.TextField(blank=True)
    referred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    referred_at = models.DateTimeField(default=timezone.now)
    #: The fine count as it stood on the day of referral (``liability.fines_as_referred``):
    #: what the office hands the Town Attorney, kept as it was (empty on referrals recorded
    #: before it was kept).
    computation = models.JSONField(default=dict, blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)

    class Meta:
        ordering = ("referred_on", "id")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.referred_on})"

    @builtins.property
    def fine(self) -> dict[str, Any] | None:
        """The fine computation kept at referral (None: no count, or none was kept)."""
        fine = (self.computation or {}).get("fine")
        return fine if isinstance(fine, dict) else None


class Judgment(WrittenOnce):
    """The court's judgment on a referral for prosecution: the fine it imposed (§ 196-22 B:
    "on conviction thereof, shall be fined"). Recorded by the office from the court's papers,
    once; the fine is the court's, never the office's count."""

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="judgments")
    referral = models.OneToOneField(
        Referral,
        on_delete=models.PROTECT,
        related_name="judgment",
        help_text="the referral for prosecution the judgment ends",
    )
    court = models.CharField(max_length=200)
    docket = models.CharField(max_length=80, help_text="docket or index number")
    judgment_on = models.DateField()
    fine_amount = models.DecimalField(
        max_digits=12, decimal_places=2, help_text="the fine the court imposed (USD)"
    )
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)

    class Meta:
        ordering = ("judgment_on", "id")

    def __str__(self) -> str:
        return f"Judgment {self.docket}, {self.court} ({self.judgment_on})"


class Collection(WrittenOnce):
    """Money received on a fine the court imposed: by the court (recorded here only) or by the
    Town (recorded here and, as a payment with its receipt, in billing: ``payment``)."""

    judgment = models.ForeignKey(Judgment, on_delete=models.PROTECT, related_name="collections")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    collected_on = models.DateField()
    collected_by = models.CharField(max_length=10, choices=CollectedBy.choices)
    reference = models.CharField(
        max_length=80, blank=True, help_text="the court's receipt, or the check/card reference"
    )
    payment = models.OneToOneField(
        "billing.Payment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="fine_collection",
        help_text="the Town's payment record (with its receipt number), when the Town collected",
    )
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(
        f"judgment__violation__{p}" for p in VIOLATION_PATHS
    )

    class Meta:
        ordering = ("collected_on", "id")

    def __str__(self) -> str:
        return f"Collection USD {self.amount:,} ({self.collected_on}, {self.collected_by})"
