"""Compliance schedules (40 CFR 403.8(f)(1)(iv), 403.12(c)): the dated milestones a facility
must meet, imposed by an approval or an order, and the completion of each."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sewer_office.accounts.access import person_ids
from sewer_office.accounts.actors import Actor
from sewer_office.core.links import link
from sewer_office.core.models import ImmutableRecord, TimeStamped
from sewer_office.core.workflow import Workflow
from sewer_office.enforcement.choices import (
    ImposedBy,
)
from sewer_office.enforcement.models.violations import Notice
from sewer_office.findings.models import FACILITY_PATHS

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

    def is_applicant(self, user: Actor) -> bool:
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
