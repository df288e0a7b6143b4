"""API of sampling and laboratory results, under ``/api/monitoring/``.

- ``imports/`` — list; ``POST`` a laboratory file (multipart ``file``, ``dry_run``): 201 with
  the report when stored, 200 for a valid dry run, 400 with every failing row and field, 409
  when the file was already imported. Outside users upload their own facility's
  self-monitoring results (any other facility code is a failing row).
- ``results/`` — list (filters: facility, parameter, status, state, sampled_from/to), detail
  with findings; ``POST results/{id}/correct/`` and ``POST imports/{id}/approve/`` (officers).
- ``findings/`` — list (filters: facility, kind, status, review — ``open`` for current new or
  acknowledged ones, as the page —, current);
  ``POST findings/{id}/review/``.
- ``sampling-points/``, ``sampling-events/``, ``limits/`` (``POST`` by officers).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import URLPattern
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.api.parsers import JSONParser
from sewer_office.core.errors import InvalidInput
from sewer_office.findings.models import Finding
from sewer_office.findings.opinions import record_opinion
from sewer_office.findings.services import review_finding
from sewer_office.registry.models import Establishment

from . import sampling, services
from . import serializers as s
from .filters import FindingFilter, LabResultFilter
from .lab_files import read_upload
from .lab_import import UnusableFile, import_lab_file, source_for
from .models import DischargeLimit, LabImport, LabResult, SamplingEvent, SamplingPoint

TAGS = ["Sampling and results"]


def _code(request: Request) -> str:
    return request.query_params.get("facility", "").strip().upper()


@extend_schema(tags=TAGS)
class LabImportViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[LabImport]):
    serializer_class = s.LabImportSerializer
    parser_classes = (MultiPartParser, FormParser, JSONParser)

    def get_queryset(self) -> QuerySet[LabImport]:
        return visible(LabImport.objects.select_related("imported_by"), self.request.user)

    def get_serializer_class(self) -> Any:
        return s.UploadSerializer if self.action == "create" else s.LabImportSerializer

    @extend_schema(
        request={"multipart/form-data": s.UploadSerializer},
        responses={
            201: OpenApiResponse(description="stored: the import report"),
            200: OpenApiResponse(description="dry run: valid, nothing stored"),
            400: OpenApiResponse(description="refused: every failing row and field"),
            409: OpenApiResponse(description="this file was already imported"),
        },
        summary="Import a laboratory file (all or nothing)",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = s.UploadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        upload = body.validated_data["file"]
        try:
            report = import_lab_file(
                read_upload(upload),
                upload.name,
                request.user,
                dry_run=body.validated_data["dry_run"],
                source=source_for(request.user),
                sampler=body.validated_data["sampler"],
            )
        except UnusableFile as e:
            return Response({"detail": str(e)}, status=status.HTTP_400_BAD_REQUEST)
        data = report.as_dict()
        if report.refused and not report.errors:
            return Response(data, status=status.HTTP_409_CONFLICT)
        if not report.ok:
            return Response(data, status=status.HTTP_400_BAD_REQUEST)
        return Response(data, status=status.HTTP_201_CREATED if report.stored else 200)

    @extend_schema(request=s.ApproveSerializer, responses={200: OpenApiResponse()})
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        """Approve the import's reported results (Superintendent or engineer)."""
        imp = self.get_object()
        body = s.ApproveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        n = services.approve_results(imp.results.all(), request.user, body.validated_data["note"])
        return Response({"approved": n})


@extend_schema(tags=TAGS)
class LabResultViewSet(viewsets.ReadOnlyModelViewSet[LabResult]):
    serializer_class = s.LabResultSerializer
    filterset_class = LabResultFilter

    def get_queryset(self) -> QuerySet[LabResult]:
        qs = visible(
            LabResult.objects.select_related("establishment", "event").prefetch_related(
                "corrections"
            ),
            self.request.user,
        ).order_by("-sampled_at", "id")
        if self.action == "retrieve":
            qs = qs.prefetch_related("findings")
        return qs

    def get_serializer_class(self) -> Any:
        return s.LabResultDetailSerializer if self.action == "retrieve" else s.LabResultSerializer

    @extend_schema(request=s.CorrectionSerializer, responses={201: s.LabResultDetailSerializer})
    @action(detail=True, methods=["post"])
    def correct(self, request: Request, pk: str | None = None) -> Response:
        """A correction: a new result supersedes this one, with a reason, and is evaluated."""
        result = self.get_object()
        body = s.CorrectionSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        new = services.correct_result(result, request.user, **body.validated_data)
        return Response(s.LabResultDetailSerializer(new).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS)
