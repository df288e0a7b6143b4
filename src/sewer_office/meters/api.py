"""API of the meters app: meters, their uploads of readings, slug events and their reports.

- ``GET /api/meters/``, ``GET /api/meters/{id}/``; ``POST /api/meters/{id}/readings/``
  (multipart ``file``, CSV or Parquet) → 201 with counts and the slugs and excursions found,
  400 with every failing row and field (nothing stored).
- ``GET /api/meters/uploads/``, ``GET /api/meters/uploads/{id}/``.
- ``GET /api/meters/slugs/`` (filter ``meter``, ``establishment``, ``reported``),
  ``GET /api/meters/slugs/{id}/``; ``POST /api/meters/slugs/{id}/reports/`` records the
  user's report (§ 196-19 D(9)(d)).

Outside users see their own facilities' meters only (another's is 404), and may upload
their own meters' readings and report their own slugs.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import URLPattern
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.api.parsers import JSONParser
from sewer_office.core.errors import InvalidInput
from sewer_office.monitoring.models import SamplingPoint

from . import services
from .baselines import record_meter_baseline
from .choices import ReportChannel
from .files import stored_upload
from .filters import SlugFilter
from .models import Meter, MeterBaseline, ReadingUpload, SlugEvent, SlugReport


class MeterSerializer(serializers.ModelSerializer[Meter]):
    establishment = serializers.IntegerField(source="sampling_point.establishment_id")
    sampling_point_code = serializers.CharField(source="sampling_point.code")

    class Meta:
        model = Meter
        fields = (
            "id",
            "ident",
            "sampling_point",
            "sampling_point_code",
            "establishment",
            "parameter",
            "unit",
            "description",
            "max_gap_seconds",
            "active",
        )


class UploadSerializer(serializers.ModelSerializer[ReadingUpload]):
    class Meta:
        model = ReadingUpload
        fields = (
            "id",
            "meter",
            "source_name",
            "sha256",
            "uploaded_at",
            "first_at",
            "last_at",
            "count",
            "missing",
            "unjudged",
            "slug_count",
            "excursion_count",
            "jurisdiction",
            "parameters_version",
        )


class SlugReportSerializer(serializers.ModelSerializer[SlugReport]):
    class Meta:
        model = SlugReport
        fields = ("id", "reported_at", "channel", "text", "received_by", "reported_by")
        read_only_fields = ("received_by", "reported_by")


class SlugEventSerializer(serializers.ModelSerializer[SlugEvent]):
    meter_ident = serializers.CharField(source="meter.ident", read_only=True)
    reports = SlugReportSerializer(many=True, read_only=True)
    duration_minutes = serializers.FloatField(read_only=True)

    class Meta:
        model = SlugEvent
        fields = (
            "id",
            "meter",
            "meter_ident",
            "start",
            "end",
            "duration_minutes",
            "peak",
            "baseline",
            "threshold",
            "baseline_carried_from",
            "unit",
            "readings",
            "citation",
            "report_citation",
            "flagged_unreported_at",
            "found_by",
            "superseded_by",
            "reports",
        )


class MeterBaselineSerializer(serializers.ModelSerializer[MeterBaseline]):
    class Meta:
        model = MeterBaseline
        fields = ("id", "meter", "value", "effective_from", "authority", "recorded_at")


class BaselineBody(serializers.Serializer[Any]):
    value = serializers.CharField(max_length=100)
    effective_from = serializers.DateTimeField()
    authority = serializers.CharField(max_length=300)


class MeterRegistration(serializers.Serializer[Any]):
    sampling_point = serializers.IntegerField()
    ident = serializers.CharField(max_length=60)
    parameter = serializers.CharField(max_length=40)
    unit = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    description = serializers.CharField(required=False, allow_blank=True, default="")
    max_gap_seconds = serializers.IntegerField(
        required=False, min_value=1, allow_null=True, default=None
    )


class MeterViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[Meter]):
    """Meters; ``POST`` registers one at a sampling point (Superintendent or engineer)."""

    serializer_class = MeterSerializer
    filterset_fields = ("sampling_point", "parameter", "active")
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[Meter]:
        return visible(Meter.objects.select_related("sampling_point"), self.request.user)

    @extend_schema(request=MeterRegistration, responses={201: MeterSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = MeterRegistration(data=request.data)
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        d = dict(body.validated_data)
        point = visible(SamplingPoint.objects.all(), request.user).filter(
            pk=d.pop("sampling_point")
        )
        if not point.exists():
            raise InvalidInput({"sampling_point": ["unknown sampling point"]})
        meter = services.register_meter(request.user, sampling_point=point.get(), **d)
        return Response(MeterSerializer(meter).data, status=201)

    @extend_schema(
        request={
            "multipart/form-data": inline_serializer(
                "ReadingsFile", {"file": serializers.FileField()}
            )
        },
        responses={
            201: inline_serializer("ReadingsStored", {"id": serializers.IntegerField()}),
            400: inline_serializer(
                "ReadingsRefused",
                {
                    "detail": serializers.CharField(),
                    # by row; absent when the file itself is refused (its name, kind or size)
                    "errors": serializers.ListField(required=False),
                    "errors_total": serializers.IntegerField(required=False),
                },
            ),
        },
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="readings",
        parser_classes=[MultiPartParser, FormParser],
    )
    def readings(self, request: Request, pk: str | None = None) -> Response:
        """Append a readings file (CSV or Parquet) and judge it; all or nothing."""
        meter = self.get_object()
        upload = request.FILES.get("file")
        if upload is None:
            return Response({"detail": 'send the readings as the multipart field "file"'}, 400)
        try:
            with stored_upload(upload) as path:
                result = services.upload_readings(
                    meter, path, request.user, source_name=upload.name
                )
        except services.UploadRefused as e:
            return Response(
                {"detail": e.message, "errors": e.as_list(), "errors_total": e.total}, status=400
            )
        return Response(result.as_dict(), status=201)

    @extend_schema(
        request=BaselineBody,
        responses={200: MeterBaselineSerializer(many=True), 201: MeterBaselineSerializer},
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path="baselines",
        parser_classes=[JSONParser, FormParser, MultiPartParser],
        pagination_class=None,  # a meter's few baselines, whole (and so in the schema)
    )
    def baselines(self, request: Request, pk: str | None = None) -> Response:
        """The meter's fixed baselines (§ 196-15 SLUG); ``POST`` records one from an instant
        on (Superintendent or engineer), as the approval or the Town's decision sets it."""
        meter = self.get_object()
        if request.method == "GET":
            return Response(MeterBaselineSerializer(meter.baselines.all(), many=True).data)
        body = BaselineBody(data=request.data)
        body.is_valid(raise_exception=True)
        record = record_meter_baseline(meter, request.user, **body.validated_data)
        return Response(MeterBaselineSerializer(record).data, status=201)


