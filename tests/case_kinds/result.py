"""Case kind ``result``: one laboratory result through the evaluation engine.

``input`` holds the row's columns (``parameter``, ``value``, ``unit``; ``sample_type`` defaults
to grab, ``sampled_at`` to the case's date at 09:00 town time); ``limits`` (optional) holds
permit limit records. Returns the result's status, findings, advisories and errors.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from sewer_engines.evaluation import evaluate_table
from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.parameters import load_jurisdiction


def table(rows: list[dict[str, Any]], on: Any) -> pl.DataFrame:
    records = []
    for i, r in enumerate(rows):
        rec = {k: (None if v is None else str(v)) for k, v in r.items()}
        rec.setdefault("sample_id", "S1")
        rec.setdefault("sample_type", "grab")
        rec.setdefault("sampled_at", f"{on}T09:00")
        rec.setdefault("facility", "F1")
        records.append({"row": i + 2, **rec})
    columns = sorted({k for r in records for k in r})
    return pl.DataFrame(
        [{c: r.get(c) for c in columns} for r in records],
        schema={c: (pl.Int64 if c == "row" else pl.String) for c in columns},
    )


def evaluate(case: dict[str, Any], rows: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    params = load_jurisdiction(case.get("jurisdiction", "wappinger"))
    limits = PermitLimits.from_records(case["limits"]) if case.get("limits") else None
    return evaluate_table(table(rows, case["date"]), params, limits)


def run(case: dict[str, Any]) -> dict[str, Any]:
    ev = evaluate(case, [case["input"]])
    out: dict[str, Any] = {
        "errors": [{"field": f, "message": m} for _, f, m in ev.errors.iter_rows()],
    }
    if ev.results.height:
        out["status"] = ev.results.get_column("status")[0]
        out["findings"] = ev.findings.select(
            "status", "citation", "limit", "limit_unit", "message"
        ).to_dicts()
        out["advisories"] = [a["code"] for a in ev.advisories.to_dicts()]
    return out
