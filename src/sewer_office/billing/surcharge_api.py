"""API of the surcharge: billing runs with their lines, and the records a surcharge rests on.

``GET /api/billing/runs/`` and ``/api/billing/runs/<id>/`` (staff; a run of several member
towns to those acting for each, :func:`.runs.seen_by`): a run with every line —
its status (``charged``, ``no_charge``, ``not_computable``, ``not_configured``, or
``no_decision``: "abnormal strength, no surcharge decision", listed and never billed), amount,
message and computation (the spans billed, each with its decision or agreement, daily values
and surcharge).

``GET /api/billing/surcharge-decisions/`` (staff; outside users their own facilities');
``POST`` (the Superintendent) ``{"establishment": 4, "basis": "instead_of_pretreatment",
"decided_on": "2026-02-10", "first_day": "2026-02-15", "last_day": null, "reasons": "...",
"reference": "", "supersedes": null, "supersede_reason": ""}`` records a § 196-19 E(1)(d)
decision; ``POST .../<id>/end/`` ``{"last_day": "2026-06-30", "reason": "..."}`` ends it.

``GET/POST /api/billing/surcharge-agreements/`` (``parties``, ``terms``, ``signed_on``,
``signed_by``, ``board_approval``, ``first_day``, ``last_day``, ``rate_bod``,
``rate_suspended_solids``, ``rate_grease_oil`` — blank rates: the Board's) records a § 196-19 J
agreement (the Superintendent or the clerk); ``POST .../<id>/end/`` ends it. Refusals answer
with the services' message (400, 403).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.errors import Forbidden
from sewer_office.registry.models import Establishment

from . import runs
from . import surcharge_basis as basis
from .models import (
    BillingRun,
    RunLine,
    SurchargeAgreement,
    SurchargeDecision,
    SurchargeEnding,
)

_RECORD_FIELDS = (
    "id",
    "establishment",
    "first_day",
    "last_day",
    "effective_last_day",
    "supersedes",
    "supersede_reason",
    "recorded_by",
    "recorded_at",
    "endings",
)


class RunLineSerializer(serializers.ModelSerializer[RunLine]):
    facility = serializers.CharField(source="establishment.name")
    status_text = serializers.CharField(source="get_status_display")

    class Meta:
        model = RunLine
        fields = (
            "id",
            "establishment",
            "facility",
            "person",
            "status",
            "status_text",
            "flow_source",
            "amount",
            "message",
            "computation",
        )


class RunSerializer(serializers.ModelSerializer[BillingRun]):
    lines = RunLineSerializer(many=True, read_only=True)

    class Meta:
        model = BillingRun
        fields = ("id", "period", "start", "end", "state", "jurisdiction", "total", "lines")


class EndingSerializer(serializers.ModelSerializer[SurchargeEnding]):
    class Meta:
        model = SurchargeEnding
        fields = ("last_day", "reason", "recorded_by", "recorded_at")


class DecisionSerializer(serializers.ModelSerializer[SurchargeDecision]):
    effective_last_day = serializers.DateField(read_only=True, allow_null=True)
    endings = EndingSerializer(many=True, read_only=True)

    class Meta:
        model = SurchargeDecision
        fields = (*_RECORD_FIELDS, "basis", "decided_on", "reasons", "reference")
        read_only_fields = ("recorded_by", "recorded_at")


class AgreementSerializer(serializers.ModelSerializer[SurchargeAgreement]):
    effective_last_day = serializers.DateField(read_only=True, allow_null=True)
    endings = EndingSerializer(many=True, read_only=True)

    class Meta:
        model = SurchargeAgreement
        fields = (
            *_RECORD_FIELDS,
            "parties",
            "terms",
            "signed_on",
            "signed_by",
            "board_approval",
            "rate_bod",
            "rate_suspended_solids",
            "rate_grease_oil",
        )
        read_only_fields = ("recorded_by", "recorded_at")


class EndingInput(serializers.Serializer[Any]):
    last_day = serializers.DateField()
    reason = serializers.CharField()


class RunViewSet(viewsets.ReadOnlyModelViewSet[BillingRun]):
    """Billing runs with every line, those listed for the Superintendent included (staff)."""

    serializer_class = RunSerializer

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return BillingRun.objects.none()
        if not is_staff_member(self.request.user):
            raise Forbidden("Billing runs are the office staff's.")
        found = BillingRun.objects.prefetch_related("lines__establishment")
        return runs.seen_by(found, self.request.user).order_by("-start", "-id")


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise serializers.ValidationError({"body": ["Send one JSON object."]})
    return request.data  # a JSON object, or a form's QueryDict (a dict whose .get is one value)


def _facility(request: Request) -> Establishment:
    pk = _body(request).get("establishment")
    facilities = visible(Establishment.objects.all(), request.user)
    est = facilities.filter(pk=int(str(pk))).first() if str(pk or "").isdigit() else None
    if est is None:
        raise serializers.ValidationError({"establishment": [f"No facility {pk!r}."]})
    return est


def _date(request: Request, name: str, required: bool = True) -> Any:
    field = serializers.DateField(required=required, allow_null=not required)
    value = _body(request).get(name)
    if value in (None, "") and not required:
        return None
    try:
        return field.run_validation(value)
    except serializers.ValidationError as e:
        raise serializers.ValidationError({name: e.detail}) from None


def _end(request: Request, record: basis.SurchargeRecord) -> Response:
    body = EndingInput(data=request.data)
    body.is_valid(raise_exception=True)
    basis.end_record(
        record,
        request.user,
        last_day=body.validated_data["last_day"],
        reason=body.validated_data["reason"],
    )
    record.refresh_from_db()
    return Response({"id": record.pk, "effective_last_day": record.effective_last_day()})


class DecisionViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[SurchargeDecision]):
    """§ 196-19 E(1)(d) decisions; recorded and ended by the Superintendent only."""

    serializer_class = DecisionSerializer

    def get_queryset(self) -> Any:
        qs = SurchargeDecision.objects.prefetch_related("endings", "successors")
        return visible(qs, self.request.user)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        d = _body(request)
        rec = basis.record_decision(
            _facility(request),
            request.user,
            basis=str(d.get("basis", "")),
            first_day=_date(request, "first_day"),
            last_day=_date(request, "last_day", required=False),
            decided_on=_date(request, "decided_on"),
            reasons=str(d.get("reasons", "")),
            reference=str(d.get("reference") or ""),
            supersedes=_record(SurchargeDecision, d.get("supersedes")),
            supersede_reason=str(d.get("supersede_reason") or ""),
        )
        return Response(DecisionSerializer(rec).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EndingInput)
    @action(detail=True, methods=["post"])
    def end(self, request: Request, pk: str | None = None) -> Response:
        """End the decision after ``last_day``, with the reason (the Superintendent)."""
        return _end(request, self.get_object())


class AgreementViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[SurchargeAgreement]):
    """§ 196-19 J agreements; recorded and ended by the Superintendent or the clerk."""

    serializer_class = AgreementSerializer

    def get_queryset(self) -> Any:
        qs = SurchargeAgreement.objects.prefetch_related("endings", "successors")
        return visible(qs, self.request.user)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        d = _body(request)
        rec = basis.record_agreement(
            _facility(request),
            request.user,
            parties=str(d.get("parties", "")),
            terms=str(d.get("terms", "")),
            first_day=_date(request, "first_day"),
            last_day=_date(request, "last_day", required=False),
            signed_on=_date(request, "signed_on"),
            signed_by=str(d.get("signed_by", "")),
            board_approval=str(d.get("board_approval", "")),
            rates={
                "bod": d.get("rate_bod"),
                "suspended_solids": d.get("rate_suspended_solids"),
                "grease_oil": d.get("rate_grease_oil"),
            },
            supersedes=_record(SurchargeAgreement, d.get("supersedes")),
            supersede_reason=str(d.get("supersede_reason") or ""),
        )
        return Response(AgreementSerializer(rec).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EndingInput)
    @action(detail=True, methods=["post"])
    def end(self, request: Request, pk: str | None = None) -> Response:
        """End the agreement after ``last_day``, with the reason."""
        return _end(request, self.get_object())


def _record(model: Any, pk: Any) -> Any:
    if pk in (None, ""):
        return None
    return get_object_or_404(model, pk=pk)


ROUTES: list[tuple[str, Any, str]] = [
    ("billing/runs", RunViewSet, "billing-run"),
    ("billing/surcharge-decisions", DecisionViewSet, "billing-surcharge-decision"),
    ("billing/surcharge-agreements", AgreementViewSet, "billing-surcharge-agreement"),
]
