"""Case kind ``shredded_garbage``: § 196-15 PROPERLY SHREDDED GARBAGE — no particle over 1/2 in.

``input``: ``largest_particle`` (a decimal or a fraction such as ``1/2``), ``unit`` (default
``in``). Returns the :class:`~sewer_rules.findings.Check` as a dict, or
``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from sewer_rules.ordinance.s196_15_definitions.shredded_garbage import (
    ParticleError,
    check_shredded_garbage,
)

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    on = date.fromisoformat(str(case["date"]))
    try:
        check = check_shredded_garbage(
            Fraction(str(data["largest_particle"])),
            params_for(case),
            on,
            unit=str(data.get("unit", "in")),
        )
    except ParticleError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return check.as_dict()
