"""Case kind ``subdivision_sewers``: § 196-16 G — must the owners construct the sewers?

``input``: ``smallest_plot_acres`` (text), ``in_sewer_district`` (bool), optionally
``dwelling_units`` (on the smallest plot, default 1). Returns ``SubdivisionSewerDuty.as_dict()``
or ``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.ordinance.s196_16_subdivision_sewers import (
    SubdivisionError,
    subdivision_sewer_duty,
)

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    try:
        duty = subdivision_sewer_duty(
            Decimal(str(data["smallest_plot_acres"])),
            bool(data["in_sewer_district"]),
            params_for(case),
            date.fromisoformat(str(case["date"])),
            dwelling_units=int(data.get("dwelling_units", 1)),
        )
    except SubdivisionError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return duty.as_dict()
