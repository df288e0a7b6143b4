"""§ 196-18 D — a separate and independent building sewer for every building."""

from __future__ import annotations

from collections import Counter

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.sections import implements

from .design import BuildingSewerDesign

D = cite("§ 196-18 D")


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
