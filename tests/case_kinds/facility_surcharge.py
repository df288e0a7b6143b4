"""Case kind ``facility_surcharge``: a facility's surcharge for a billing period from stored data.

``input``: ``start``, ``end``, ``results`` (pollutant → list of composite results, mg/l, as
text), and the flow: ``meter`` ({ident, unit, readings: [values]}) and/or
``declared_flow_gpd``. ``parameters`` (optional): dated values added to the jurisdiction.
Returns ``FacilitySurcharge.as_dict()``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.billing.facility_surcharge import MeterFlow, facility_surcharge, mean

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    results = {k: [Decimal(str(v)) for v in vs] for k, vs in (data.get("results") or {}).items()}
    meter = None
    if data.get("meter"):
        m = data["meter"]
        values = [Decimal(str(v)) for v in m["readings"]]
        meter = MeterFlow(m["ident"], m["unit"], len(values), sum(values, Decimal(0)))
    declared = data.get("declared_flow_gpd")
    out = facility_surcharge(
        date.fromisoformat(str(data["start"])),
        date.fromisoformat(str(data["end"])),
        params_for(case),
        averages={k: mean(results.get(k, [])) for k in ("bod", "suspended_solids", "grease_oil")},
        counts={k: len(v) for k, v in results.items()},
        meter=meter,
        declared_flow_gpd=None if declared is None else Decimal(str(declared)),
    )
    return out.as_dict()