class FindingViewSet(viewsets.ReadOnlyModelViewSet[Finding]):
    serializer_class = s.FindingSerializer
    filterset_class = FindingFilter

    def get_queryset(self) -> QuerySet[Finding]:
        qs = visible(Finding.objects.select_related("establishment"), self.request.user)
        return qs.order_by("-observed_at", "-id")

    @extend_schema(request=s.ReviewSerializer, responses=s.FindingSerializer)
    @action(detail=True, methods=["post"])
    def review(self, request: Request, pk: str | None = None) -> Response:
        """Acknowledge or close a finding (Superintendent or engineer)."""
        finding = self.get_object()
        body = s.ReviewSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        done = review_finding(
            finding, request.user, body.validated_data["review"], body.validated_data["note"]
        )
        return Response(s.FindingSerializer(done).data)

    @extend_schema(request=s.OpinionSerializer, responses={201: s.OpinionSerializer})
    @action(detail=True, methods=["post"])
    def opinion(self, request: Request, pk: str | None = None) -> Response:
        """Record whether harm appears likely (§ 196-19 D): what makes a result under review a
        violation to open (Superintendent or engineer)."""
        finding = self.get_object()
        body = s.OpinionSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        done = record_opinion(finding, request.user, **body.validated_data)
        return Response(
            {
                "id": done.pk,
                "finding": finding.pk,
                "harm_likely": done.harm_likely,
                "reasons": done.reasons,
                "recorded_by": done.recorded_by.get_username(),
                "recorded_at": done.recorded_at.isoformat(),
            },
            status=status.HTTP_201_CREATED,
        )


@extend_schema(tags=TAGS)
class SamplingPointViewSet(viewsets.ReadOnlyModelViewSet[SamplingPoint]):
    serializer_class = s.SamplingPointSerializer

    def get_queryset(self) -> QuerySet[SamplingPoint]:
        qs = visible(SamplingPoint.objects.select_related("establishment"), self.request.user)
        if _code(self.request):
            qs = qs.filter(establishment__code=_code(self.request))
        return qs.order_by("establishment", "code")


@extend_schema(tags=TAGS)
class SamplingEventViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[SamplingEvent]):
    """Samples; ``POST`` records one when it is taken (its results come with the lab's file)."""

    serializer_class = s.SamplingEventSerializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # who may record a sample, before the body is read (its validation could tell
        # an outside user of another facility's records)
        sampling.check_sampler(request.user)
        body = s.SamplingEventSerializer(data=request.data, context={"request": request})
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        d = dict(body.validated_data)
        est = d.pop("establishment")
        event = sampling.record_sampling_event(request.user, est, **d)
        return Response(s.SamplingEventSerializer(event).data, status=status.HTTP_201_CREATED)

    def get_queryset(self) -> QuerySet[SamplingEvent]:
        qs = visible(
            SamplingEvent.objects.select_related("establishment", "sampling_point"),
            self.request.user,
        )
        if _code(self.request):
            qs = qs.filter(establishment__code=_code(self.request))
        return qs.order_by("-collected_at", "-id")


@extend_schema(tags=TAGS)
class DischargeLimitViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[DischargeLimit]):
    serializer_class = s.DischargeLimitSerializer

    def get_queryset(self) -> QuerySet[DischargeLimit]:
        qs = visible(
            DischargeLimit.objects.select_related("establishment", "approval"), self.request.user
        )
        if _code(self.request):
            qs = qs.filter(establishment__code=_code(self.request))
        return qs.order_by("establishment", "parameter", "limit_type", "effective_from")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = s.DischargeLimitSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput({k: [str(m) for m in v] for k, v in body.errors.items()})
        d = dict(body.validated_data)
        est = d.pop("establishment")
        if not visible(Establishment.objects.filter(pk=est.pk), request.user).exists():
            raise InvalidInput({"establishment": ["unknown establishment"]})
        lim = sampling.add_discharge_limit(request.user, est, **d)
        return Response(s.DischargeLimitSerializer(lim).data, status=status.HTTP_201_CREATED)


#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = [
    ("monitoring/imports", LabImportViewSet, "monitoring-import"),
    ("monitoring/results", LabResultViewSet, "monitoring-result"),
    ("monitoring/findings", FindingViewSet, "monitoring-finding"),
    ("monitoring/sampling-points", SamplingPointViewSet, "monitoring-sampling-point"),
    ("monitoring/sampling-events", SamplingEventViewSet, "monitoring-sampling-event"),
    ("monitoring/limits", DischargeLimitViewSet, "monitoring-limit"),
]
#: extra paths under /api/
PATHS: list[URLPattern] = []
