"""The industrial approvals' API as a control mechanism (40 CFR 403.8(f)(1)(iii)(B)): the
record shows each element and its self-monitoring requirements; ``POST …/<id>/terms/``,
``…/self-monitoring/`` and ``…/icis-permit-id/`` record them through the services the page's
forms call, validated by the same forms."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.api.forms import form_data, form_serializer
from sewer_office.core.errors import InvalidInput

from .control_forms import IcisIdForm, SelfMonitoringForm, TermsForm
from .control_mechanism import elements_of
from .models import SelfMonitoringRequirement
from .services.control_terms import add_self_monitoring, record_icis_permit_id, record_terms

TAGS = ["Industrial discharge approvals"]


class SelfMonitoringSerializer(serializers.ModelSerializer[SelfMonitoringRequirement]):
    class Meta:
        model = SelfMonitoringRequirement
        fields = ("parameter", "sampling_point", "sample_type", "frequency", "events_per_year")


class ElementSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    title = serializers.CharField()
    citation = serializers.CharField()
    recorded = serializers.ListField(child=serializers.CharField())
    missing = serializers.ListField(child=serializers.CharField())


@extend_schema_field(ElementSerializer(many=True))
class ControlMechanismField(serializers.Field[Any, Any, Any, Any]):
    """Each element in order: what the approval records for it and what is missing."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["source"] = "*"
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> list[dict[str, Any]]:
        return [
            {
                "number": s.element.number,
                "title": s.element.title,
                "citation": s.element.citation,
                "recorded": [" · ".join(cells) for cells in s.rows] + s.recorded,
                "missing": s.missing,
            }
            for s in elements_of(value)
        ]


def serializer_fields() -> dict[str, Any]:
    """The fields the industrial approval's API record adds."""
    return {
        "self_monitoring": SelfMonitoringSerializer(many=True, read_only=True),
        "control_mechanism": ControlMechanismField(),
    }


def _valid(form: Any) -> dict[str, Any]:
    if not form.is_valid():
        raise InvalidInput({k: [str(m) for m in v] for k, v in form.errors.items()}, form)
    return dict(form.cleaned_data)


class ControlMechanismActions:
    """Mixed into the industrial approvals' viewset (``get_object`` narrows to what the user
    may see; the services check who may act)."""

    get_object: Any
    get_serializer: Any

    @extend_schema(
        tags=TAGS,
        summary="Record terms of the control mechanism (before the decision)",
        request=form_serializer(TermsForm, "ControlTermsRequest"),
    )
    @action(detail=True, methods=["post"], url_path="terms")
    def terms(self, request: Request, pk: str | None = None) -> Response:
        record = self.get_object()
        form = TermsForm(data=form_data(request.data), approval=record)
        _valid(form)
        record_terms(request.user, record, form.terms())
        return Response(self.get_serializer(self.get_object()).data)

    @extend_schema(
        tags=TAGS,
        summary="Add a self-monitoring requirement (before the decision)",
        request=form_serializer(SelfMonitoringForm, "SelfMonitoringRequest"),
    )
    @action(detail=True, methods=["post"], url_path="self-monitoring")
    def self_monitoring_add(self, request: Request, pk: str | None = None) -> Response:
        record = self.get_object()
        data = _valid(SelfMonitoringForm(form_data(request.data)))
        add_self_monitoring(request.user, record, **data)
        return Response(self.get_serializer(self.get_object()).data)

    @extend_schema(
        tags=TAGS,
        summary="Record the ICIS-NPDES permit identifier (once)",
        request=form_serializer(IcisIdForm, "IcisPermitIdRequest"),
    )
    @action(detail=True, methods=["post"], url_path="icis-permit-id")
    def icis_permit_id_record(self, request: Request, pk: str | None = None) -> Response:
        record = self.get_object()
        data = _valid(IcisIdForm(form_data(request.data)))
        record_icis_permit_id(request.user, record, data["icis_permit_id"])
        return Response(self.get_serializer(self.get_object()).data)
