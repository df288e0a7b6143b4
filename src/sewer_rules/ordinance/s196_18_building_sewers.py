"""§ 196-18 Building sewers and connections — permit classes and fees, and design checks.

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

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from sewer_rules.citations import cite
from sewer_rules.findings import Check

# § 196-18 B (permit classes and fees) lives in its own module; re-exported here.
from sewer_rules.ordinance.s196_18_permit_class import CLASS_TEXT as CLASS_TEXT
from sewer_rules.ordinance.s196_18_permit_class import USES as USES
from sewer_rules.ordinance.s196_18_permit_class import PermitClass as PermitClass
from sewer_rules.ordinance.s196_18_permit_class import classify_service as classify_service
from sewer_rules.ordinance.s196_18_permit_class import permit_class as permit_class
from sewer_rules.ordinance.s196_18_permit_class import permit_fee as permit_fee
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import (
    UnitError,
    approx_decimal,
    convert,
    format_decimal,
    parse_unit,
    registry,
)

B = cite("§ 196-18 B")
B1 = cite("§ 196-18 B(1)")
B2 = cite("§ 196-18 B(2)")
D = cite("§ 196-18 D")
F = cite("§ 196-18 F")
G = cite("§ 196-18 G")
H = cite("§ 196-18 H")

MINIMUM_DIAMETER = "building_sewer.minimum_diameter"
MINIMUM_SLOPE = "building_sewer.minimum_slope"

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
_QUANTITY = re.compile(
    r"^\s*(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s*/\s*\d+)?)\s*(?P<unit>.*?)\s*$"
)
_SLOPE_UNITS = {
    "%": "percent",
    "percent": "percent",
    "ft/ft": "foot / foot",
    "in/in": "inch / inch",
}


class DesignError(ValueError):
    """A design description that cannot be read; ``field`` is the JSON path at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Length:
    """A length or slope as written, and its exact value in the unit the law states."""

    text: str
    value: Fraction
    unit: str

    def __str__(self) -> str:
        return self.text


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
    def from_dict(cls, data: Any) -> BuildingSewerDesign:
        """Read the JSON contract; :class:`DesignError` names the field of any bad input."""
        if not isinstance(data, dict):
            raise DesignError("(top)", "a design is a JSON object")
        _no_unknown(data, _TOP_KEYS, "")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise DesignError("name", "must be text")
        default_sources = _sources(data, "connected_sources", "connected_sources")
        default_drain = _elevation(data, "building_drain_elevation_ft", "")
        default_basement = _elevation(data, "basement_floor_elevation_ft", "")
        default_public = _elevation(data, "public_sewer_elevation_ft", "")
        default_lift = _lift(data, "")

        sewers: list[BuildingSewer] = []
        for i, raw in enumerate(_list(data, "building_sewers")):
            where = f"building_sewers[{i}]"
            if not isinstance(raw, dict):
                raise DesignError(where, "must be an object")
            _no_unknown(raw, _SEWER_KEYS, where)
            sewer_id = _id(raw, where)
            material = raw.get("material")
            if material is not None and not isinstance(material, str):
                raise DesignError(f"{where}.material", "must be text")
            length = _elevation(raw, "length_ft", where)
            if length is not None and length <= 0:
                raise DesignError(f"{where}.length_ft", "must be a positive length in feet")
            public = _elevation(raw, "public_sewer_elevation_ft", where)
            sewers.append(
                BuildingSewer(
                    id=sewer_id,
                    diameter=_diameter(raw.get("diameter"), f"{where}.diameter"),
                    slope=_slope(raw.get("slope"), f"{where}.slope"),
                    material=material,
                    length_ft=length,
                    public_sewer_elevation_ft=public if public is not None else default_public,
                    index=i,
                )
            )
        _unique([s.id for s in sewers], "building_sewers")
        sewer_ids = {s.id for s in sewers}

        buildings: list[Building] = []
        for i, raw in enumerate(_list(data, "buildings")):
            where = f"buildings[{i}]"
            if not isinstance(raw, dict):
                raise DesignError(where, "must be an object")
            _no_unknown(raw, _BUILDING_KEYS, where)
            building_id = _id(raw, where)
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
            sources = _sources(raw, "connected_sources", f"{where}.connected_sources")
            drain = _elevation(raw, "building_drain_elevation_ft", where)
            basement = (
                _elevation(raw, "basement_floor_elevation_ft", where)
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
                    lift=_lift(raw, where) if "lift" in raw else default_lift,
                    index=i,
                )
            )
        _unique([b.id for b in buildings], "buildings")
        return cls(name or "", tuple(buildings), tuple(sewers))


