"""Case kind ``sample``: several results of one sample, classified together (§ 196-15).

``input`` is a list of rows as for kind ``result``. Returns the sample's classifications, the
statuses of its results, and any monthly permit averages.
"""

from __future__ import annotations

from typing import Any

from tests.case_kinds.result import evaluate


def run(case: dict[str, Any]) -> dict[str, Any]:
    ev = evaluate(case, case["input"])
    out: dict[str, Any] = {
        "statuses": ev.results.get_column("status").to_list(),
        "errors": ev.errors.to_dicts(),
    }
    if ev.samples.height:
        first = ev.samples.row(0, named=True)
        out["cooling_water"] = first["cooling_water"]
        out["unpolluted_water"] = first["unpolluted_water"]
    out["monthly"] = ev.monthly.select(
        "parameter", "month", "days_measured", "average", "status"
    ).to_dicts()
    return out
