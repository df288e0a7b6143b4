"""Case kind ``subdivision_sewer_fee``: § 196-23 C — fee = rate × estimated construction cost.

``input``: ``estimated_cost`` (USD, as text). Returns ``SubdivisionSewerFee.as_dict()`` or
``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.ordinance.s196_23_developers import subdivision_sewer_fee

from .fines import params_for


def run(case: dict[str, Any]) -> Any:
    on = date.fromisoformat(str(case["date"]))
    try:
        fee = subdivision_sewer_fee(
            Decimal(str(case["input"]["estimated_cost"])), params_for(case), on
        )
    except ValueError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return fee.as_dict()
