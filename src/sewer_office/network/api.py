"""Network API: ``GET /api/network/trace/{manhole}/`` (the JSON of ``sewer-use trace``; staff
only, as the network page; ``?area=1`` adds the traced manholes and pipes the map highlights),
``GET /api/network/geojson/`` (the active network and its facilities for the map, staff only)
and ``POST /api/network/import/`` (Superintendent or engineer)."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from sewer_office.accounts.roles import is_staff_member
from sewer_office.api.permissions import OfficeUser
from sewer_office.core.errors import shorten, upload_refused

from . import map_layer, tracing
from . import services as ns


def _staff(request: Request) -> None:
    if not is_staff_member(request.user):
        raise PermissionDenied("The sewer network is shown to the office's staff only.")


@extend_schema(
    tags=["Network"],
    summary="Facilities and properties upstream of a manhole, nearest first",
    parameters=[
        OpenApiParameter("limit", int, description="at most this many parcels"),
        OpenApiParameter(
            "area", bool, description="add the traced manholes and pipes (for the map)"
        ),
    ],
    responses=inline_serializer(
        "UpstreamTrace",
        {"manhole": serializers.CharField(), "upstream": serializers.ListField()},
    ),
)
@api_view(["GET"])
@permission_classes([OfficeUser])
def trace(request: Request, manhole: str) -> Response:
    _staff(request)
    limit = request.query_params.get("limit")
    try:
        n = int(limit) if limit else None
    except ValueError:
        return Response({"detail": "limit must be a whole number"}, status=400)
    area = request.query_params.get("area", "").lower() in ("1", "true", "yes")
    return Response(tracing.trace(manhole, limit=n).as_dict(area=area))


@extend_schema(
    tags=["Network"],
    summary="The active network and its facilities as GeoJSON (for the map)",
    responses=inline_serializer(
        "NetworkMap",
        {
            "type": serializers.CharField(),
            "network": serializers.DictField(),
            "crs": serializers.DictField(),
            "features": serializers.ListField(),
        },
    ),
)
@api_view(["GET"])
@permission_classes([OfficeUser])
def network_geojson(request: Request) -> Response:
    _staff(request)
    data = map_layer.map_geojson()
    if data is None:
        return Response(
            {"detail": "No sewer network has been imported yet (sewer-use import-network)."},
            status=404,
        )
    # GeoJSON is JSON (RFC 7946); served as application/json, the type the schema declares
    return Response(data)


@extend_schema(
    tags=["Network"],
    summary="Import the sewer network (GeoJSON); all or nothing",
    request=inline_serializer(
        "NetworkImport",
        {"geojson": serializers.JSONField(), "replace": serializers.BooleanField(default=False)},
    ),
    responses=inline_serializer(
        "NetworkVersion",
        {
            "id": serializers.IntegerField(),
            "manholes": serializers.IntegerField(),
            "pipes": serializers.IntegerField(),
            "connections": serializers.IntegerField(),
            "replaces": serializers.IntegerField(allow_null=True),
        },
    ),
)
@api_view(["POST"])
@permission_classes([OfficeUser])
def import_network(request: Request) -> Response:
    data: Any = request.data
    geojson = data.get("geojson") if hasattr(data, "get") else None
    upload = request.FILES.get("file")
    name = str(getattr(upload, "name", "") or "")
    if upload is not None:
        refusal = upload_refused(name or "network", int(upload.size))
        if refusal:
            return Response({"detail": refusal}, status=400)
        geojson = upload.read()  # bytes: the service reads them as UTF-8 and names the file
    if geojson is None:
        return Response({"detail": 'send the network as "geojson" (JSON) or "file"'}, status=400)
    text = geojson if isinstance(geojson, str | bytes) else json.dumps(geojson)
    replace = str(data.get("replace", "")).lower() in ("1", "true", "yes", "on")
    try:
        version = ns.import_network(text, request.user, replace=replace, source_name=name)
    except ns.NetworkRefused as e:
        named = f"{shorten(name)}: " if name else ""
        return Response(
            {"detail": f"{named}refused, nothing stored", "errors": e.issues}, status=400
        )
    return Response(
        {
            "id": version.pk,
            "manholes": version.manhole_count,
            "pipes": version.pipe_count,
            "connections": version.connection_count,
            "replaces": version.replaces_id,
        },
        status=201,
    )
