"""Case kind ``snc``: 40 CFR 403.8(f)(2)(viii) criteria (A), (B) and (F)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.federal.cfr403_snc import (
    at_or_above_trc,
    evaluate_period,
    report_significantly_late,
)
from sewer_rules.parameters import load_jurisdiction


def run(case: dict[str, Any]) -> dict[str, Any]:
    params = load_jurisdiction(case.get("jurisdiction", "wappinger"))
    on = date.fromisoformat(str(case["date"]))
    i = case["input"]
    if "received" in i:
        due, received = date.fromisoformat(str(i["due"])), date.fromisoformat(str(i["received"]))
        return {"late": report_significantly_late(due, received, params)}
    limit = Decimal(str(i["limit"]))
    if "value" in i:
        return {
            "at_or_above_trc": at_or_above_trc(
                Decimal(str(i["value"])), limit, i["analyte"], params, on
            )
        }
    ev = evaluate_period([Decimal(str(v)) for v in i["values"]], limit, i["analyte"], params, on)
    return {
        "exceeding": ev.exceeding,
        "at_or_above_trc": ev.at_or_above_trc,
        "chronic": ev.chronic,
        "technical_review": ev.technical_review,
        "significant": ev.significant,
    }
