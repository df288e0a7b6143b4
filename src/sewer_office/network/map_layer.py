"""The network map's data: the active network as GeoJSON, each facility's point coloured by the
worst of its open findings, for the map page and its API.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from sewer_office.findings.choices import ReviewState
from sewer_office.findings.models import Finding
from sewer_office.registry.models import Establishment

from .services import CHUNK, active_network

#: Open findings: current, and still to be reviewed or under review.
OPEN_REVIEWS = (ReviewState.NEW, ReviewState.ACKNOWLEDGED)


def _severity(statuses: dict[str, int]) -> str:
    """The colour class of a facility on the map: ``prohibited`` (red) when one of its open
    findings is a prohibited discharge, ``review`` (amber) for any other open finding,
    ``compliant`` (green) when none is open."""
    if statuses.get("prohibited"):
        return "prohibited"
    return "review" if statuses else "compliant"


def open_findings_by_facility(establishment_ids: list[int]) -> dict[int, dict[str, int]]:
    """Open findings per facility and status: one grouped query per :data:`CHUNK` facilities."""
    out: dict[int, dict[str, int]] = {}
    for i in range(0, len(establishment_ids), CHUNK):
        rows = (
            Finding.objects.filter(
                establishment_id__in=establishment_ids[i : i + CHUNK],
                current=True,
                review__in=OPEN_REVIEWS,
            )
            .values_list("establishment_id", "status")
            .annotate(n=models.Count("id"))
            .order_by()
        )
        for est_id, status, n in rows:
            out.setdefault(est_id, {})[status] = n
    return out


def map_geojson() -> dict[str, Any] | None:
    """The active network as one GeoJSON FeatureCollection for the map, or None when no network
    was imported: manholes (``kind`` manhole), pipes (``kind`` pipe) and the facilities connected
    to it (``kind`` facility, at their connection's point, else at the manhole they enter),
    each with its open findings by status and a ``severity`` for its colour.

    Coordinates are longitude/latitude (Web Mercator files converted); a planar file keeps its
    grid coordinates and says so in ``crs`` (the map then draws it without a background).
    Queries: the version, the facilities connected (chunks of :data:`CHUNK` parcels), their open
    findings (one grouped query per chunk) — none per manhole or per pipe.
    """
    found = active_network()
    if found is None:
        return None
    version, net = found
    crs = net.crs
    planar = crs.kind == "planar"

    def xy(p: tuple[float, float]) -> list[float]:
        return list(p) if planar or crs.kind == "geographic" else list(crs.lonlat(p))

    features: list[dict[str, Any]] = []
    for m in net.manholes.values():
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": xy(m.position)},
                "properties": {"kind": "manhole", "id": m.id, "public": m.public},
            }
        )
    for p in net.pipes.values():
        props: dict[str, Any] = {
            "kind": "pipe",
            "id": p.id,
            "from": p.from_manhole,
            "to": p.to_manhole,
            "public": p.public,
        }
        if p.diameter_in is not None:
            d = p.diameter_in
            props["diameter_in"] = str(d.quantize(1) if d == d.to_integral_value() else d)
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "LineString", "coordinates": [xy(c) for c in p.coordinates]},
                "properties": props,
            }
        )
    where: dict[str, tuple[float, float]] = {}
    for c in net.connections:
        if c.parcel not in where:
            where[c.parcel] = c.position or net.manholes[c.entry_manhole].position
    parcels = sorted(where)
    facilities: list[Establishment] = []
    for i in range(0, len(parcels), CHUNK):
        facilities.extend(
            Establishment.objects.filter(
                building__property__parcel_id__in=parcels[i : i + CHUNK]
            ).select_related("building__property")
        )
    facilities.sort(key=lambda e: (e.name, e.pk))
    open_ = open_findings_by_facility([e.pk for e in facilities])
    for est in facilities:
        statuses = open_.get(est.pk, {})
        features.append(
            {
                "type": "Feature",
                "geometry": {
                    "type": "Point",
                    "coordinates": xy(where[est.building.property.parcel_id]),
                },
                "properties": {
                    "kind": "facility",
                    "id": str(est.pk),
                    "name": est.name,
                    "code": est.code,
                    "address": est.building.property.address,
                    "open_findings": sum(statuses.values()),
                    "open_by_status": dict(sorted(statuses.items())),
                    "severity": _severity(statuses),
                },
            }
        )
    return {
        "type": "FeatureCollection",
        "network": {
            "id": version.pk,
            "manholes": version.manhole_count,
            "pipes": version.pipe_count,
            "connections": version.connection_count,
        },
        "crs": {"kind": crs.kind, "name": crs.name, "label": crs.label},
        "features": features,
    }