class UploadViewSet(viewsets.ReadOnlyModelViewSet[ReadingUpload]):
    serializer_class = UploadSerializer
    filterset_fields = ("meter",)

    def get_queryset(self) -> QuerySet[ReadingUpload]:
        return visible(ReadingUpload.objects.all(), self.request.user)


class ReportBody(serializers.Serializer[Any]):
    reported_at = serializers.DateTimeField()
    channel = serializers.ChoiceField(choices=ReportChannel.choices)
    text = serializers.CharField(required=False, allow_blank=True, default="")


class SlugEventViewSet(viewsets.ReadOnlyModelViewSet[SlugEvent]):
    serializer_class = SlugEventSerializer
    filterset_class = SlugFilter

    def get_queryset(self) -> QuerySet[SlugEvent]:
        return visible(
            SlugEvent.objects.select_related("meter").prefetch_related("reports"),
            self.request.user,
        )

    @extend_schema(request=ReportBody, responses={201: SlugReportSerializer})
    @action(
        detail=True,
        methods=["post"],
        url_path="reports",
        parser_classes=[JSONParser, FormParser, MultiPartParser],
    )
    def reports(self, request: Request, pk: str | None = None) -> Response:
        """Record the user's report of this slug (§ 196-19 D(9)(d)) with its time."""
        slug = self.get_object()
        body = ReportBody(data=request.data)
        body.is_valid(raise_exception=True)
        report = services.record_slug_report(slug, request.user, **body.validated_data)
        return Response(SlugReportSerializer(report).data, status=201)


#: (prefix under /api/, viewset, basename); the sub-prefixes before the meters' own.
ROUTES: list[tuple[str, Any, str]] = [
    ("meters/uploads", UploadViewSet, "meters-upload"),
    ("meters/slugs", SlugEventViewSet, "meters-slug"),
    ("meters", MeterViewSet, "meters-meter"),
]
#: extra paths under /api/
PATHS: list[URLPattern] = []
