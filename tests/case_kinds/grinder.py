"""Case kind ``grinder``: § 196-19 D(3) — grinder motors of 3/4 hp or more need approval.

``input``: ``rating`` (a decimal or a fraction such as ``3/4``), ``unit`` (default ``hp``).
Returns the :class:`~sewer_rules.findings.Check` as a dict, or ``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from sewer_rules.ordinance.s196_19_use_of_public_sewers.grinders import GrinderError, check_grinder

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    on = date.fromisoformat(str(case["date"]))
    try:
        check = check_grinder(
            Fraction(str(data["rating"])), params_for(case), on, unit=str(data.get("unit", "hp"))
        )
    except GrinderError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return check.as_dict()
