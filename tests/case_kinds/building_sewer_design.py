"""Case kind ``building_sewer_design``: § 196-18 D, F, G, H checks of a design (JSON contract).

``input``: the design, as the JSON object ``sewer-use sewer-design`` reads (see
``sewer_rules.ordinance.s196_18_building_sewers.design``). Returns::

    {"results": {"D:house": true, "F:S1:diameter": true, "F:S1:slope": false,
                 "F:S1:material": null, "G:house": true, "G:house:basement": null,
                 "H:house": false, ...},
     "failed": ["F:S1:slope", "H:house"],        # sorted
     "count": 9}

or ``{"error": "DesignError", "field": "building_sewers[0].diameter", "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_rules.findings import Check
from sewer_rules.ordinance.s196_18_building_sewers.checks import check_building_sewer
from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
from sewer_rules.ordinance.s196_18_building_sewers.design_fields import DesignError

from .fines import params_for


def key(check: Check) -> str:
    letter = check.citation.path[0]
    d = check.details
    if letter == "F":
        what = "material" if "material" in d else ("diameter" if "diameter" in d else "slope")
        return f"F:{d['building_sewer']}:{what}"
    if letter == "G" and d.get("advisory") == "yes":
        return f"G:{d['building']}:basement"
    return f"{letter}:{d['building']}"


def run(case: dict[str, Any]) -> Any:
    on = date.fromisoformat(str(case["date"]))
    try:
        design = BuildingSewerDesign.from_dict(case["input"])
    except DesignError as e:
        return {"error": type(e).__name__, "field": e.field, "message": e.message}
    checks = check_building_sewer(design, params_for(case), on)
    results = {key(c): c.passed for c in checks}
    if len(results) != len(checks):
        raise AssertionError("two checks share a key")
    return {
        "results": results,
        "failed": sorted(k for k, v in results.items() if v is False),
        "count": len(checks),
        "messages": {key(c): c.message for c in checks},
    }
