"""A violation and the notices served about it.

A :class:`Violation` is opened from a finding (one finding → at most one open violation) or by
hand, with the section violated, the facility or property, the person responsible (§ 196-15
PERSON) and the kind of the response guide. Its state is a :class:`~sewer_office.core.workflow.
Workflow` (:mod:`sewer_office.enforcement.workflow`); every change goes through
:func:`sewer_office.core.services.perform` with its citation and audit event. An issued
:class:`Notice` receives its service once, then nothing (a mistake is corrected by a
superseding notice with a reason).

This module is the app's only import of the findings ledger's model (``Finding``): the ledger
may move, and then only :data:`FINDING_MODEL` and the import below change.
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.expressions import Combinable, NegatedExpression
from django.utils import timezone

from sewer_office.accounts.access import person_ids
from sewer_office.accounts.actors import Actor
from sewer_office.core.links import link
from sewer_office.core.models import ImmutableRecord, KeepsItsTown, TimeStamped
from sewer_office.core.workflow import Workflow
from sewer_office.enforcement.choices import (
    DeliveryProof,
    ServiceMethod,
)
from sewer_office.findings.models import FACILITY_PATHS, Finding

__all__ = ["FINDING_MODEL", "Finding", "Notice", "Violation"]

FINDING_MODEL = "findings.Finding"

#: Outside users reach a violation as the person responsible, as the facility's operator or
#: owner of its premises, or as the owner of the property concerned.
VIOLATION_PATHS = ("person", *FACILITY_PATHS, "property__owner")
#: States an outside user does not see: a violation not yet noticed is the office's
#: internal matter, and one dismissed before any notice was never served on anyone.
HIDDEN_FROM_OUTSIDE = ("open", "dismissed")


class Violation(KeepsItsTown, TimeStamped):
    """One violation of the article by one person, followed to its end on the record; of the
    town of its facility's parcel, else of its own parcel."""

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
    TOWN_SOURCES: ClassVar[tuple[str, ...]] = ("establishment", "property")
    OUTSIDE_FILTER: ClassVar[Q] = ~Q(state__in=HIDDEN_FROM_OUTSIDE)

    class Meta:
        ordering = ("-observed_on", "-id")
        indexes = (
            models.Index(fields=["state", "observed_on"], name="violation_state_day"),
            models.Index(fields=["establishment", "state"], name="violation_facility_state"),
            # The violations list's order, newest first: its first page without a sort of all.
            models.Index(fields=["-observed_on", "-id"], name="violation_recent"),
            # a town's violations, in the list's order and by state (docs/scale.md)
            models.Index(
                fields=["jurisdiction", "-observed_on", "-id"], name="violation_town_recent"
            ),
            models.Index(fields=["jurisdiction", "state"], name="violation_town_state"),
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
        """The state as its town's law calls it (:attr:`Workflow.state_names`)."""
        return self.WORKFLOW.state_label_on(self)

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

    def is_applicant(self, user: Actor) -> bool:
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


def only_filling(
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

    @staticmethod
    def in_force() -> NegatedExpression[Combinable]:
        """The condition of a notice no later notice supersedes, as ``NOT EXISTS``: PostgreSQL
        probes the unique index of ``supersedes`` for the few notices a card reads, where
        ``superseded_by__isnull`` (a LEFT JOIN … IS NULL) had it hash every notice of a
        county's (10 ms against 1, docs/scale.md)."""
        return ~Exists(Notice.objects.filter(supersedes=OuterRef("pk")))

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
            if self.delivered_on is None:  # a town's law whose period runs from the mailing
                return f"{mailed}; the period runs from the mailing"
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
            only_filling(self, self.SERVICE_FIELDS, "An issued notice", consent)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("notices are never deleted: supersede them with a reason")

    def get_absolute_url(self) -> str:
        return link("enforcement:notice-pdf", args=[self.pk])
