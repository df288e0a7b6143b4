"""Violations and what the Town does about them: notices, corrections, costs, referrals.

A :class:`Violation` is opened from a finding (one finding → at most one open violation) or by
hand, with the section violated, the facility or property, the person responsible (§ 196-15
PERSON) and the kind of the response guide. Its state is a :class:`~sewer_office.core.workflow.
Workflow` (:mod:`.workflow`); every change goes through :func:`sewer_office.core.services.perform`
with its citation and audit event.

The records of legal weight are never edited: an issued :class:`Notice` receives its service
once, then nothing (a mistake is corrected by a superseding notice with a reason); a
:class:`Correction` receives its verification or rejection once; :class:`Cost` and
:class:`Referral` are written once. Their ``save`` refuses anything else
(:class:`~sewer_office.core.models.ImmutableRecord`).

This module is the app's only import of the monitoring app (``Finding``, ``FACILITY_PATHS``):
the findings ledger may move, and then only :data:`FINDING_MODEL` and the import below change.
"""

from __future__ import annotations

import builtins
from datetime import date
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sewer_office.accounts.access import person_ids
from sewer_office.core.links import link
from sewer_office.core.models import ImmutableRecord, TimeStamped, WrittenOnce
from sewer_office.core.workflow import Workflow
from sewer_office.findings.models import FACILITY_PATHS, Finding

from .adoption import PlanAdoption
from .choices import (
    CollectedBy,
    CostCategory,
    DeliveryProof,
    ImposedBy,
    ReferralKind,
    ServiceMethod,
)

__all__ = ["FACILITY_PATHS", "FINDING_MODEL", "Finding", "PlanAdoption"]

FINDING_MODEL = "findings.Finding"

#: Outside users reach a violation as the person responsible, as the facility's operator or
#: owner of its premises, or as the owner of the property concerned.
VIOLATION_PATHS = ("person", *FACILITY_PATHS, "property__owner")
#: States an outside user does not see: a violation not yet noticed is the office's
#: internal matter, and one dismissed before any notice was never served on anyone.
HIDDEN_FROM_OUTSIDE = ("open", "dismissed")


class Violation(TimeStamped):
    """One violation of the article by one person, followed to its end on the record."""

    kind = models.CharField(max_length=40, help_text="kind of the enforcement response guide")
    section = models.CharField(
        max_length=80, help_text="the provision violated, e.g. § 196-19 C(3)"
    )
    description = models.TextField()
    establishment = models.ForeignKey(
        "registry.Establishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="violations",
    )
    property = models.ForeignKey(
        "registry.Property",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="violations",
    )
    person = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, related_name="violations"
    )
    finding = models.ForeignKey(
        FINDING_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="violations",
        help_text="the finding the violation was opened from",
    )
    evidence: models.ManyToManyField[Finding, Any] = models.ManyToManyField(
        FINDING_MODEL, blank=True, related_name="evidence_for"
    )
    observed_on = models.DateField(help_text="when the violation was found")
    #: None when the daily job (``sewer-use flag-overdue``) opened it: a compliance-schedule
    #: milestone left uncompleted 90 days past its date becomes a violation by itself.
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(max_length=24, default="open", db_index=True)

    #: Bound to :data:`.workflow.WORKFLOW` when the app is ready (:mod:`.apps`).
    WORKFLOW: ClassVar[Workflow]
    ACCESS_PATHS: ClassVar[tuple[str, ...]] = VIOLATION_PATHS
    OUTSIDE_FILTER: ClassVar[Q] = ~Q(state__in=HIDDEN_FROM_OUTSIDE)

    class Meta:
        ordering = ("-observed_on", "-id")
        indexes = (
            models.Index(fields=["state", "observed_on"], name="violation_state_day"),
            models.Index(fields=["establishment", "state"], name="violation_facility_state"),
            # The violations list's order, newest first: its first page without a sort of all.
            models.Index(fields=["-observed_on", "-id"], name="violation_recent"),
        )
        constraints = (
            models.UniqueConstraint(
                fields=["finding"],
                condition=Q(finding__isnull=False) & ~Q(state__in=("corrected", "dismissed")),
                name="one_open_violation_per_finding",
            ),
        )

    def __str__(self) -> str:
        return f"{self.number} {self.section} — {self.person.name}"

    @builtins.property
    def number(self) -> str:
        return f"VIOL-{self.pk}"

    @builtins.property
    def state_label(self) -> str:
        return self.WORKFLOW.label(self.state)

    @builtins.property
    def is_open(self) -> bool:
        return not self.WORKFLOW.state(self.state).terminal

    @builtins.property
    def subject(self) -> str:
        if self.establishment is not None:
            return self.establishment.name
        if self.property is not None:
            return self.property.address
        return ""

    def is_applicant(self, user: Any) -> bool:
        """Whether ``user`` acts for the person responsible or the facility or property (its
        ``ACCESS_PATHS``): the outside user who may report its own correction."""
        ids = person_ids(user)
        if not ids:
            return False
        cond = Q()
        for path in self.ACCESS_PATHS:
            cond |= Q(**{f"{path}__in": ids})
        return Violation.objects.filter(cond, pk=self.pk).exists()

    def get_absolute_url(self) -> str:
        return link("enforcement:detail", args=[self.pk])