# --- § 196-18 D, F, G, H: design checks ---------------------------------------------------------


@implements("§ 196-18 D")
def check_separate_sewers(design: BuildingSewerDesign) -> list[Check]:
    """One check per building: does it have its own building sewer?

    § 196-18 D: "A separate and independent building sewer shall be provided for every
    building. Where one building stands at the rear of another on an interior lot, the sewer main
    shall be extended in order that each building shall have its own lateral."
    """
    served = Counter(b.building_sewer for b in design.buildings)
    checks: list[Check] = []
    for b in design.buildings:
        sharing = [o.id for o in design.buildings if o.building_sewer == b.building_sewer]
        if served[b.building_sewer] > 1:
            others = ", ".join(o for o in sharing if o != b.id)
            checks.append(
                Check(
                    D,
                    False,
                    f"building {b.id} shares building sewer {b.building_sewer} with {others}: a "
                    "separate and independent building sewer shall be provided for every "
                    "building (where one stands at the rear of another on an interior lot, the "
                    f"sewer main is extended so that each has its own lateral) ({D})",
                    {"building": b.id, "building_sewer": b.building_sewer, "shared_with": others},
                )
            )
        else:
            checks.append(
                Check(
                    D,
                    True,
                    f"building {b.id} has its own building sewer {b.building_sewer} ({D})",
                    {"building": b.id, "building_sewer": b.building_sewer},
                )
            )
    return checks


@implements("§ 196-18 F")
def check_pipe(sewer: BuildingSewer, params: ParameterSet, on: date) -> list[Check]:
    """Diameter, slope and materials of one building sewer.

    § 196-18 F: "All building sewers shall be four-inch pipe minimum with a slope of no less than
    1/4 inch per foot. All materials and construction procedures shall conform to the
    requirements of the New York State Building and Plumbing Codes, requirements of the Dutchess
    County Health Department ... and/or other applicable regulations of the town."

    "minimum" and "no less than" are inclusive: 4 in and 1/4 in/ft exactly pass. Materials are
    recorded and left to the inspector (the State codes are not formalized here).
    """
    checks: list[Check] = []
    for what, measured, name in (
        ("diameter", sewer.diameter, MINIMUM_DIAMETER),
        ("slope", sewer.slope, MINIMUM_SLOPE),
    ):
        p = _configured(params, name, on)
        assert p.value is not None
        value = convert(measured.value, measured.unit, p.unit)
        ok = value >= Fraction(p.value)
        canonical = f"{format_decimal(value)} {p.unit}"
        shown = measured.text if measured.text == canonical else f"{measured.text} (= {canonical})"
        verb = "is at least" if ok else "is less than"
        checks.append(
            Check(
                F,
                ok,
                f"building sewer {sewer.id}: {what} {shown} {verb} the minimum "
                f"{format_decimal(p.value)} {p.unit} ({F})",
                {
                    "building_sewer": sewer.id,
                    what: format_decimal(value),
                    "unit": p.unit,
                    "minimum": format_decimal(p.value),
                    "parameter": p.name,
                    "effective": p.effective.isoformat(),
                    "authority": p.authority,
                },
            )
        )
    material = sewer.material or "not given"
    checks.append(
        Check(
            F,
            None,
            f"building sewer {sewer.id}: material {material} — conformance of materials and "
            "construction to the NYS Building and Plumbing Codes and the Dutchess County Health "
            f"Department standards is for the inspector ({F})",
            {"building_sewer": sewer.id, "material": material},
        )
    )
    return checks


