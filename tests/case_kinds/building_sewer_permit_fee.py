"""Case kind ``building_sewer_permit_fee``: § 196-18 B — the two permit classes and their fees.

``input``: ``permit_class`` (1 or 2) or ``produces_industrial_wastes`` (true/false, which
chooses the class). Returns ``{"permit_class", "name", "value", "configured", "effective",
"authority", "reference"}`` or ``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_rules.ordinance.s196_18_building_sewers.permit_class import permit_class, permit_fee

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    on = date.fromisoformat(str(case["date"]))
    if "produces_industrial_wastes" in data:
        cls = permit_class(bool(data["produces_industrial_wastes"]))
    else:
        cls = data["permit_class"]
    try:
        fee = permit_fee(cls, params_for(case), on)
    except ValueError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return {
        "permit_class": cls,
        "name": fee.name,
        "value": None if fee.value is None else str(fee.value),
        "configured": fee.configured,
        "effective": fee.effective.isoformat(),
        "authority": fee.authority,
        "reference": fee.reference,
    }
