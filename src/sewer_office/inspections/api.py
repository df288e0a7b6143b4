"""API of the inspections app: list and read inspections, schedule, complete, cancel, add
photos and addenda, and fetch the report — the same services as the pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import URLPattern, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.api.parsers import JSONParser
from sewer_office.core.errors import InvalidInput
from sewer_office.findings.services import findings_of
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.registry.models import Establishment, Property

from . import entry, services
from .choices import Agency, Answer, InspectionKind
from .filters import InspectionFilter
from .models import (
    AgencyInspector,
    EntryRefusal,
    Inspection,
    InspectionAddendum,
    InspectionAnswer,
)
from .report import report_response
from .views import base_queryset


@extend_schema_field(
    {
        "type": "string",
        "pattern": "^(" + "|".join(InspectionKind.values) + ")$",
        "description": "; ".join(f"`{v}` - {label}" for v, label in InspectionKind.choices),
    }
)
class KindField(serializers.ChoiceField):
    """The kind of inspection, described inline in the schema by a pattern: an ``enum`` here
    would become a component named after ``kind``, a name other apps' choice sets share."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=InspectionKind.choices, **kwargs)


class AnswerSerializer(serializers.ModelSerializer[InspectionAnswer]):
    class Meta:
        model = InspectionAnswer
        fields = ("key", "question", "citation", "result", "note")


class AddendumSerializer(serializers.ModelSerializer[InspectionAddendum]):
    by = serializers.CharField(source="by.username", read_only=True)

    class Meta:
        model = InspectionAddendum
        fields = ("id", "text", "by", "at")


class AgencyInspectorSerializer(serializers.ModelSerializer[AgencyInspector]):
    class Meta:
        model = AgencyInspector
        fields = ("id", "agency", "name", "credential", "recorded_at")


class EntryRefusalSerializer(serializers.ModelSerializer[EntryRefusal]):
    class Meta:
        model = EntryRefusal
        fields = (
            "id",
            "refused_by",
            "refused_at",
            "asked",
            "credentials_shown",
            "citation",
            "recorded_at",
        )


class InspectionSerializer(serializers.ModelSerializer[Inspection]):
    kind = KindField(read_only=True)
    agency_inspectors = AgencyInspectorSerializer(many=True, read_only=True)
    refusals = EntryRefusalSerializer(many=True, read_only=True)
    inspector_name = serializers.SerializerMethodField()
    answers = AnswerSerializer(many=True, read_only=True)
    addenda = AddendumSerializer(many=True, read_only=True)
    findings = serializers.SerializerMethodField()
    photos = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()

    class Meta:
        model = Inspection
        fields = (
            "id",
            "number",
            "kind",
            "unscheduled",
            "scheduled_for",
            "establishment",
            "property",
            "on_easement",
            "location",
            "inspector",
            "inspector_name",
            "notes",
            "state",
            "credentials_presented",
            "credential",
            "started_at",
            "ended_at",
            "observations",
            "samples",
            "samples_text",
            "completed_at",
            "cancel_reason",
            "answers",
            "findings",
            "photos",
            "addenda",
            "agency_inspectors",
            "refusals",
            "report",
        )

    def get_inspector_name(self, obj: Inspection) -> str:
        return obj.inspector.get_full_name() or obj.inspector.get_username()

    def get_findings(self, obj: Inspection) -> list[dict[str, Any]]:
        return [
            {"id": f.id, "status": f.status, "citation": f.citation, "message": f.message}
            for f in findings_of(obj).order_by("id")
        ]

    def get_photos(self, obj: Inspection) -> list[dict[str, Any]]:
        return [
            {
                "id": p.id,
                "title": p.title,
                "size": p.size,
                "sha256": p.sha256,
                "download": reverse("attachment-download", args=[p.pk]),
            }
            for p in obj.photos()
        ]

    def get_report(self, obj: Inspection) -> str:
        return reverse("inspections:report", args=[obj.pk])


class ScheduleSerializer(serializers.Serializer[Any]):
    kind = KindField()
    unscheduled = serializers.BooleanField(default=False)
    scheduled_for = serializers.DateTimeField(required=False, allow_null=True)
    establishment = serializers.PrimaryKeyRelatedField(
        queryset=Establishment.objects.all(), required=False, allow_null=True
    )
    property = serializers.PrimaryKeyRelatedField(
        queryset=Property.objects.all(), required=False, allow_null=True
    )
    on_easement = serializers.BooleanField(default=False)
    location = serializers.CharField(required=False, allow_blank=True, default="")
    inspector = serializers.IntegerField(required=False, allow_null=True)
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class AnswerInputSerializer(serializers.Serializer[Any]):
    result = serializers.ChoiceField(choices=Answer.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="")


class CompleteSerializer(serializers.Serializer[Any]):
    credentials_presented = serializers.BooleanField()
    credential = serializers.CharField(required=False, allow_blank=True, default="")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    answers = serializers.DictField(child=AnswerInputSerializer())
    observations = serializers.CharField(required=False, allow_blank=True, default="")
    samples = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    samples_text = serializers.CharField(required=False, allow_blank=True, default="")


class ReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField()


class AddendumInputSerializer(serializers.Serializer[Any]):
    text = serializers.CharField()


class AgencyInput(serializers.Serializer[Any]):
    agency = serializers.ChoiceField(choices=Agency.choices)
    name = serializers.CharField(allow_blank=True)
    credential = serializers.CharField(allow_blank=True)


