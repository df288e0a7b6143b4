"""Every design check of § 196-18 (D, F, G, H) on one building sewer design, in the law's order.

What ``sewer-use sewer-design`` and the office's building sewer permit run.
"""

from __future__ import annotations

from datetime import date

from sewer_rules.findings import Check
from sewer_rules.parameters import ParameterSet

from .design import BuildingSewerDesign
from .elevation import check_elevation
from .pipe import check_pipe
from .separate_sewers import check_separate_sewers
from .sources import check_sources


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
