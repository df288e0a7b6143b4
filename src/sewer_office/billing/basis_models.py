"""What a surcharge rests on: the Superintendent's § 196-19 E(1)(d) decisions and the Town's
§ 196-19 J special agreements, as records of legal weight.

Each is written once (:class:`~sewer_office.core.models.WrittenOnce`): never edited, never
deleted. A record ends on its own last day, or earlier by a :class:`SurchargeEnding` (a new
record saying from when and why), or when a later record of the same kind supersedes it (the
later one names it and says why; the earlier one then ends the day before the later starts).
A billing run bills a facility only for the days one of them is in force
(:mod:`sewer_rules.billing.authority`).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sewer_office.core.models import WrittenOnce

from .choices import DecisionBasis

#: Outside users see the decisions and agreements of their own facilities.
FACILITY_PATHS = ("establishment__operator", "establishment__building__property__owner")


class _Basis(WrittenOnce):
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="+"
    )
    first_day = models.DateField(help_text="first day payment is required")
    last_day = models.DateField(
        null=True, blank=True, help_text="last day it is in force (blank: until ended)"
    )
    supersede_reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    ACCESS_PATHS = FACILITY_PATHS

    class Meta:
        abstract = True

    def effective_last_day(self) -> date | None:
        """The last day in force: its own last day, an ending, or the day before a successor."""
        days: list[date] = [] if self.last_day is None else [self.last_day]
        days += [e.last_day for e in self.endings.all()]  # type: ignore[attr-defined]
        days += [s.first_day - timedelta(days=1) for s in self.successors.all()]  # type: ignore[attr-defined]
        return min(days) if days else None


class SurchargeDecision(_Basis):
    """The Superintendent's decision to require payment for a facility's wastes (§ 196-19 E(1)(d))."""

    basis = models.CharField(max_length=30, choices=DecisionBasis.choices)
    decided_on = models.DateField()
    reasons = models.TextField(help_text="why payment is required (the wastes, the cost)")
    reference = models.CharField(max_length=120, blank=True, help_text="letter or file reference")
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="successors"
    )

    class Meta:
        ordering = ("-first_day", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["supersedes"],
                condition=Q(supersedes__isnull=False),
                name="surcharge_decision_superseded_once",
            ),
            models.CheckConstraint(
                condition=Q(last_day__isnull=True) | Q(last_day__gte=models.F("first_day")),
                name="surcharge_decision_days_ordered",
            ),
        )

    def __str__(self) -> str:
        return f"§ 196-19 E(1)(d) decision {self.pk} ({self.first_day})"


class SurchargeAgreement(_Basis):
    """A special agreement between the Town and an industrial concern (§ 196-19 J), with its terms."""

    parties = models.TextField(help_text="the Town and the industrial concern, as named")
    terms = models.TextField(help_text="the terms agreed (the waste accepted, the payment)")
    signed_on = models.DateField()
    signed_by = models.CharField(max_length=200, help_text="who signed, for each party")
    board_approval = models.CharField(
        max_length=200, help_text="the Town Board's approval (resolution number and date)"
    )
    rate_bod = models.DecimalField(max_digits=10, decimal_places=4, null=True, blank=True)
    rate_suspended_solids = models.DecimalField(
        max_digits=10, decimal_places=4, null=True, blank=True
    )
    rate_grease_oil = models.DecimalField(max_digits=10, decimal_places=4, null=True, blank=True)
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="successors"
    )

    class Meta:
        ordering = ("-first_day", "-id")
        constraints = (
            models.UniqueConstraint(
                fields=["supersedes"],
                condition=Q(supersedes__isnull=False),
                name="surcharge_agreement_superseded_once",
            ),
            models.CheckConstraint(
                condition=Q(last_day__isnull=True) | Q(last_day__gte=models.F("first_day")),
                name="surcharge_agreement_days_ordered",
            ),
        )

    def __str__(self) -> str:
        return f"§ 196-19 J agreement {self.pk} ({self.first_day})"

    def rates(self) -> dict[str, object]:
        """The agreed $/lb rates it states (the others are the Town Board's)."""
        pairs = {
            "bod": self.rate_bod,
            "suspended_solids": self.rate_suspended_solids,
            "grease_oil": self.rate_grease_oil,
        }
        return {k: v for k, v in pairs.items() if v is not None}


class SurchargeEnding(WrittenOnce):
    """The end of a decision or an agreement before its own last day: from when and why."""

    decision = models.ForeignKey(
        SurchargeDecision, null=True, blank=True, on_delete=models.PROTECT, related_name="endings"
    )
    agreement = models.ForeignKey(
        SurchargeAgreement,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="endings",
    )
    last_day = models.DateField(help_text="the last day it is in force")
    reason = models.TextField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    #: The town of the decision's or the agreement's facility (their own town is read from
    #: their ``ACCESS_PATHS``: the facility's).
    JURISDICTION_PATHS: ClassVar[tuple[str, ...]] = (
        "decision__establishment__jurisdiction",
        "agreement__establishment__jurisdiction",
    )

    class Meta:
        ordering = ("-recorded_at", "-id")
        constraints = (
            models.CheckConstraint(
                condition=Q(decision__isnull=False, agreement__isnull=True)
                | Q(decision__isnull=True, agreement__isnull=False),
                name="surcharge_ending_one_record",
            ),
        )

    def __str__(self) -> str:
        return f"ending of {self.decision or self.agreement} on {self.last_day}"