class RefusalInput(serializers.Serializer[Any]):
    refused_by = serializers.CharField(allow_blank=True)
    refused_at = serializers.DateTimeField()
    asked = serializers.CharField(allow_blank=True)
    credentials_shown = serializers.CharField(allow_blank=True)


class PhotoSerializer(serializers.Serializer[Any]):
    photo = serializers.FileField(allow_empty_file=True)  # refused by the service, naming it
    title = serializers.CharField(required=False, allow_blank=True, default="")


class InspectionViewSet(viewsets.ReadOnlyModelViewSet[Inspection]):
    """Inspections under § 196-21; outside users see completed inspections of their own."""

    serializer_class = InspectionSerializer
    filterset_class = InspectionFilter
    parser_classes = (JSONParser, FormParser, MultiPartParser)

    def get_queryset(self) -> Any:
        return services.visible_inspections(base_queryset(), self.request.user).prefetch_related(
            "answers", "addenda__by", "samples", "agency_inspectors", "refusals"
        )

    def _done(self, inspection: Inspection, code: int = status.HTTP_200_OK) -> Response:
        fresh = self.get_queryset().get(pk=inspection.pk)
        return Response(InspectionSerializer(fresh).data, status=code)

    @extend_schema(request=ScheduleSerializer, responses={201: InspectionSerializer})
    def create(self, request: Request) -> Response:
        """Schedule an inspection (Superintendent, engineer, Building Inspector)."""
        services.require_performer(request.user, "Scheduling an inspection")
        body = ScheduleSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        inspector = None
        if d.get("inspector"):
            inspector = services.performer_by_id(d["inspector"])
            if inspector is None:
                raise InvalidInput({"inspector": ["No such inspector."]})
        d["inspector"] = inspector
        inspection = services.schedule(request.user, **d)
        return self._done(inspection, status.HTTP_201_CREATED)

    @extend_schema(request=CompleteSerializer, responses=InspectionSerializer)
    @action(detail=True, methods=["post"])
    def complete(self, request: Request, pk: str | None = None) -> Response:
        """Record the inspection with the credentials shown and every checklist answer."""
        inspection = self.get_object()
        services.require_performer(request.user, "Completing an inspection")
        body = CompleteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        wanted = set(d.pop("samples"))
        samples = list(SamplingEvent.objects.filter(pk__in=wanted))
        if len(samples) != len(wanted):
            raise InvalidInput({"samples": ["No such sampling event."]})
        done = services.complete(inspection, request.user, samples=samples, **d)
        return self._done(done)

    @extend_schema(request=ReasonSerializer, responses=InspectionSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        inspection = self.get_object()
        body = ReasonSerializer(data=request.data)
        services.require_performer(request.user, "Cancelling an inspection")
        body.is_valid(raise_exception=True)
        return self._done(services.cancel(inspection, request.user, body.validated_data["reason"]))

    @extend_schema(request=AddendumInputSerializer, responses={201: InspectionSerializer})
    @action(detail=True, methods=["post"])
    def addenda(self, request: Request, pk: str | None = None) -> Response:
        inspection = self.get_object()
        services.require_performer(request.user, "Adding an addendum")
        body = AddendumInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.add_addendum(inspection, request.user, body.validated_data["text"])
        return self._done(inspection, status.HTTP_201_CREATED)

    @extend_schema(
        request={"multipart/form-data": PhotoSerializer}, responses={201: InspectionSerializer}
    )
    @action(detail=True, methods=["post"])
    def photos(self, request: Request, pk: str | None = None) -> Response:
        inspection = self.get_object()
        services.require_performer(request.user, "Adding a photo")
        body = PhotoSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.add_photo(
            inspection, request.user, body.validated_data["photo"], body.validated_data["title"]
        )
        return self._done(inspection, status.HTTP_201_CREATED)

    @extend_schema(request=AgencyInput, responses={201: InspectionSerializer})
    @action(detail=True, methods=["post"], url_path="agency-inspectors")
    def agency_inspectors(self, request: Request, pk: str | None = None) -> Response:
        """Record an EPA, DEC or County Health inspector taking part (§ 196-21 A)."""
        inspection = self.get_object()
        services.require_performer(request.user, "Recording another agency's inspector")
        body = AgencyInput(data=request.data)
        body.is_valid(raise_exception=True)
        entry.add_agency_inspector(inspection, request.user, **body.validated_data)
        return self._done(inspection, status.HTTP_201_CREATED)

    @extend_schema(request=RefusalInput, responses={201: InspectionSerializer})
    @action(detail=True, methods=["post"])
    def refusal(self, request: Request, pk: str | None = None) -> Response:
        """Record a refusal of entry; its finding (§ 196-21 A) is what a violation opens from."""
        inspection = self.get_object()
        services.require_performer(request.user, "Recording a refusal of entry")
        body = RefusalInput(data=request.data)
        body.is_valid(raise_exception=True)
        entry.record_refusal(inspection, request.user, **body.validated_data)
        return self._done(inspection, status.HTTP_201_CREATED)

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"])
    def report(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The printable inspection report (PDF)."""
        inspection = self.get_object()
        response: HttpResponse = report_response(inspection, request.user)
        return response


#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = [("inspections", InspectionViewSet, "inspection")]
#: extra paths under /api/
PATHS: list[URLPattern] = []