def _only_filling(
    obj: models.Model, allowed: frozenset[str], what: str, flags: frozenset[str] = frozenset()
) -> None:
    """Refuse an update of a stored row unless it only fills ``allowed`` fields still empty
    (and sets ``flags``, booleans still False)."""
    stored = type(obj)._default_manager.filter(pk=obj.pk).values().first()
    if stored is None:
        return
    for f in obj._meta.concrete_fields:
        if f.attname in {"updated_at"}:
            continue
        old, new = stored[f.attname], getattr(obj, f.attname)
        if old == new:
            continue
        if f.attname in allowed and old in (None, ""):
            continue
        if f.attname in flags and old is False:
            continue
        raise ImmutableRecord(f"{what} is never edited ({f.name} cannot change)")


class Notice(TimeStamped):
    """A written notice (or order) served on the person responsible (§ 196-22 A).

    Issued by the Superintendent with the response of the guide, the nature of the violation,
    the section and the correction period stated (at least 10 days); served on a recorded day
    by a recorded method; the deadline is computed at service by the rules and stored with the
    parameter values it used, as is the daily amount in force on the day of issue.
    """

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="notices")
    response = models.CharField(max_length=40, help_text="response code of the guide")
    response_label = models.CharField(max_length=120)
    citation = models.CharField(max_length=80, help_text="the section the response rests on")
    nature = models.TextField(help_text="the nature of the violation, as the notice states it")
    section = models.CharField(max_length=80, help_text="the provision violated")
    correction_clock = models.BooleanField(default=True)
    period_days = models.PositiveIntegerField(null=True, blank=True)
    issued_on = models.DateField()
    issued_at = models.DateTimeField(default=timezone.now)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    daily_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    daily_amount_effective = models.DateField(null=True, blank=True)
    daily_amount_authority = models.CharField(max_length=200, blank=True)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    supersede_reason = models.TextField(blank=True)
    # --- service, recorded once ------------------------------------------------------------
    #: The day service was complete and the period starts from: personal service, the day of
    #: delivery; certified mail, the day of delivery on the return receipt (or the carrier's
    #: record); e-mail with the person's written agreement, the day sent. Empty while a mailed
    #: notice awaits its delivery: no deadline, no clock.
    served_on = models.DateField(null=True, blank=True)
    mailed_on = models.DateField(
        null=True, blank=True, help_text="certified mail: the day the notice was mailed"
    )
    delivered_on = models.DateField(
        null=True, blank=True, help_text="the day the notice reached the person"
    )
    delivery_proof = models.CharField(
        max_length=20,
        choices=DeliveryProof.choices,
        blank=True,
        help_text="what shows the day of delivery",
    )
    served_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    service_method = models.CharField(max_length=20, choices=ServiceMethod.choices, blank=True)
    receipt_number = models.CharField(max_length=60, blank=True)
    email_address = models.CharField(max_length=200, blank=True)
    email_consent = models.BooleanField(default=False)
    nominal_deadline = models.DateField(null=True, blank=True)
    deadline = models.DateField(null=True, blank=True)
    deadline_basis = models.JSONField(null=True, blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)
    OUTSIDE_FILTER: ClassVar[Q] = ~Q(violation__state__in=HIDDEN_FROM_OUTSIDE)
    SERVICE_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {
            "served_on",
            "mailed_on",
            "delivered_on",
            "delivery_proof",
            "served_by_id",
            "service_method",
            "receipt_number",
            "email_address",
            "email_consent",
            "nominal_deadline",
            "deadline",
            "deadline_basis",
        }
    )

    class Meta:
        ordering = ("issued_at", "id")
        indexes = (
            # The dashboard's "notices to serve", oldest first, and "deadlines this week":
            # their first rows from an index in their own order, not a scan of every notice.
            models.Index(
                fields=["issued_on", "id"],
                condition=Q(served_on__isnull=True),
                name="notice_unserved",
            ),
            models.Index(fields=["deadline", "id"], name="notice_deadline"),
        )

    def __str__(self) -> str:
        return f"{self.number} {self.response_label}"

    @builtins.property
    def number(self) -> str:
        return f"NOV-{self.pk}"

    @builtins.property
    def served(self) -> bool:
        return self.served_on is not None

    @builtins.property
    def awaiting_delivery(self) -> bool:
        """Mailed by certified mail, its delivery not yet recorded: no clock runs."""
        return self.mailed_on is not None and self.served_on is None

    @builtins.property
    def service_text(self) -> str:
        """How and when the notice was served, as the page and the letter say it."""
        receipt = f" no. {self.receipt_number}" if self.receipt_number else ""
        if self.service_method == ServiceMethod.CERTIFIED_MAIL and self.mailed_on is not None:
            mailed = f"mailed by certified mail{receipt} on {self.mailed_on:%Y-%m-%d}"
            if self.served_on is None:
                return f"{mailed}, not yet delivered (no correction period runs until delivery)"
            proof = self.get_delivery_proof_display().lower() or "the carrier's record"
            return f"{mailed}; delivered on {self.served_on:%Y-%m-%d} per {proof}"
        if self.served_on is None:
            return "not served"
        if self.service_method == ServiceMethod.PERSONAL:
            return f"served by personal delivery on {self.served_on:%Y-%m-%d}"
        if self.service_method == ServiceMethod.EMAIL:
            to = f" to {self.email_address}" if self.email_address else ""
            return (
                f"served by e-mail{to} on {self.served_on:%Y-%m-%d}, with the person's written "
                "agreement to e-mail service"
            )
        # recorded before mailing and delivery were told apart: the day as recorded
        return f"served on {self.served_on:%Y-%m-%d} ({self.get_service_method_display()}{receipt})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            # Service is filled once (the mailing, then the delivery); nothing else changes.
            # email_consent starts False: "filling" it means setting it once at service.
            stored = Notice.objects.filter(pk=self.pk).values("email_consent").first()
            consent = (
                frozenset({"email_consent"})
                if stored and not stored["email_consent"]
                else frozenset()
            )
            _only_filling(self, self.SERVICE_FIELDS, "An issued notice", consent)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("notices are never deleted: supersede them with a reason")

    def get_absolute_url(self) -> str:
        return link("enforcement:notice-pdf", args=[self.pk])


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
            _only_filling(self, self.DECISION_FIELDS, "A reported correction")
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
    #: The fine count as it stood on the day of referral (``services.fines_as_referred``):
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


