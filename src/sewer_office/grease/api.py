"""API of the grease app, under ``/api/grease/...``.

- ``grease/interceptors/`` — list, detail (with the cleaning clock and sizing check); create by
  staff (Superintendent, engineer, Building Inspector), with optional sizing inputs.
- ``grease/pump-outs/`` — list (``?interceptor=``), create (staff, or the establishment's own
  user), ``{id}/void/`` (POST, with a reason).
- ``grease/overdue/`` — overdue interceptors today.
- ``grease/sizing-check/`` — POST: the sizing computation under the method in force, not stored.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import URLPattern, path
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action, api_view
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.core.errors import InvalidInput
from sewer_office.permits.models import InterceptorRequirement
from sewer_office.registry.models import Establishment

from . import installations, rules, services
from .choices import InterceptorKind
from .filters import InterceptorFilter
from .models import GreaseInterceptor, PumpOut, SizingCheck


class SizingCheckSerializer(serializers.ModelSerializer[SizingCheck]):
    class Meta:
        model = SizingCheck
        fields = (
            "method",
            "fixture_volume_in3",
            "drain_minutes",
            "dfu",
            "installed_value",
            "computed_size",
            "passed",
            "determination",
            "citation",
            "message",
            "details",
            "judged_on",
            "parameter",
            "effective",
            "parameters_version",
        )


class InterceptorSerializer(serializers.ModelSerializer[GreaseInterceptor]):
    establishment_name = serializers.CharField(source="establishment.name", read_only=True)
    # null for an installation registered without sizing inputs (and declared so)
    sizing_check = SizingCheckSerializer(read_only=True, allow_null=True)
    cleaning = serializers.SerializerMethodField()
    citation = serializers.CharField(read_only=True)

    class Meta:
        model = GreaseInterceptor
        fields = (
            "id",
            "establishment",
            "establishment_name",
            "requirement",
            "kind",
            "citation",
            "make_model",
            "rated_gpm",
            "grease_capacity_lb",
            "capacity_gal",
            "location",
            "accessible",
            "access_note",
            "installed_on",
            "cleaning_interval_days",
            "active",
            "removed_on",
            "sizing_check",
            "cleaning",
        )

    def get_cleaning(self, obj: GreaseInterceptor) -> dict[str, Any] | None:
        if not obj.active:
            return None
        return dict(services.status_of(obj, timezone.localdate()).as_dict())


class InterceptorCreateSerializer(serializers.Serializer[Any]):
    establishment = serializers.IntegerField()
    requirement = serializers.IntegerField(required=False, allow_null=True)
    kind = serializers.ChoiceField(choices=InterceptorKind.choices)
    make_model = serializers.CharField(required=False, allow_blank=True, default="")
    rated_gpm = serializers.DecimalField(7, 1, required=False, allow_null=True)
    grease_capacity_lb = serializers.DecimalField(7, 1, required=False, allow_null=True)
    capacity_gal = serializers.DecimalField(9, 1, required=False, allow_null=True)
    location = serializers.CharField()
    accessible = serializers.BooleanField(default=False)
    access_note = serializers.CharField(required=False, allow_blank=True, default="")
    installed_on = serializers.DateField(required=False, allow_null=True)
    cleaning_interval_days = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    fixture_volume_in3 = serializers.DecimalField(12, 2, required=False, allow_null=True)
    drain_minutes = serializers.ChoiceField(choices=rules.PDI_DRAIN_MINUTES, default=1)
    dfu = serializers.IntegerField(required=False, allow_null=True, min_value=0)


class InterceptorViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[GreaseInterceptor],
):
    serializer_class = InterceptorSerializer
    filterset_class = InterceptorFilter

    def get_queryset(self) -> QuerySet[GreaseInterceptor]:
        return visible(
            GreaseInterceptor.objects.select_related("establishment", "sizing_check").order_by(
                "id"
            ),
            self.request.user,
        )

    @extend_schema(request=InterceptorCreateSerializer, responses=InterceptorSerializer)
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Register an installation (staff), with its sizing check when inputs are given."""
        services.require_staff(request.user, "Registering a grease trap or interceptor")
        body = InterceptorCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        est = Establishment.objects.filter(pk=d.pop("establishment")).first()
        if est is None:
            raise InvalidInput({"establishment": ["No such establishment."]})
        req_id = d.pop("requirement", None)
        requirement = None
        if req_id is not None:
            requirement = InterceptorRequirement.objects.filter(pk=req_id).first()
            if requirement is None:
                raise InvalidInput({"requirement": ["No such requirement."]})
        trap = installations.register_interceptor(
            request.user, establishment=est, requirement=requirement, **d
        )
        return Response(InterceptorSerializer(trap).data, status=201)


