"""Compliance schedules in the enforcement API (40 CFR 403.8(f)(1)(iv)): the schedules and
their milestones, imposing and amending a schedule, and recording a milestone's completion
(staff, or the facility; 40 CFR 403.12(c))."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.api.forms import form_data
from sewer_office.core.errors import Forbidden
from sewer_office.core.services import perform
from sewer_office.enforcement import schedules
from sewer_office.enforcement.choices import (
    ImposedBy,
)
from sewer_office.enforcement.filters import ScheduleFilter
from sewer_office.enforcement.models import (
    ComplianceSchedule,
    Milestone,
    Notice,
)
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment


class MilestoneSerializer(serializers.ModelSerializer[Milestone]):
    state_label = serializers.CharField(read_only=True)
    days_late = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Milestone
        fields = (
            "id",
            "schedule",
            "description",
            "due_on",
            "state",
            "state_label",
            "completed_on",
            "completion_report",
            "days_late",
        )


class ScheduleSerializer(serializers.ModelSerializer[ComplianceSchedule]):
    number = serializers.CharField(read_only=True)
    establishment_name = serializers.CharField(source="establishment.name", read_only=True)
    milestones = MilestoneSerializer(many=True, read_only=True)

    class Meta:
        model = ComplianceSchedule
        fields = (
            "id",
            "number",
            "establishment",
            "establishment_name",
            "imposed_by",
            "approval",
            "notice",
            "requirement",
            "citation",
            "created_at",
            "milestones",
        )


class MilestoneInput(serializers.Serializer[Any]):
    due_on = serializers.DateField()
    description = serializers.CharField()


class ScheduleInput(serializers.Serializer[Any]):
    establishment = serializers.PrimaryKeyRelatedField(queryset=Establishment.objects.all())
    imposed_by = serializers.ChoiceField(choices=ImposedBy.choices)
    approval = serializers.PrimaryKeyRelatedField(
        queryset=IndustrialDischargeApproval.objects.all(), required=False, allow_null=True
    )
    notice = serializers.PrimaryKeyRelatedField(
        queryset=Notice.objects.select_related("violation"), required=False, allow_null=True
    )
    requirement = serializers.CharField()
    citation = serializers.CharField()
    milestones = MilestoneInput(many=True)


class AmendInput(serializers.Serializer[Any]):
    reason = serializers.CharField()
    requirement = serializers.CharField()
    citation = serializers.CharField()
    milestones = MilestoneInput(many=True, required=False)


class CompletionInput(serializers.Serializer[Any]):
    completed_on = serializers.DateField()
    completion_report = serializers.CharField()


class ScheduleViewSet(viewsets.ReadOnlyModelViewSet[ComplianceSchedule]):
    """Compliance schedules (40 CFR 403.8(f)(1)(iv)); outside users see their facilities'."""

    serializer_class = ScheduleSerializer
    filterset_class = ScheduleFilter

    def get_queryset(self) -> Any:
        return schedules.visible_schedules(
            ComplianceSchedule.objects.select_related("establishment").prefetch_related(
                "milestones"
            ),
            self.request.user,
        ).order_by("id")

    @extend_schema(request=ScheduleInput, responses={201: ScheduleSerializer})
    def create(self, request: Request) -> Response:
        """Impose a schedule with its milestones (Superintendent, engineer)."""
        if not schedules.may_schedule(request.user):
            raise Forbidden(
                "Imposing a compliance schedule: reserved to the Superintendent and the engineer."
            )
        body = ScheduleInput(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        d["milestones"] = [(m["due_on"], m["description"]) for m in d["milestones"]]
        s = schedules.create_schedule(request.user, **d)
        return Response(self.get_serializer(self.get_queryset().get(pk=s.pk)).data, status=201)

    @extend_schema(request=AmendInput, responses=ScheduleSerializer)
    @action(detail=True, methods=["post"])
    def amend(self, request: Request, pk: str | None = None) -> Response:
        """Amend the requirement and citation, add milestones (a reason is required)."""
        schedule = self.get_object()
        body = AmendInput(data=request.data)
        if not schedules.may_schedule(request.user):
            raise Forbidden(
                "Amending a compliance schedule: reserved to the Superintendent and the engineer."
            )
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        added = [(m["due_on"], m["description"]) for m in d.pop("milestones", [])]
        schedules.amend_schedule(request.user, schedule, milestones=added, **d)
        return Response(self.get_serializer(self.get_queryset().get(pk=schedule.pk)).data)


class MilestoneViewSet(viewsets.ReadOnlyModelViewSet[Milestone]):
    """Milestones of compliance schedules, and the action recording a completion."""

    serializer_class = MilestoneSerializer

    def get_queryset(self) -> Any:
        return visible(Milestone.objects.select_related("schedule"), self.request.user).order_by(
            "due_on", "id"
        )

    @extend_schema(request=CompletionInput, responses=MilestoneSerializer)
    @action(detail=True, methods=["post"])
    def complete(self, request: Request, pk: str | None = None) -> Response:
        """Record the milestone's completion (staff, or the facility; 40 CFR 403.12(c))."""
        milestone = self.get_object()
        data = form_data(request.data)
        done = perform(milestone, "complete_milestone", request.user, data)
        return Response(self.get_serializer(done).data)
