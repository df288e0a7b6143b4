"""§ 196-18 F — the size, slope and materials of a building sewer."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import convert, format_decimal

from .design import BuildingSewer

F = cite("§ 196-18 F")

MINIMUM_DIAMETER = "building_sewer.minimum_diameter"
MINIMUM_SLOPE = "building_sewer.minimum_slope"


def configured(params: ParameterSet, name: str, on: date) -> ParameterValue:
    """The parameter in force, refused when the jurisdiction has not configured it."""
    p = params.get(name, on)
    if p.value is None:
        raise ValueError(f"{name} is not configured in {params.jurisdiction} on {on}")
    return p


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
        p = configured(params, name, on)
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
