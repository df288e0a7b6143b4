"""Permits API: one viewset per kind, generated from :data:`sewer_office.permits.kinds.KINDS`.

``GET /api/permits/<kind>/`` (filters shared with the web list), ``POST`` to file (validated
by the same form as the page), ``GET .../<id>/``, ``POST .../<id>/transitions/<name>/`` to make
a transition (same service as the page's buttons), ``GET .../<id>/timeline/``, and
``GET/POST .../<id>/files/``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.api.forms import form_data, form_serializer, reason_serializer
from sewer_office.api.parsers import JSONParser
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach_all
from sewer_office.core.errors import InvalidInput
from sewer_office.core.models import Attachment, AuditEvent
from sewer_office.core.services import perform

from . import control_api
from .kinds import KINDS, Kind, may_file
from .models import ApprovalCondition
from .services.common import may_upload


class AuditEventSerializer(serializers.ModelSerializer[AuditEvent]):
    class Meta:
        model = AuditEvent
        fields = (
            "at",
            "actor_name",
            "action",
            "state_from",
            "state_to",
            "reason",
            "citation",
            "before",
            "after",
        )


class ActionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    # a declared field (DRF's metaclass moves it to _declared_fields), not Field.label
    label = serializers.CharField()  # type: ignore[assignment]
    citation = serializers.CharField()
    reason_required = serializers.BooleanField()


class AttachmentSerializer(serializers.ModelSerializer[Attachment]):
    download = serializers.SerializerMethodField()
    filename = serializers.CharField(
        read_only=True, help_text="the sender's name, with the extension of the checked type"
    )

    class Meta:
        model = Attachment
        fields = (
            "id",
            "title",
            "filename",
            "media_type",
            "size",
            "sha256",
            "created_at",
            "download",
        )

    def get_download(self, obj: Attachment) -> str:
        return reverse("attachment-download", args=[obj.pk])


class ConditionSerializer(serializers.ModelSerializer[ApprovalCondition]):
    class Meta:
        model = ApprovalCondition
        fields = ("kind", "text", "citation")


def _serializer(kind: Kind) -> type[serializers.ModelSerializer[Any]]:
    class Meta:
        model = kind.model
        fields = "__all__"
        read_only_fields = tuple(f.name for f in kind.model._meta.concrete_fields)

    @extend_schema_field(ActionSerializer(many=True))
    def get_available_actions(self: Any, obj: Any) -> list[dict[str, Any]]:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        # Every record an outside user can reach is theirs (the queryset went through
        # ``visible``): say so, rather than asking the database once per row.
        owned = None if user is not None and is_staff_member(user) else True
        return [
            {
                "name": t.name,
                "label": t.label,
                "citation": t.citation,
                "reason_required": t.reason_required,
            }
            for t in obj.WORKFLOW.available(user, obj, owned)
        ]

    attrs: dict[str, Any] = {
        "Meta": Meta,
        "state_label": serializers.CharField(read_only=True),
        "available_actions": serializers.SerializerMethodField(),
        "get_available_actions": get_available_actions,
    }
    if kind.slug == "industrial":
        attrs["conditions"] = ConditionSerializer(many=True, read_only=True)
        attrs.update(control_api.serializer_fields())
    if kind.slug == "building-sewer":
        # the class by § 196-18 B's rule, shown before paying; a declared class that
        # disagrees is flagged; the fee is settled (paid or waived) when the application is filed
        attrs["class_text"] = serializers.CharField(read_only=True)
        attrs["charged_class"] = serializers.IntegerField(read_only=True)
        attrs["class_disagrees"] = serializers.BooleanField(read_only=True)
        attrs["fee_settled"] = serializers.BooleanField(read_only=True)
        attrs["fee_waiver_reason"] = serializers.CharField(read_only=True)
    name = kind.model.__name__ + "Serializer"
    return type(name, (serializers.ModelSerializer,), attrs)


def make_viewset(kind: Kind) -> type[viewsets.GenericViewSet[Any]]:
    """A viewset for one kind of application."""
    serializer = _serializer(kind)
    create_body = form_serializer(kind.form, kind.model.__name__ + "FilingRequest")
    tags = [kind.plural]

    class KindViewSet(viewsets.GenericViewSet[Any]):
        serializer_class = serializer
        filterset_class = kind.filterset
        parser_classes = (JSONParser, MultiPartParser, FormParser)
        lookup_value_regex = r"\d+"

        def get_queryset(self) -> Any:
            qs = kind.queryset()
            if kind.slug == "industrial":
                qs = qs.prefetch_related("conditions", "self_monitoring")
            return visible(qs, self.request.user).order_by("-filed_on", "-id")

        @extend_schema(tags=tags, summary=f"List {kind.plural.lower()}")
        def list(self, request: Request) -> Response:
            qs = self.filter_queryset(self.get_queryset())
            page = self.paginate_queryset(qs)
            return self.get_paginated_response(self.get_serializer(page, many=True).data)

        @extend_schema(tags=tags, summary=f"One {kind.label.lower()}")
        def retrieve(self, request: Request, pk: str | None = None) -> Response:
            return Response(self.get_serializer(self.get_object()).data)

        @extend_schema(
            tags=tags, summary=f"File a {kind.label.lower()} ({kind.citation})", request=create_body
        )
        def create(self, request: Request) -> Response:
            if not may_file(request.user, kind):
                raise PermissionDenied(
                    f"Filing a {kind.label.lower()} is for the applicant or the office."
                )
            form = kind.form(data=form_data(request.data), files=request.FILES, user=request.user)
            if not form.is_valid():
                raise InvalidInput({k: [str(m) for m in v] for k, v in form.errors.items()}, form)
            data = dict(form.cleaned_data)
            if "files" in form.fields:
                data["files"] = request.FILES.getlist("files")
            record = kind.create(request.user, data)
            return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)

        @extend_schema(
            tags=tags,
            summary="Make a transition (see available_actions)",
            request=reason_serializer(),
            parameters=[
                OpenApiParameter(
                    "name",
                    str,
                    OpenApiParameter.PATH,
                    enum=[t.name for t in kind.model.WORKFLOW.transitions],
                )
            ],
        )
        @action(detail=True, methods=["post"], url_path=r"transitions/(?P<name>[a-z_]+)")
        def transition(self, request: Request, pk: str | None = None, name: str = "") -> Response:
            record = self.get_object()
            data = form_data(request.data)
            reason = str(data.get("reason", ""))
            record = perform(
                record, name, request.user, data=data, files=request.FILES, reason=reason
            )
            return Response(self.get_serializer(record).data)

        @extend_schema(
            tags=tags, summary="The record's timeline", responses=AuditEventSerializer(many=True)
        )
        # Lists of one record's, whole: not paginated, not filtered (and declared so).
        @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
        def timeline(self, request: Request, pk: str | None = None) -> Response:
            record = self.get_object()
            return Response(AuditEventSerializer(audit.timeline(record), many=True).data)

        @extend_schema(
            tags=tags, summary="Files of the record", responses=AttachmentSerializer(many=True)
        )
        @action(
            detail=True,
            methods=["get", "post"],
            parser_classes=[MultiPartParser],
            pagination_class=None,
            filter_backends=[],
        )
        def files(self, request: Request, pk: str | None = None) -> Response:
            record = self.get_object()
            if request.method == "POST":
                if not may_upload(request.user, record):
                    raise PermissionDenied("You may not add files to this record.")
                attach_all(
                    record, request.FILES.getlist("files"), request.user, kinds=DOCUMENT_KINDS
                )
            ct = ContentType.objects.get_for_model(record)
            atts = Attachment.objects.filter(content_type=ct, object_id=str(record.pk))
            return Response(AttachmentSerializer(atts, many=True).data)

    viewset: type[viewsets.GenericViewSet[Any]] = KindViewSet
    if kind.slug == "industrial":
        # the control mechanism's terms, self-monitoring and ICIS-NPDES identifier
        viewset = type("KindViewSet", (control_api.ControlMechanismActions, KindViewSet), {})
    viewset.__name__ = kind.model.__name__ + "ViewSet"
    viewset.__qualname__ = viewset.__name__
    return viewset


VIEWSETS: dict[str, type[viewsets.GenericViewSet[Any]]] = {
    slug: make_viewset(k) for slug, k in KINDS.items()
}
