"""Case kind ``surcharge``: § 196-19 E(1)(d) and J — the extra-strength surcharge of a period.

``input``: ``start``, ``end``, ``flow_mgd`` or ``volume_mg``, ``bod``, ``suspended_solids``,
``grease_oil`` (mg/l, as text). ``parameters`` (optional): dated values added to the case's
jurisdiction. Returns ``SurchargeComputation.as_dict()`` with, for convenience, ``pounds`` and
``charges`` keyed by pollutant; or ``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.ordinance.s196_19_use_of_public_sewers.surcharge import (
    SurchargeError,
    surcharge,
)

from .fines import params_for


def _dec(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    try:
        sc = surcharge(
            date.fromisoformat(str(data["start"])),
            date.fromisoformat(str(data["end"])),
            params_for(case),
            bod=Decimal(str(data["bod"])),
            suspended_solids=Decimal(str(data["suspended_solids"])),
            grease_oil=Decimal(str(data["grease_oil"])),
            flow_mgd=_dec(data.get("flow_mgd")),
            volume_mg=_dec(data.get("volume_mg")),
        )
    except SurchargeError as e:
        return {"error": type(e).__name__, "message": str(e)}
    out = sc.as_dict()
    pollutants = out["pollutants"]
    assert isinstance(pollutants, list)
    out["pounds"] = {p["pollutant"]: p["pounds"] for p in pollutants}
    out["charges"] = {p["pollutant"]: p["charge_usd"] for p in pollutants}
    return out