@implements("§ 196-18 G")
def check_elevation(
    building: Building, sewer: BuildingSewer, params: ParameterSet, on: date
) -> list[Check]:
    """Gravity flow to the public sewer or an approved lift; below the basement floor if possible.

    § 196-18 G: "Whenever possible, the building sewer shall be brought to the building at an
    elevation below the basement floor. In all buildings in which any building drain is too low
    to permit gravity flow to the public sewer, sanitary wastewater carried by such building
    drain shall be lifted by an approved means and discharged to the building sewer."

    Gravity flow is possible when the building drain lies above the public sewer by at least
    the fall the minimum slope needs over the building sewer's length (when the length is
    given; otherwise when it lies above it at all). A declared lift satisfies the rule; that it
    is an *approved* means is for the Superintendent. The basement-floor sentence is advisory
    ("whenever possible"): met, or reported for information, never a failure.
    """
    checks: list[Check] = []
    drain = building.building_drain_elevation_ft
    public = sewer.public_sewer_elevation_ft
    base = {"building": building.id, "building_sewer": sewer.id}
    gravity: bool | None = None
    fall_text = ""
    if drain is not None and public is not None:
        fall = Fraction(drain - public)
        if sewer.length_ft is not None:
            slope = _configured(params, MINIMUM_SLOPE, on)
            assert slope.value is not None
            per_ft = convert(slope.value, slope.unit, "in/ft") / 12
            needed = per_ft * Fraction(sewer.length_ft)
            gravity = fall >= needed and fall > 0
            fall_text = (
                f"fall available {approx_decimal(fall)} ft, needed {approx_decimal(needed)} ft "
                f"for {format_decimal(sewer.length_ft)} ft at {format_decimal(slope.value)} "
                f"{slope.unit}"
            )
        else:
            gravity = fall > 0
            fall_text = f"building drain {format_decimal(fall)} ft above the public sewer"
        base = {**base, "building_drain_elevation_ft": format_decimal(drain)}
        base["public_sewer_elevation_ft"] = format_decimal(public)
    if building.lift is not None:
        lift = LIFTS[building.lift]
        checks.append(
            Check(
                G,
                True,
                f"building {building.id}: sanitary wastewater is lifted by a {lift} and "
                "discharged to the building sewer; the means must be one approved by the "
                f"Superintendent ({G})",
                {**base, "lift": building.lift},
            )
        )
    elif gravity is None:
        missing = [
            n
            for n, v in (
                ("building_drain_elevation_ft", drain),
                ("public_sewer_elevation_ft", public),
            )
            if v is None
        ]
        checks.append(
            Check(
                G,
                None,
                f"building {building.id}: gravity flow to the public sewer cannot be checked "
                f"without {' and '.join(missing)} (or a declared lift) ({G})",
                base,
            )
        )
    elif gravity:
        checks.append(
            Check(
                G,
                True,
                f"building {building.id}: gravity flow to the public sewer is possible "
                f"({fall_text}) ({G})",
                base,
            )
        )
    else:
        checks.append(
            Check(
                G,
                False,
                f"building {building.id}: the building drain is too low to permit gravity flow "
                f"to the public sewer ({fall_text}) and no lift is declared: sanitary wastewater "
                f"shall be lifted by an approved means to the building sewer ({G})",
                base,
            )
        )
    basement = building.basement_floor_elevation_ft
    if basement is not None and drain is not None:
        below = drain < basement
        where = "below" if below else "at or above"
        checks.append(
            Check(
                G,
                True if below else None,
                f"building {building.id}: the building sewer is brought to the building "
                f"{where} the basement floor (drain {format_decimal(drain)} ft, floor "
                f"{format_decimal(basement)} ft)"
                + ("" if below else "; advisory — the law asks for below whenever possible")
                + f" ({G})",
                {
                    "building": building.id,
                    "advisory": "yes",
                    "building_drain_elevation_ft": format_decimal(drain),
                    "basement_floor_elevation_ft": format_decimal(basement),
                },
            )
        )
    return checks


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


def check_building_sewer(
    design: BuildingSewerDesign, params: ParameterSet, on: date
) -> list[Check]:
    """Every § 196-18 D, F, G and H check of a design, in the law's order."""
    checks = check_separate_sewers(design)
    for sewer in design.building_sewers:
        checks.extend(check_pipe(sewer, params, on))
    for building in design.buildings:
        checks.extend(check_elevation(building, design.sewer(building.building_sewer), params, on))
    checks.extend(check_sources(b) for b in design.buildings)
    return checks


# --- reading the JSON -----------------------------------------------------------------------------


def _configured(params: ParameterSet, name: str, on: date) -> ParameterValue:
    p = params.get(name, on)
    if p.value is None:
        raise ValueError(f"{name} is not configured in {params.jurisdiction} on {on}")
    return p


