"""The map of parcels and districts (Leaflet) and the GeoJSON it draws. Staff read it; without
JavaScript, the page is a table of the parcels (paged, downloadable)."""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict

from django.conf import settings
from django.db.models import Max, Min
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from sewer_io.orpts import CODES
from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.paging import page_of
from sewer_office.registry.models import Property, ServiceArea

PAGE_SIZE = 50
#: The most parcels the map's JSON gives for one view; zoomed out further, the map says how
#: many there are and asks to zoom in (a county has 100,000).
MAP_PARCELS = 2000


class DistrictProperties(TypedDict):
    kind: Literal["district"]
    code: str
    name: str


#: "class": the roll's property class code (a keyword of Python, hence this form)
ParcelProperties = TypedDict(
    "ParcelProperties",
    {
        "kind": Literal["parcel"],
        "id": int,
        "parcel_id": str,
        "address": str,
        "owner": str | None,
        "class": str,
    },
)


class Feature(TypedDict):
    """One GeoJSON feature: its geometry as stored (parsed GeoJSON), and what the map labels."""

    type: Literal["Feature"]
    geometry: Any
    properties: DistrictProperties | ParcelProperties


class MapData(TypedDict):
    """The map's JSON: a GeoJSON FeatureCollection with the extent of every parcel
    (``[west, south, east, north]``, None without one), the cap, and, for a bbox, how many
    parcels lie in view."""

    type: Literal["FeatureCollection"]
    features: list[Feature]
    extent: list[float] | None
    cap: int
    in_view: NotRequired[int]


PARCEL_COLUMNS = (
    Column("Tax parcel id", "parcel_id"),
    # identifiers written with digits: kept as text, with their separator and label
    Column("Roll key (SWIS/SBL)", lambda p: f"{p.swis}/{p.sbl}"),
    Column("Class", lambda p: f"{p.property_class} {CODES.get(p.property_class, '')}".strip()),
    Column("Address", "address"),
    Column("Owner", "owner.name"),
    Column("Service area", lambda p: p.service_area.name if p.service_area else ""),
    Column("Longitude", "lon"),
    Column("Latitude", "lat"),
)


@office_view(*STAFF_ROLES)
def map_page(request: HttpRequest) -> HttpResponse:
    """The map (Leaflet) of parcels and districts; without JavaScript, the parcels' table."""
    qs = (
        Property.objects.exclude(geometry="")
        .select_related("owner", "service_area")
        .order_by("parcel_id")
    )
    if (download := export(request, qs, PARCEL_COLUMNS, "parcels")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "parcels/map.html",
        {
            "page": page,
            "query": query,
            "areas": ServiceArea.objects.exclude(boundary="").order_by("code"),
            "tile_url": settings.SEWER_USE_MAP_TILE_URL,
            "tile_attribution": settings.SEWER_USE_MAP_TILE_ATTRIBUTION,
            "cap": MAP_PARCELS,
        },
    )


def _bbox(text: str) -> tuple[float, float, float, float] | None:
    try:
        w, s, e, n = (float(x) for x in text.split(","))
    except ValueError:
        return None
    if not (-180 <= w <= e <= 180 and -90 <= s <= n <= 90):
        return None
    return w, s, e, n


@require_GET
@office_view(*STAFF_ROLES)
def map_data(request: HttpRequest) -> HttpResponse:
    """GeoJSON of the districts and of the parcels whose point lies in ``?bbox=w,s,e,n``
    (at most :data:`MAP_PARCELS`; more in view: none, with their number). Without a bbox:
    the districts, the extent of every parcel, and no parcel."""
    with_points = Property.objects.exclude(geometry="").filter(lon__isnull=False)
    features: list[Feature] = []
    for area in ServiceArea.objects.exclude(boundary="").order_by("code"):
        features.append(
            {
                "type": "Feature",
                "geometry": json.loads(area.boundary),
                "properties": {"kind": "district", "code": area.code, "name": area.name},
            }
        )
    extent = with_points.aggregate(w=Min("lon"), s=Min("lat"), e=Max("lon"), n=Max("lat"))
    body: MapData = {
        "type": "FeatureCollection",
        "features": features,
        "extent": [extent["w"], extent["s"], extent["e"], extent["n"]]
        if extent["w"] is not None
        else None,
        "cap": MAP_PARCELS,
    }
    raw = request.GET.get("bbox", "")
    if raw:
        box = _bbox(raw)
        if box is None:
            return JsonResponse(
                {"detail": "bbox: four numbers west,south,east,north in degrees"}, status=400
            )
        w, s, e, n = box
        inside = with_points.filter(lon__gte=w, lon__lte=e, lat__gte=s, lat__lte=n)
        total = inside.count()
        body["in_view"] = total
        if total <= MAP_PARCELS:
            for pk, parcel, address, owner, cls, geometry in inside.order_by("id").values_list(
                "id", "parcel_id", "address", "owner__name", "property_class", "geometry"
            ):
                features.append(
                    {
                        "type": "Feature",
                        "geometry": json.loads(geometry),
                        "properties": {
                            "kind": "parcel",
                            "id": pk,
                            "parcel_id": parcel,
                            "address": address,
                            "owner": owner,
                            "class": cls,
                        },
                    }
                )
    return JsonResponse(body)