# --- compliance schedules (40 CFR 403.8(f)(1)(iv), 403.12(c)) -----------------------------

#: A schedule's records are the facility's: visible to its operator and its premises' owner.
SCHEDULE_PATHS = FACILITY_PATHS


class ComplianceSchedule(TimeStamped):
    """A schedule of dated milestones bringing a facility into compliance with a requirement.

    Imposed by a condition of the facility's industrial approval (§ 196-19 E(1)) or by an
    administrative order or notice (a :class:`Notice` of this app); 40 CFR 403.8(f)(1)(iv)
    requires the Control Authority to be able to impose one, 40 CFR 403.12(c) sets how the user
    reports on its milestones. Edits are made through :mod:`.schedules` with a reason and an
    audit event; milestones already completed are never changed.
    """

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="compliance_schedules"
    )
    imposed_by = models.CharField(max_length=20, choices=ImposedBy.choices)
    approval = models.ForeignKey(
        "permits.IndustrialDischargeApproval",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="compliance_schedules",
        help_text="the approval whose condition imposes the schedule",
    )
    notice = models.ForeignKey(
        Notice,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="compliance_schedules",
        help_text="the administrative order or notice that imposes the schedule",
    )
    requirement = models.TextField(help_text="the requirement the schedule brings into compliance")
    citation = models.CharField(
        max_length=80, help_text="the provision the requirement rests on, e.g. § 196-19 E(1)(b)"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = SCHEDULE_PATHS

    class Meta:
        ordering = ("establishment__name", "id")

    def __str__(self) -> str:
        return f"{self.number} {self.establishment.name}"

    @builtins.property
    def number(self) -> str:
        return f"CS-{self.pk}"

    @builtins.property
    def imposed_by_text(self) -> str:
        imposer = self.approval or self.notice
        if imposer is not None:
            return f"{self.get_imposed_by_display()} {imposer.number}"
        return self.get_imposed_by_display()

    def get_absolute_url(self) -> str:
        return link("enforcement:schedule-detail", args=[self.pk])


class Milestone(TimeStamped):
    """One dated step of a compliance schedule, and the report of its completion.

    Its completion is recorded once, through :func:`~sewer_office.core.services.perform` (the
    :data:`~.workflow.MILESTONE_WORKFLOW`), with the report it rests on (40 CFR 403.12(c):
    the user reports within 14 days of each milestone date).
    """

    schedule = models.ForeignKey(
        ComplianceSchedule, on_delete=models.PROTECT, related_name="milestones"
    )
    description = models.CharField(max_length=300)
    due_on = models.DateField()
    state = models.CharField(max_length=20, default="pending", db_index=True)
    completed_on = models.DateField(null=True, blank=True)
    completion_report = models.TextField(blank=True, help_text="the report of completion")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    #: Bound to :data:`.workflow.MILESTONE_WORKFLOW` when the app is ready (:mod:`.apps`).
    WORKFLOW: ClassVar[Workflow]
    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"schedule__{p}" for p in SCHEDULE_PATHS)

    class Meta:
        ordering = ("due_on", "id")
        indexes = (models.Index(fields=["state", "due_on"], name="milestone_state_due"),)

    def __str__(self) -> str:
        return f"{self.description} (due {self.due_on})"

    @builtins.property
    def state_label(self) -> str:
        return self.WORKFLOW.label(self.state)

    @builtins.property
    def days_late(self) -> int | None:
        """Days the completion came (or, uncompleted, has been) after the due date."""
        end = self.completed_on or timezone.localdate()
        late = (end - self.due_on).days
        return late if late > 0 else None

    def is_applicant(self, user: Any) -> bool:
        """Whether ``user`` acts for the facility (its operator or its premises' owner)."""
        ids = person_ids(user)
        if not ids:
            return False
        cond = Q()
        for path in self.ACCESS_PATHS:
            cond |= Q(**{f"{path}__in": ids})
        return Milestone.objects.filter(cond, pk=self.pk).exists()

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            stored = Milestone.objects.filter(pk=self.pk).values("state").first()
            if stored is not None and stored["state"] == "completed":
                raise ImmutableRecord("a completed milestone is never edited")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("milestones are never deleted: a later date is a new milestone")

    def get_absolute_url(self) -> str:
        return link("enforcement:schedule-detail", args=[self.schedule_id])
