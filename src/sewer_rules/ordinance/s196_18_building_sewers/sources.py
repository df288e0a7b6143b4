"""§ 196-18 H — no connection of surface runoff or groundwater to a building sewer or drain."""

from __future__ import annotations

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.sections import implements

from .design import Building
from .vocabulary import SANITARY_SOURCES, SURFACE_OR_GROUNDWATER_SOURCES

H = cite("§ 196-18 H")


@implements("§ 196-18 H")
def check_sources(building: Building) -> Check:
    """No roof, sump, foundation, areaway or other surface or groundwater connections.

    § 196-18 H: "No person shall make connections of roof downspouts, sump pumps, exterior
    foundation drains, areaway drains or other sources of surface runoff or groundwater to a
    building sewer or building drain which in turn is connected, directly or indirectly, to a
    public sanitary sewer."
    """
    sources = building.connected_sources
    if sources is None:
        return Check(
            H,
            None,
            f"building {building.id}: no connected_sources declared, so connections of surface "
            f"runoff or groundwater cannot be checked ({H})",
            {"building": building.id},
        )
    bad = [s for s in sources if s in SURFACE_OR_GROUNDWATER_SOURCES]
    if bad:
        names = ", ".join(SURFACE_OR_GROUNDWATER_SOURCES[s] for s in bad)
        return Check(
            H,
            False,
            f"building {building.id}: {names} connected to the building drain or sewer — no "
            "roof downspouts, sump pumps, exterior foundation drains, areaway drains or other "
            f"sources of surface runoff or groundwater may be connected ({H})",
            {"building": building.id, "prohibited_sources": ", ".join(bad)},
        )
    shown = ", ".join(SANITARY_SOURCES[s] for s in sources) or "none"
    return Check(
        H,
        True,
        f"building {building.id}: no source of surface runoff or groundwater connected "
        f"(sources: {shown}) ({H})",
        {"building": building.id, "sources": ", ".join(sources)},
    )
