"""Case kind ``grease_interceptor``: § 196-19 F(2) sizing references and pump-out clocks.

``input`` is one of::

    {fixture_volume: "13824" | "48x24x12", drain_minutes: 1, installed: "50"}   # PDI G-101
    {dfu: 21, installed: "750"}                                                 # UPC table
    {cleaning: {pump_outs: [2026-01-01], as_of: 2026-04-02, installed: ..., interval_days: ...}}

``fixture_volume`` is cubic inches (a decimal) or inside dimensions in inches ``LxWxD``.
Returns the :class:`~sewer_rules.findings.Check` or ``CleaningStatus`` as a dict, or
``{"error": ..., "message": ...}``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_interceptors import (
    GreaseSizingError,
    size_gravity,
    size_hydromechanical,
)
from sewer_rules.ordinance.s196_19_use_of_public_sewers.grease_pump_outs import cleaning_status

from .fines import params_for


def _day(v: Any) -> date | None:
    if v is None or isinstance(v, date):
        return v
    return date.fromisoformat(str(v))


def _volume(text: Any) -> Fraction:
    parts = str(text).lower().split("x")
    out = Fraction(1)
    for p in parts:
        out *= Fraction(Decimal(p.strip()))
    return out


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    on = date.fromisoformat(str(case["date"]))
    params = params_for(case)
    installed = data.get("installed")
    try:
        if "cleaning" in data:
            c = data["cleaning"]
            as_of = _day(c.get("as_of")) or on
            return cleaning_status(
                [_day(d) for d in c.get("pump_outs", [])],
                params,
                as_of,
                installed=_day(c.get("installed")),
                interval_days=c.get("interval_days"),
            ).as_dict()
        if "dfu" in data:
            return size_gravity(
                data["dfu"],
                params,
                on,
                installed_gal=None if installed is None else Decimal(str(installed)),
            ).as_dict()
        return size_hydromechanical(
            _volume(data["fixture_volume"]),
            data.get("drain_minutes", 1),
            params,
            on,
            installed_gpm=None if installed is None else Decimal(str(installed)),
        ).as_dict()
    except GreaseSizingError as e:
        return {"error": type(e).__name__, "message": str(e)}
