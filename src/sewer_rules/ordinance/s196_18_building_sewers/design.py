"""§ 196-18 D, F, G, H — the building sewer design the checks read.

The design checks (§ 196-18 D, F, G, H) read a building sewer design described in JSON, the
contract of ``sewer-use sewer-design FILE.json``::

    {
      "name": "12 Example Lane",                     optional, free text
      "buildings": [                                  required, at least one
        {"id": "house",                               required, unique
         "building_sewer": "S1",                      required: the id of its building sewer
         "connected_sources": ["sanitary_fixtures"],  optional (default: top-level value)
         "building_drain_elevation_ft": "101.50",     optional (default: top-level value)
         "basement_floor_elevation_ft": "103.00",     optional (default: top-level); null = none
         "lift": null}                                optional (default: top-level); null = none
      ],
      "building_sewers": [                            required, at least one
        {"id": "S1",                                  required, unique
         "diameter": "4 in",                          required: number and length unit
         "slope": "1/4 in/ft",                        required: in/ft, % or ft/ft
         "material": "PVC SDR 35",                    optional, recorded
         "length_ft": "60",                           optional: building drain to public sewer
         "public_sewer_elevation_ft": "97.20"}        optional (default: top-level value)
      ],
      "connected_sources": [...],                     top level: defaults for every building
      "building_drain_elevation_ft": "..",
      "basement_floor_elevation_ft": "..",
      "public_sewer_elevation_ft": "..",              (for every building sewer)
      "lift": null
    }

- Elevations are feet on one datum, as JSON numbers or decimal strings (read exactly).
  ``building_drain_elevation_ft`` is the invert of the building drain where the building sewer
  begins; ``public_sewer_elevation_ft`` is the invert of the public sewer at the connection.
- Lengths and slopes are text with a unit, converted exactly: diameters in ``in``/``inch``/
  ``inches``/``ft``; slopes in ``in/ft`` (``1/4 in/ft``, ``0.25 in/ft``), ``%`` (``2 %`` =
  0.24 in/ft) or ``ft/ft``. Fractions such as ``1/4`` are accepted.
- ``connected_sources`` names what drains to the building drain or sewer. Sanitary sources:
  ``sanitary_fixtures``, ``kitchen_fixtures``, ``laundry``, ``interior_floor_drain``,
  ``garbage_grinder``, ``industrial_process_waste``. Sources of surface runoff or groundwater
  (§ 196-18 H): ``roof_downspout``, ``sump_pump``, ``exterior_foundation_drain``,
  ``footing_drain``, ``areaway_drain``, ``window_well_drain``, ``yard_drain``,
  ``driveway_drain``, ``patio_drain``, ``storm_drain``, ``surface_runoff``, ``groundwater``.
- ``lift``: ``sewage_ejector`` (or ``ejector``), ``grinder_pump``, ``sewage_pump``,
  ``lift_station``.
- Unknown keys, unknown sources or lifts, a building naming a building sewer that is not
  described, duplicate ids, a missing or malformed value: :class:`DesignError` naming the
  JSON field (e.g. ``building_sewers[0].diameter``).
- The building sewers described are taken to connect, directly or indirectly, to a public
  sanitary sewer (the case § 196-18 H governs).

Each check is a :class:`~sewer_rules.findings.Check`: ``passed`` True or False, or None
where the software cannot decide (a missing elevation, an advisory "whenever possible", a
material to be checked against the State codes by the inspector).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sewer_rules.json_input import JsonValue

from .design_fields import (
    DesignError,
    Length,
    read_diameter,
    read_elevation,
    read_id,
    read_lift,
    read_list,
    read_slope,
    read_sources,
    refuse_unknown,
    require_unique,
)

_TOP_KEYS = frozenset(
    {
        "name",
        "buildings",
        "building_sewers",
        "connected_sources",
        "building_drain_elevation_ft",
        "basement_floor_elevation_ft",
        "public_sewer_elevation_ft",
        "lift",
    }
)
_BUILDING_KEYS = frozenset(
    {
        "id",
        "building_sewer",
        "connected_sources",
        "building_drain_elevation_ft",
        "basement_floor_elevation_ft",
        "lift",
    }
)
_SEWER_KEYS = frozenset(
    {"id", "diameter", "slope", "material", "length_ft", "public_sewer_elevation_ft"}
)


@dataclass(frozen=True)
class Building:
    id: str
    building_sewer: str
    connected_sources: tuple[str, ...] | None
    building_drain_elevation_ft: Decimal | None
    basement_floor_elevation_ft: Decimal | None
    lift: str | None
    index: int


@dataclass(frozen=True)
class BuildingSewer:
    id: str
    diameter: Length
    slope: Length
    material: str | None
    length_ft: Decimal | None
    public_sewer_elevation_ft: Decimal | None
    index: int


@dataclass(frozen=True)
class BuildingSewerDesign:
    """A described building sewer design (see the module docstring for the JSON contract)."""

    name: str
    buildings: tuple[Building, ...]
    building_sewers: tuple[BuildingSewer, ...]

    def sewer(self, sewer_id: str) -> BuildingSewer:
        return next(s for s in self.building_sewers if s.id == sewer_id)

    @classmethod
    def from_dict(cls, data: JsonValue) -> BuildingSewerDesign:
        """Read the JSON contract; :class:`DesignError` names the field of any bad input."""
        if not isinstance(data, dict):
            raise DesignError("(top)", "a design is a JSON object")
        refuse_unknown(data, _TOP_KEYS, "")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise DesignError("name", "must be text")
        default_sources = read_sources(data, "connected_sources", "connected_sources")
        default_drain = read_elevation(data, "building_drain_elevation_ft", "")
        default_basement = read_elevation(data, "basement_floor_elevation_ft", "")
        default_public = read_elevation(data, "public_sewer_elevation_ft", "")
        default_lift = read_lift(data, "")

        sewers: list[BuildingSewer] = []
        for i, raw in enumerate(read_list(data, "building_sewers")):
            where = f"building_sewers[{i}]"
            if not isinstance(raw, dict):
                raise DesignError(where, "must be an object")
            refuse_unknown(raw, _SEWER_KEYS, where)
            sewer_id = read_id(raw, where)
            material = raw.get("material")
            if material is not None and not isinstance(material, str):
                raise DesignError(f"{where}.material", "must be text")
            length = read_elevation(raw, "length_ft", where)
            if length is not None and length <= 0:
                raise DesignError(f"{where}.length_ft", "must be a positive length in feet")
            public = read_elevation(raw, "public_sewer_elevation_ft", where)
            sewers.append(
                BuildingSewer(
                    id=sewer_id,
                    diameter=read_diameter(raw.get("diameter"), f"{where}.diameter"),
                    slope=read_slope(raw.get("slope"), f"{where}.slope"),
                    material=material,
                    length_ft=length,
                    public_sewer_elevation_ft=public if public is not None else default_public,
                    index=i,
                )
            )
        require_unique([s.id for s in sewers], "building_sewers")
        sewer_ids = {s.id for s in sewers}

        buildings: list[Building] = []
        for i, raw in enumerate(read_list(data, "buildings")):
            where = f"buildings[{i}]"
            if not isinstance(raw, dict):
                raise DesignError(where, "must be an object")
            refuse_unknown(raw, _BUILDING_KEYS, where)
            building_id = read_id(raw, where)
            sewer_ref = raw.get("building_sewer")
            if not isinstance(sewer_ref, str) or not sewer_ref:
                raise DesignError(
                    f"{where}.building_sewer", "required: the id of the building's building sewer"
                )
            if sewer_ref not in sewer_ids:
                raise DesignError(
                    f"{where}.building_sewer",
                    f"no building sewer with id {sewer_ref!r} in building_sewers",
                )
            sources = read_sources(raw, "connected_sources", f"{where}.connected_sources")
            drain = read_elevation(raw, "building_drain_elevation_ft", where)
            basement = (
                read_elevation(raw, "basement_floor_elevation_ft", where)
                if "basement_floor_elevation_ft" in raw
                else default_basement
            )
            buildings.append(
                Building(
                    id=building_id,
                    building_sewer=sewer_ref,
                    connected_sources=sources if sources is not None else default_sources,
                    building_drain_elevation_ft=drain if drain is not None else default_drain,
                    basement_floor_elevation_ft=basement,
                    lift=read_lift(raw, where) if "lift" in raw else default_lift,
                    index=i,
                )
            )
        require_unique([b.id for b in buildings], "buildings")
        return cls(name or "", tuple(buildings), tuple(sewers))
