"""Tracing upstream from a manhole (§ 196-19 I): the manholes and pipes that drain to it, the
properties and facilities connected along the way, and each facility's recent exceedances and
slugs — what the Superintendent looks at to find the source of a problem at a manhole.

The trace itself is the rules' (:func:`sewer_rules.network.trace_upstream`); this module turns
its parcels back into registry records and their findings.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypedDict

from django.utils import timezone

from sewer_office.findings.models import Finding
from sewer_office.findings.services import QUIET_STATUSES
from sewer_office.registry.models import Establishment
from sewer_rules.network import (
    trace_upstream,
    upstream_area,
)

from .services import CHUNK, UnknownManhole, properties_of, require_active


@dataclass(frozen=True)
class Trace:
    manhole: str
    total: int
    upstream: list[dict[str, Any]]
    area_manholes: set[str]
    area_pipes: set[str]

    def as_dict(self, *, area: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"manhole": self.manhole, "upstream": self.upstream}
        if area:  # what the map highlights: the traced manholes and pipes
            out["total"] = self.total
            out["area"] = {
                "manholes": sorted(self.area_manholes),
                "pipes": sorted(self.area_pipes),
            }
        return out


#: How far back the trace looks for a facility's exceedances and slugs, and how many it shows.
RECENT_DAYS = 90


RECENT_SHOWN = 5


SLUG_KINDS = frozenset({"slug", "unreported_slug"})


#: Finding kinds that say what a facility discharged (not pump-outs or inspections).
DISCHARGE_KINDS = ("lab_result", "monthly_average", "slug", "excursion", "unreported_slug")


class RecentFinding(TypedDict):
    """One of a facility's recent findings as the trace shows it (and its API answers)."""

    kind: str
    status: str
    citation: str
    observed_at: str  # ISO 8601
    message: str


def recent_findings(establishment_ids: list[int]) -> dict[int, list[RecentFinding]]:
    """Each facility's current exceedances and slugs of the last :data:`RECENT_DAYS`, newest
    first — what the Superintendent looks for when tracing the source of a problem."""

    since = timezone.now() - timedelta(days=RECENT_DAYS)
    out: dict[int, list[RecentFinding]] = {}
    for i in range(0, len(establishment_ids), 500):
        rows = (
            Finding.objects.filter(
                establishment_id__in=establishment_ids[i : i + 500],
                observed_at__gte=since,
                current=True,
                kind__in=DISCHARGE_KINDS,
            )
            .exclude(status__in=QUIET_STATUSES)
            .order_by("-observed_at", "-id")
            .values_list("establishment_id", "kind", "status", "citation", "observed_at", "message")
        )
        for est_id, kind, status, citation, at, message in rows:
            out.setdefault(est_id, []).append(
                {
                    "kind": kind,
                    "status": status,
                    "citation": citation,
                    "observed_at": at.isoformat(),
                    "message": message,
                }
            )
    return out


def trace(manhole_id: str, *, limit: int | None = None) -> Trace:
    """Every facility and property upstream of ``manhole_id``, nearest first.

    A parcel with establishments of the registry gives one ``facility`` entry per establishment
    (id = establishment id, name = its name); otherwise one ``property`` entry (id = the tax
    parcel id, name = its address). ``limit`` counts parcels; ``total`` is all parcels upstream.
    """
    _, net = require_active()
    manhole_id = manhole_id.strip()
    if manhole_id not in net.manholes:
        raise UnknownManhole(f"No manhole {manhole_id!r} in the active sewer network.")
    result = trace_upstream(net, manhole_id)
    raw = result.as_dict(limit=limit)["upstream"]
    parcels = [e["id"] for e in raw]
    props = properties_of(parcels)
    facilities: dict[str, list[Establishment]] = {}
    for i in range(0, len(parcels), CHUNK):
        ests = Establishment.objects.filter(
            building__property__parcel_id__in=parcels[i : i + CHUNK]
        ).select_related("building__property")
        for est in ests:
            facilities.setdefault(est.building.property.parcel_id, []).append(est)
    for group in facilities.values():
        group.sort(key=lambda e: (e.name, e.pk))
    recent = recent_findings([est.pk for group in facilities.values() for est in group])
    # the API's JSON of the trace, in two shapes (a facility's entry, a property's)
    upstream: list[dict[str, Any]] = []
    for e in raw:
        common = {"network_distance_m": e["network_distance_m"], "via_manholes": e["via_manholes"]}
        if e["id"] in facilities:
            for est in facilities[e["id"]]:
                found = recent.get(est.pk, [])
                upstream.append(
                    {
                        "kind": "facility",
                        "id": str(est.pk),
                        "name": est.name,
                        **common,
                        "code": est.code,
                        "recent_exceedances": sum(1 for f in found if f["kind"] not in SLUG_KINDS),
                        "recent_slugs": sum(1 for f in found if f["kind"] in SLUG_KINDS),
                        "recent_findings": found[:RECENT_SHOWN],
                    }
                )
        else:
            prop = props.get(e["id"])
            upstream.append(
                {
                    "kind": "property",
                    "id": e["id"],
                    "name": prop.address if prop else "",
                    **common,
                }
            )
    manholes, pipes = upstream_area(net, manhole_id)
    return Trace(manhole_id, len(result), upstream, manholes, pipes)
