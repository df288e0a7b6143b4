"""Case kind ``plant_temperature``: § 196-19 C(5) — plant influent temperature of a discharge.

``input``: ``flow``, ``flow_unit``, ``temperature``, ``temperature_unit``; optionally
``plant_flow`` + ``plant_flow_unit`` and ``plant_temperature`` + ``plant_temperature_unit``
(given explicitly instead of the jurisdiction's dated plant figures). Returns
``InfluentTemperature.as_dict()`` or ``{"error": ..., "message": ...}``.

With ``measured_temperature`` + ``measured_unit`` instead, the temperature measured in the
plant influent is judged (``measured_plant_influent``): returns ``status`` and ``finding``.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sewer_rules.ordinance.s196_19_use_of_public_sewers.plant_temperature import (
    PlantTemperatureError,
    measured_plant_influent,
    plant_influent_temperature,
)
from sewer_rules.parameters import ParameterValue
from sewer_rules.units import parse_unit

from .fines import params_for


def _given(name: str, value: Any, unit: str, on: date) -> ParameterValue:
    return ParameterValue(
        name, Decimal(str(value)), parse_unit(unit).symbol, on, "§ 196-19 C(5)", "given in the case"
    )


def run(case: dict[str, Any]) -> Any:
    data = case["input"]
    on = date.fromisoformat(str(case["date"]))
    if "measured_temperature" in data:
        try:
            finding = measured_plant_influent(
                Decimal(str(data["measured_temperature"])),
                str(data["measured_unit"]),
                params_for(case),
                on,
            )
        except PlantTemperatureError as e:
            return {"error": type(e).__name__, "message": str(e)}
        return {
            "status": str(finding.status) if finding else "compliant",
            "finding": finding.as_dict() if finding else None,
        }
    plant_flow = plant_temperature = None
    if "plant_flow" in data:
        plant_flow = _given("plant.flow", data["plant_flow"], data["plant_flow_unit"], on)
    if "plant_temperature" in data:
        plant_temperature = _given(
            "plant.temperature", data["plant_temperature"], data["plant_temperature_unit"], on
        )
    try:
        result = plant_influent_temperature(
            Decimal(str(data["flow"])),
            str(data["flow_unit"]),
            Decimal(str(data["temperature"])),
            str(data["temperature_unit"]),
            params_for(case),
            on,
            plant_flow=plant_flow,
            plant_temperature=plant_temperature,
        )
    except PlantTemperatureError as e:
        return {"error": type(e).__name__, "message": str(e)}
    return result.as_dict()
