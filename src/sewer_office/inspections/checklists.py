"""The checklist of each kind of inspection, as data: every item names the section it checks.

An inspector answers each item pass, fail or not applicable; a failed item becomes a
finding citing the item's section (see :func:`sewer_office.inspections.services.complete`).
The question and citation are copied onto the stored answer, so that a later edit of a
checklist never rewrites what an inspection found.

Stormwater, roof runoff and unpolluted cooling or process water in a sanitary sewer are the
prohibition of § 196-19 A ("No person shall discharge ... to any sanitary sewer"); § 196-19 B
only says where such water shall go instead, so the stormwater items cite § 196-19 A.
"""

from __future__ import annotations

from dataclasses import dataclass

from .choices import InspectionKind

#: Kinds whose subject is a facility (an establishment), not only a property.
FACILITY_KINDS = frozenset({InspectionKind.INDUSTRIAL_USER, InspectionKind.FOOD_SERVICE})


@dataclass(frozen=True)
class Item:
    key: str
    question: str
    citation: str


CHECKLISTS: dict[str, tuple[Item, ...]] = {
    InspectionKind.INDUSTRIAL_USER: (
        Item(
            "pretreatment_maintained",
            "Preliminary treatment and flow-equalizing facilities are maintained in "
            "satisfactory and effective operation",
            "§ 196-19 G",
        ),
        Item(
            "pretreatment_as_approved",
            "Pretreatment or equalization plant is installed as approved by the Superintendent",
            "§ 196-19 E(2)",
        ),
        Item(
            "no_harmful_discharges",
            "No wastes the engineer/Superintendent has found likely to harm the sewers or "
            "the treatment process are discharged",
            "§ 196-19 D",
        ),
        Item(
            "no_plating_solutions",
            "No strong acid iron pickling wastes or concentrated plating solutions reach the sewer",
            "§ 196-19 D(4)",
        ),
        Item(
            "no_stormwater",
            "Stormwater, roof runoff and unpolluted process or cooling water are not "
            "discharged to the sanitary sewer",
            "§ 196-19 A",
        ),
        Item(
            "control_manhole_accessible",
            "The control manhole is safely located and accessible",
            "§ 196-19 H",
        ),
    ),
    InspectionKind.FOOD_SERVICE: (
        Item(
            "grease_trap_provided",
            "A grease trap is provided for the kitchen wastes",
            "§ 196-19 F(2)",
        ),
        Item(
            "grease_trap_accessible",
            "The grease trap is readily and easily accessible for cleaning and inspection",
            "§ 196-19 F(2)",
        ),
        Item(
            "no_grease_discharge",
            "No fats, wax, grease or oils are discharged beyond the trap (no accumulation "
            "downstream)",
            "§ 196-19 D(2)",
        ),
        Item(
            "garbage_shredded",
            "No garbage is discharged unshredded; a grinder of 3/4 hp or more is approved",
            "§ 196-19 D(3)",
        ),
        Item(
            "no_stormwater",
            "Roof runoff and surface water are not discharged to the sanitary sewer",
            "§ 196-19 A",
        ),
    ),
    InspectionKind.BUILDING_SEWER: (
        Item(
            "permission",
            "The work is done with the permission of the Superintendent and/or engineer",
            "§ 196-18 A",
        ),
        Item(
            "separate_sewer",
            "A separate and independent building sewer serves every building",
            "§ 196-18 D",
        ),
        Item(
            "pipe_and_slope",
            "Four-inch pipe minimum, slope not less than 1/4 inch per foot",
            "§ 196-18 F",
        ),
        Item(
            "no_surface_connections",
            "No roof downspouts, sump pumps, foundation or areaway drains are connected",
            "§ 196-18 H",
        ),
        Item(
            "connection_supervised",
            "Notice of readiness was given; the connection is made under supervision",
            "§ 196-18 J",
        ),
        Item(
            "road_opening_permit",
            "A road opening permit was obtained before excavation",
            "§ 196-18 K",
        ),
        Item(
            "excavation_guarded",
            "The excavation is guarded with barricades and lights; public property restored",
            "§ 196-18 L",
        ),
    ),
    InspectionKind.CONTROL_MANHOLE: (
        Item(
            "manhole_installed",
            "A suitable control manhole with the necessary meters and appurtenances is installed",
            "§ 196-19 H",
        ),
        Item(
            "manhole_safe_accessible",
            "The control manhole is safely located and accessible at all times",
            "§ 196-19 H",
        ),
        Item(
            "manhole_per_plans",
            "The manhole is constructed according to plans approved by the Superintendent",
            "§ 196-19 H",
        ),
        Item(
            "sampling_possible",
            "Samples and measurements can be taken at the manhole by Standard Methods",
            "§ 196-19 I",
        ),
    ),
    InspectionKind.PRIVATE_SYSTEM: (
        Item(
            "health_department_approval",
            "The system was approved by the Dutchess County Health Department",
            "§ 196-17 B",
        ),
        Item(
            "design_compliant",
            "Type, capacities, location and layout comply with the recommendations of the New "
            "York State Department of Health and the Dutchess County Health Department; no "
            "septic tank or cesspool discharges to any natural outlet",
            "§ 196-17 D",
        ),
        Item(
            "sanitary_operation",
            "The system is operated and maintained in a sanitary manner",
            "§ 196-17 F",
        ),
        Item(
            "connected_when_available",
            "Public sewer is not available, or the property is connected and the system abandoned",
            "§ 196-17 E",
        ),
    ),
}


def items(kind: str) -> tuple[Item, ...]:
    """The checklist of ``kind`` (KeyError for an unknown kind)."""
    return CHECKLISTS[kind]
