"""Case kind ``snc_period``: 40 CFR 403.8(f)(2)(viii) over a period, one facility's limit.

``input``: ``parameter``, ``limit_type``, ``limit`` (in the parameter's canonical unit),
``period`` (``2026H1`` or ``2026-01..2026-06``), ``rolling`` (optional), ``measurements``: a list
of ``[day, value]`` or ``[day, value, "nd"]``, or ``{from: day, count: n, value: v}`` for n
daily measurements of v from that day, and ``reports``: a list of
``{report, due, received}`` (optional), ``as_of`` (optional). Returns the determination's
JSON (``Determination.as_dict()``) without the counted list, plus ``reports``, or
``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sewer_rules.federal.snc_chronic_and_trc import Limit, Measurement
from sewer_rules.federal.snc_determination import determine
from sewer_rules.federal.snc_late_reports import Report
from sewer_rules.federal.snc_periods import PeriodError, parse_period
from sewer_rules.parameters import load_jurisdiction

FACILITY = "ACME"


def _day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def run(case: dict[str, Any]) -> dict[str, Any]:
    params = load_jurisdiction(case.get("jurisdiction", "wappinger"))
    i = case["input"]
    entries: list[tuple[date, str, bool]] = []
    for m in i.get("measurements", []):
        if isinstance(m, dict):
            first = _day(m["from"])
            entries += [
                (first + timedelta(days=k), str(m["value"]), bool(m.get("nd")))
                for k in range(int(m["count"]))
            ]
        else:
            entries.append((_day(m[0]), str(m[1]), len(m) > 2))
    measurements = [
        Measurement(FACILITY, i["parameter"], day, Fraction(value), nd, (n + 2,))
        for n, (day, value, nd) in enumerate(entries)
    ]
    limits = []
    if "limit" in i:
        limits.append(
            Limit(
                FACILITY,
                i["parameter"],
                i["limit_type"],
                Decimal(str(i["limit"])),
                date.min,
                date.max,
            )
        )
    reports = [
        Report(
            FACILITY,
            r["report"],
            _day(r["due"]),
            _day(r["received"]) if r.get("received") else None,
        )
        for r in i.get("reports", [])
    ]
    try:
        result = determine(
            measurements,
            limits,
            parse_period(str(i["period"])),
            params,
            rolling=i.get("rolling"),
            reports=reports,
            as_of=_day(i["as_of"]) if "as_of" in i else None,
        )
    except PeriodError as e:
        return {"error": type(e).__name__, "message": str(e)}
    out: dict[str, Any] = {}
    if result.determinations:
        out = dict(result.determinations[0].as_dict())
        out.pop("counted")
    out["reports"] = [r.as_dict() for r in result.reports]
    out["found"] = result.found
    return out