def _no_unknown(raw: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in raw:
        if key not in allowed:
            field = f"{where}.{key}" if where else str(key)
            raise DesignError(
                field, f"unknown field (expected one of: {', '.join(sorted(allowed))})"
            )


def _list(data: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise DesignError(key, "required: a non-empty list")
    return value


def _id(raw: Mapping[str, Any], where: str) -> str:
    value = raw.get("id")
    if not isinstance(value, str) or not value.strip():
        raise DesignError(f"{where}.id", "required: a non-empty text id")
    return value


def _unique(ids: list[str], where: str) -> None:
    for value, count in Counter(ids).items():
        if count > 1:
            raise DesignError(where, f"id {value!r} appears {count} times")


def _elevation(raw: Mapping[str, Any], key: str, where: str) -> Decimal | None:
    field = f"{where}.{key}" if where else key
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        raise DesignError(field, f"a number of feet was expected, not {value!r}")
    if isinstance(value, float):
        value = repr(value)
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise DesignError(field, f"a number of feet was expected, not {value!r}") from None
    if not number.is_finite():
        raise DesignError(field, f"a number of feet was expected, not {value!r}")
    return number


def _sources(raw: Mapping[str, Any], key: str, field: str) -> tuple[str, ...] | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise DesignError(field, "must be a list of source names")
    known = {**SANITARY_SOURCES, **SURFACE_OR_GROUNDWATER_SOURCES}
    for i, s in enumerate(value):
        if s not in known:
            raise DesignError(
                f"{field}[{i}]", f"unknown source {s!r} (known: {', '.join(sorted(known))})"
            )
    return tuple(value)


def _lift(raw: Mapping[str, Any], where: str) -> str | None:
    field = f"{where}.lift" if where else "lift"
    value = raw.get("lift")
    if value is None:
        return None
    if not isinstance(value, str) or value not in LIFTS:
        raise DesignError(
            field, f"unknown lift {value!r} (known: {', '.join(sorted(LIFTS))}, or null)"
        )
    return value


def _split(value: Any, field: str, example: str) -> tuple[Fraction, str, str]:
    if isinstance(value, bool) or not isinstance(value, str):
        raise DesignError(field, f"required: a number with its unit, e.g. {example!r}")
    m = _QUANTITY.match(value)
    if not m:
        raise DesignError(field, f"{value!r} is not a number with a unit, e.g. {example!r}")
    num, unit = m["num"].replace(" ", ""), m["unit"]
    if not unit:
        raise DesignError(field, f"{value!r} has no unit, e.g. {example!r}")
    if "/" in num:
        top, bottom = num.split("/")
        if int(bottom) == 0:
            raise DesignError(field, f"{value!r} divides by zero")
        number = Fraction(Decimal(top)) / int(bottom)
    else:
        number = Fraction(Decimal(num))
    return number, unit, value.strip()


def _diameter(value: Any, field: str) -> Length:
    number, unit_text, text = _split(value, field, "4 in")
    try:
        unit = parse_unit(unit_text)
    except UnitError as e:
        raise DesignError(field, str(e)) from None
    if unit.dimension != "length":
        raise DesignError(field, f"{unit.symbol} is not a unit of length")
    if number <= 0:
        raise DesignError(field, f"a pipe diameter must be positive, not {text!r}")
    return Length(text, number, unit.symbol)


def _slope(value: Any, field: str) -> Length:
    number, unit_text, text = _split(value, field, "1/4 in/ft")
    if number < 0:
        raise DesignError(field, f"a slope must not be negative, not {text!r}")
    key = " ".join(unit_text.lower().split())
    if key in _SLOPE_UNITS:
        converted = registry().Quantity(number, _SLOPE_UNITS[key]).to("inch / foot").magnitude
        number = Fraction(converted)
        return Length(text, number, "in/ft")
    try:
        unit = parse_unit(unit_text)
    except UnitError:
        raise DesignError(
            field, f"unknown slope unit {unit_text!r} (use in/ft, % or ft/ft)"
        ) from None
    if unit.dimension != "slope":
        raise DesignError(field, f"{unit.symbol} is not a unit of slope (use in/ft, % or ft/ft)")
    return Length(text, number, unit.symbol)
