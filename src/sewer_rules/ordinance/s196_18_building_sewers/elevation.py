"""§ 196-18 G — gravity flow to the public sewer, or wastewater lifted by an approved means."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import approx_decimal, convert, format_decimal

from .design import Building, BuildingSewer
from .pipe import MINIMUM_SLOPE, configured
from .vocabulary import LIFTS

G = cite("§ 196-18 G")


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
            slope = configured(params, MINIMUM_SLOPE, on)
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
