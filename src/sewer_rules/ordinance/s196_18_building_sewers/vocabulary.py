"""The words of a design: what drains to a building sewer, and how wastewater is lifted.

A design names its connected sources and its lift with these keys (the JSON contract of
:mod:`.design`); § 196-18 H forbids the sources of surface runoff or groundwater, and § 196-18 G
asks for a lift where gravity flow is not possible.
"""

from __future__ import annotations

from collections.abc import Mapping

SANITARY_SOURCES: Mapping[str, str] = {
    "sanitary_fixtures": "sanitary fixtures",
    "kitchen_fixtures": "kitchen fixtures",
    "laundry": "laundry",
    "interior_floor_drain": "interior floor drain",
    "garbage_grinder": "garbage grinder",
    "industrial_process_waste": "industrial process waste",
}

#: § 196-18 H: "roof downspouts, sump pumps, exterior foundation drains, areaway drains or other
#: sources of surface runoff or groundwater".
SURFACE_OR_GROUNDWATER_SOURCES: Mapping[str, str] = {
    "roof_downspout": "roof downspout",
    "sump_pump": "sump pump",
    "exterior_foundation_drain": "exterior foundation drain",
    "footing_drain": "footing (foundation) drain",
    "areaway_drain": "areaway drain",
    "window_well_drain": "window well (areaway) drain",
    "yard_drain": "yard drain",
    "driveway_drain": "driveway drain",
    "patio_drain": "patio drain",
    "storm_drain": "storm drain",
    "surface_runoff": "surface runoff",
    "groundwater": "groundwater",
}

LIFTS: Mapping[str, str] = {
    "sewage_ejector": "sewage ejector",
    "ejector": "sewage ejector",
    "grinder_pump": "grinder pump",
    "sewage_pump": "sewage pump",
    "lift_station": "lift station",
}