class PumpOutSerializer(serializers.ModelSerializer[PumpOut]):
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True)

    class Meta:
        model = PumpOut
        fields = (
            "id",
            "interceptor",
            "pumped_on",
            "hauler_name",
            "hauler_permit",
            "volume_gal",
            "grease_depth_in",
            "grease_percent",
            "manifest_number",
            "notes",
            "recorded_by",
            "recorded_at",
            "voided",
            "voided_at",
            "void_reason",
        )
        read_only_fields = ("recorded_at", "voided", "voided_at", "void_reason")


class VoidSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField()


class PumpOutViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[PumpOut],
):
    serializer_class = PumpOutSerializer
    filterset_fields = ("interceptor", "voided")

    def get_queryset(self) -> QuerySet[PumpOut]:
        return visible(
            PumpOut.objects.select_related("recorded_by").order_by("-pumped_on", "-id"),
            self.request.user,
        )

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Record a pump-out (staff, or the establishment's own user for its interceptors)."""
        body = PumpOutSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = dict(body.validated_data)
        trap = d.pop("interceptor")
        if not visible(GreaseInterceptor.objects.filter(pk=trap.pk), request.user).exists():
            raise Http404
        pump = services.record_pump_out(request.user, trap, **d)
        return Response(PumpOutSerializer(pump).data, status=201)

    @extend_schema(request=VoidSerializer, responses=PumpOutSerializer)
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Void a mistaken record with a reason: it stays, marked void."""
        pump = self.get_object()
        body = VoidSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        pump = services.void_pump_out(request.user, pump, body.validated_data["reason"])
        return Response(PumpOutSerializer(pump).data)


class SizingRequestSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=("hydromechanical", "gravity"))
    fixture_volume_in3 = serializers.DecimalField(12, 2, required=False, allow_null=True)
    drain_minutes = serializers.ChoiceField(choices=rules.PDI_DRAIN_MINUTES, default=1)
    dfu = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    installed = serializers.DecimalField(
        9, 1, required=False, allow_null=True, help_text="rated gpm, or gallons for gravity"
    )
    on = serializers.DateField(required=False, allow_null=True)
    jurisdiction = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="the town whose method applies (default: the one town you act for)",
    )


def _overdue_row(c: services.Clocked) -> dict[str, Any]:
    return {
        "interceptor": c.trap.pk,
        "establishment": c.trap.establishment_id,
        "establishment_name": c.trap.establishment.name,
        "kind": c.trap.kind,
        "note": services.interval_sentence(c.status),
        **c.status.as_dict(),
    }


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def overdue(request: Request) -> Response:
    """Active interceptors overdue for a pump-out today (and those never pumped, undated)."""
    today = timezone.localdate()
    traps = visible(GreaseInterceptor.objects.all(), request.user)
    return Response(
        {
            "as_of": today.isoformat(),
            "citation": services.CITATION,
            "results": [_overdue_row(c) for c in services.overdue(traps, today)],
        }
    )


@extend_schema(request=SizingRequestSerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def sizing_check(request: Request) -> Response:
    """The § 196-19 F(2) sizing computation under the town's method in force; nothing is
    stored."""
    body = SizingRequestSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    d = body.validated_data
    town = services.sizing_town(request.user, d["jurisdiction"])
    on: date = d.get("on") or timezone.localdate()
    check = rules.size(
        rules.SizingInput(
            d["method"],
            fixture_volume_in3=d.get("fixture_volume_in3"),
            drain_minutes=int(d["drain_minutes"]),
            dfu=d.get("dfu"),
            installed=d.get("installed"),
        ),
        on,
        town=town,
    )
    return Response(
        {
            "date": on.isoformat(),
            "jurisdiction": town,
            "parameters_version": rules.params(town).version,
            "computed_size": rules.computed_size(check),
            "check": check.as_dict(),
        }
    )


#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = [
    ("grease/interceptors", InterceptorViewSet, "grease-interceptor"),
    ("grease/pump-outs", PumpOutViewSet, "grease-pump-out"),
]
#: extra paths under /api/
PATHS: list[URLPattern] = [
    path("grease/overdue/", overdue, name="grease-overdue"),
    path("grease/sizing-check/", sizing_check, name="grease-sizing-check"),
]
