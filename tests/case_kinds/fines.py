"""Case kind ``fines``: § 196-22 A/B — correction deadline and accrued daily fines.

``input``: ``served``, ``corrected`` (optional: the day the violation ceased, as found on
verification), ``verified`` (optional: the verification day), ``as_of`` (default:
``verified``, else ``corrected``, else ``served``), ``violation`` (optional citation),
``period_days`` (the period stated in the notice; default the article's 10), ``later``
(optional list of ``{served, period_days}``: later notices or orders, in order). ``parameters`` (optional): dated values added
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
    verified = _date(data.get("verified"))
    as_of = _date(data.get("as_of")) or verified or corrected or served
    violation = data.get("violation")
    period = data.get("period_days")
    later: list[tuple[date, int | None]] = []
    for n in data.get("later") or []:
        day = _date(n["served"])
        assert day is not None
        later.append((day, None if n.get("period_days") is None else int(n["period_days"])))
    try:
        fc = accrued_fines(
            served,
            corrected,
            as_of,
            params_for(case),
            violation=violation,
            period_days=None if period is None else int(period),
            verified=verified,
            later_notices=later,
        )
    except ClockError as e:
        return {"error": type(e).__name__, "message": str(e)}
    out = fc.as_dict()
    if violation:
        out["procedure"] = procedure_for(violation).as_dict()
    return out
