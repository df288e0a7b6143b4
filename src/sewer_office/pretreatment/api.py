"""API of the pretreatment program: designations, report due dates, SNC determinations.

``GET /api/pretreatment/designations/``, ``/reports/``, ``/snc/`` (the web list's filters);
``POST /api/pretreatment/snc/run/`` (``{"period": "2026H1", "rolling": false}``) determines
SNC as the page and the command do; ``POST /api/pretreatment/snc/<id>/staff-criterion/``
(``{"criterion": "C", "facts": "...", "on": "2026-03-04"}``) records a criterion determined by
staff (a new determination supersedes ``<id>``); ``POST /api/pretreatment/reports/<id>/received/``
(``{"received_on": "2026-03-17"}``) records a received report. Outside users read their own
facilities' records only; refusals answer with the services' message (400, 403, 409).
"""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.core.errors import Forbidden

from . import baseline, report_dues, services, snc, snc_staff
from .filters import SNCFilter
from .models import Designation, ReportDue, SNCDetermination


class DesignationSerializer(serializers.ModelSerializer[Designation]):
    current = serializers.BooleanField(read_only=True)

    class Meta:
        model = Designation
        fields = (
            "id",
            "establishment",
            "status",
            "basis",
            "citation",
            "evaluation",
            "flow_gpd",
            "flow_source",
            "reason",
            "decided_on",
            "supersedes",
            "current",
        )


class ReportDueSerializer(serializers.ModelSerializer[ReportDue]):
    citation = serializers.CharField(read_only=True)

    class Meta:
        model = ReportDue
        fields = ("id", "establishment", "kind", "citation", "due_on", "received_on")


class SNCSerializer(serializers.ModelSerializer[SNCDetermination]):
    current = serializers.BooleanField(read_only=True)

    class Meta:
        model = SNCDetermination
        fields = (
            "id",
            "establishment",
            "period_start",
            "period_end",
            "rolling",
            "snc",
            "criteria",
            "citations",
            "determinations",
            "reports",
            "staff_criteria",
            "measurements",
            "violation",
            "computed_at",
            "supersedes",
            "current",
        )


class RunInput(serializers.Serializer[Any]):
    period = serializers.CharField(max_length=40)
    rolling = serializers.BooleanField(required=False, allow_null=True, default=None)


class StaffCriterionInput(serializers.Serializer[Any]):
    criterion = serializers.CharField(max_length=2)
    facts = serializers.CharField(allow_blank=True)
    on = serializers.DateField()


class RunOutput(serializers.Serializer[Any]):
    period = serializers.DictField()
    rolling = serializers.BooleanField()
    determinations = serializers.IntegerField()
    in_snc = serializers.ListField(child=serializers.IntegerField())
    violations_opened = serializers.IntegerField()


class ReceivedInput(serializers.Serializer[Any]):
    received_on = serializers.DateField()
    note = serializers.CharField(max_length=200, required=False, default="")
    #: a baseline report's only: element code → {"answer": given|explained|missing, "text": …}
    checklist = serializers.DictField(required=False, help_text="40 CFR 403.12(b) checklist")


class DesignationViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    """SIU designations (40 CFR 403.3(v)), every version; ``?current=true`` for those in force."""

    serializer_class = DesignationSerializer

    def get_queryset(self) -> Any:
        qs = Designation.objects.select_related("superseded_by").order_by("-id")
        if self.request.query_params.get("current") == "true":
            qs = qs.filter(superseded_by__isnull=True)
        return visible(qs, self.request.user)


class ReportDueViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    """Due dates of required reports (40 CFR 403.12)."""

    serializer_class = ReportDueSerializer

    def get_queryset(self) -> Any:
        return visible(ReportDue.objects.order_by("due_on", "id"), self.request.user)

    @extend_schema(request=ReceivedInput, responses=ReportDueSerializer)
    @action(detail=True, methods=["post"])
    def received(self, request: Request, pk: str | None = None) -> Response:
        """Record the day the report was received (Superintendent, engineer, clerk)."""
        due = self.get_object()
        if not services.may_receive(request.user):
            raise Forbidden("Recording a received report: reserved to the Superintendent, the "
                            "engineer and the clerk (40 CFR 403.12).")  # fmt: skip
        body = ReceivedInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        raw = data.pop("checklist", None)
        filing = baseline.Filing(raw) if raw is not None else None
        done = report_dues.record_received(request.user, due, **data, checklist=filing)
        return Response(ReportDueSerializer(done).data)


class SNCViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    """SNC determinations in force (40 CFR 403.8(f)(2)(viii)); the web list's filters."""

    serializer_class = SNCSerializer

    def get_queryset(self) -> Any:
        base = snc.visible_determinations(self.request.user).select_related("superseded_by")
        fs = SNCFilter(self.request.query_params or None, queryset=base)
        return fs.qs if fs.is_bound and fs.is_valid() else base

    @extend_schema(request=StaffCriterionInput, responses={201: SNCSerializer})
    @action(detail=True, methods=["post"], url_path="staff-criterion")
    def staff_criterion(self, request: Request, pk: str | None = None) -> Response:
        """Record criterion (C), (D), (G) or (H) determined by the Control Authority: a new
        determination in SNC supersedes this one (Superintendent, engineer)."""
        det = self.get_object()
        if not services.may_decide(request.user):
            raise Forbidden("Recording a criterion of significant noncompliance: reserved to the "
                            "Superintendent and the engineer (40 CFR 403.8(f)(2)(viii)).")  # fmt: skip
        body = StaffCriterionInput(data=request.data)
        body.is_valid(raise_exception=True)
        v = body.validated_data
        new = snc_staff.record_staff_criterion(
            det, v["criterion"], v["facts"], v["on"], request.user
        )
        return Response(SNCSerializer(new).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RunInput, responses={201: RunOutput})
    @action(detail=False, methods=["post"])
    def run(self, request: Request) -> Response:
        """Determine SNC for a period (Superintendent, engineer)."""
        if not services.may_decide(request.user):
            raise Forbidden("Determining significant noncompliance: reserved to the "
                            "Superintendent and the engineer (40 CFR 403.8(f)(2)(viii)).")  # fmt: skip
        body = RunInput(data=request.data)
        body.is_valid(raise_exception=True)
        run = snc.compute_snc(
            request.user, body.validated_data["period"], rolling=body.validated_data["rolling"]
        )
        return Response(
            {
                "period": run.period.as_dict(),
                "rolling": run.rolling,
                "determinations": len(run.determinations),
                "in_snc": [d.establishment_id for d in run.in_snc],
                "violations_opened": run.violations_opened,
            },
            status=status.HTTP_201_CREATED,
        )


ROUTES: list[tuple[str, Any, str]] = [
    ("pretreatment/designations", DesignationViewSet, "siu-designation"),
    ("pretreatment/reports", ReportDueViewSet, "report-due"),
    ("pretreatment/snc", SNCViewSet, "snc-determination"),
]
PATHS: list[URLPattern] = []
