"""Case kind ``fines``: § 196-22 A/B — correction deadline and accrued daily fines.

``input``: ``served``, ``corrected`` (optional), ``as_of`` (default: ``corrected``, else
``served``), ``violation`` (optional citation), ``period_days`` (the period stated in the
notice; default the article's 10). ``parameters`` (optional): dated values added
to the case's jurisdiction, in the extension form of a parameters file. Returns
``FineComputation.as_dict()`` (with ``procedure`` when a violation is named), or
``{"error": <exception class>, "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import yaml

from sewer_rules.ordinance.s196_22_penalties import ClockError, accrued_fines, procedure_for
from sewer_rules.parameters import ParameterSet, load_jurisdiction, parse_parameter_text


def params_for(case: dict[str, Any]) -> ParameterSet:
    base = load_jurisdiction(case.get("jurisdiction", "wappinger"))
    extra = case.get("parameters")
    if not extra:
        return base
    text = yaml.safe_dump({"jurisdiction": f"{base.jurisdiction}+case", "parameters": extra})
    return parse_parameter_text(text, f"case {case['name']!r}", base)


def _date(value: Any) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value))


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    served = _date(data["served"])
    assert served is not None
    corrected = _date(data.get("corrected"))
    as_of = _date(data.get("as_of")) or corrected or served
    violation = data.get("violation")
    period = data.get("period_days")
    try:
        fc = accrued_fines(
            served,
            corrected,
            as_of,
            params_for(case),
            violation=violation,
            period_days=None if period is None else int(period),
        )
    except ClockError as e:
        return {"error": type(e).__name__, "message": str(e)}
    out = fc.as_dict()
    if violation:
        out["procedure"] = procedure_for(violation).as_dict()
    return out
