"""§ 196-19 C(5) — a discharge's effect on the treatment plant's influent temperature.

§ 196-19 C: "No person shall discharge or cause to be discharged any of the following
described waters or wastes to any public sewers: ... (5) Any liquid or vapor at such
temperatures or in such quantities to cause the influent wastewater temperature at the
treatment plant to exceed 40° C. (104° F.)."

How the software reads it (docs/interpretations.md):

- 40 °C governs (``plant_influent.temperature_maximum``); 104 °F is its approximation.
- "exceed" is strict: an influent of exactly 40 °C is lawful.
- A *measured* plant influent above 40 °C is ``prohibited`` (an absolute prohibition of
  § 196-19 C): :func:`measured_plant_influent`.
- A *modelled* one — a discharge mixed into an assumed plant flow, before anything reaches the
  plant — is an estimate, not a fact found: above 40 °C it is ``review`` for the
  Superintendent, never ``prohibited`` (:func:`plant_influent_temperature`).
- The modelled influent temperature is computed by mixing the discharge into the plant's influent:
  ``T = (Qd·Td + Qp·Tp) / (Qd + Qp)``, where ``Qp`` and ``Tp`` are the plant's influent flow
  and temperature *without* the discharge (``plant.flow``, ``plant.temperature``: plant figures,
  dated parameters). Water of equal density and specific heat is assumed, and no heat is lost
  on the way to the plant — a conservative reading: real sewers cool a hot discharge.
- Flows in any accepted flow unit (gpd, gpm, MGD), temperatures in °F or °C (any accepted
  spelling), converted exactly; the mixing is computed in exact fractions.
- Where the plant figures are not configured for the date (Wappinger ships them empty), the
  result says so and makes no finding: it never assumes a plant flow or temperature.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

from sewer_rules.citations import cite
from sewer_rules.findings import Finding, Status, UsedParameter
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import (
    UnitError,
    approx_decimal,
    convert,
    format_decimal,
    terminates,
    unit_of,
)

C5 = cite("§ 196-19 C(5)")

MAXIMUM = "plant_influent.temperature_maximum"
PLANT_FLOW = "plant.flow"
PLANT_TEMPERATURE = "plant.temperature"


class PlantTemperatureError(ValueError):
    """A flow or temperature that cannot be mixed (wrong unit, negative flow, no flow at all)."""


@dataclass(frozen=True)
class InfluentTemperature:
    """A discharge mixed into the plant influent on a date, and what § 196-19 C(5) says of it."""

    on: date
    discharge_flow: Decimal
    discharge_flow_unit: str
    discharge_temperature: Decimal
    discharge_temperature_unit: str
    plant_flow: ParameterValue
    plant_temperature: ParameterValue
    maximum: ParameterValue
    influent_c: Fraction | None
    finding: Finding | None

    @property
    def not_configured(self) -> tuple[str, ...]:
        return tuple(p.name for p in (self.plant_flow, self.plant_temperature) if p.value is None)

    @property
    def computed(self) -> bool:
        return self.influent_c is not None

    @property
    def prohibited(self) -> bool:
        return self.finding is not None and self.finding.status is Status.PROHIBITED

    @property
    def review(self) -> bool:
        """The modelled influent exceeds the maximum: an estimate, for review."""
        return self.finding is not None and self.finding.status is Status.REVIEW

    @property
    def influent_f(self) -> Fraction | None:
        return None if self.influent_c is None else convert(self.influent_c, "°C", "°F")

    @property
    def message(self) -> str:
        if self.influent_c is None:
            missing = ", ".join(self.not_configured)
            return (
                f"cannot compute the plant influent temperature: {missing} not configured for "
                f"the date {self.on} — record the plant figure(s) as dated parameters (or give "
                f"them explicitly); no finding is made under {C5}"
            )
        if self.finding is not None:
            return self.finding.message
        return (
            f"modelled plant influent temperature {approx_decimal(self.influent_c)} °C does not exceed "
            f"{approx_decimal(self.maximum_c)} °C ({C5})"
        )

    @property
    def maximum_c(self) -> Fraction:
        assert self.maximum.value is not None
        return convert(self.maximum.value, self.maximum.unit, "°C")

    def as_dict(self) -> dict[str, object]:
        return {
            "on": self.on.isoformat(),
            "discharge": {
                "flow": format_decimal(self.discharge_flow),
                "flow_unit": self.discharge_flow_unit,
                "temperature": format_decimal(self.discharge_temperature),
                "temperature_unit": self.discharge_temperature_unit,
            },
            "plant_flow": _param(self.plant_flow),
            "plant_temperature": _param(self.plant_temperature),
            "maximum": _param(self.maximum),
            "influent_temperature_c": _opt(self.influent_c),
            "influent_temperature_f": _opt(self.influent_f),
            "influent_temperature_exact": (
                None if self.influent_c is None else terminates(self.influent_c)
            ),
            "computed": self.computed,
            "not_configured": list(self.not_configured),
            "status": (
                str(self.finding.status)
                if self.finding
                else ("compliant" if self.computed else "not_configured")
            ),
            "finding": self.finding.as_dict() if self.finding else None,
            "message": self.message,
        }


@implements("§ 196-19 C(5)")
def plant_influent_temperature(
    flow: Decimal,
    flow_unit: str,
    temperature: Decimal,
    temperature_unit: str,
    params: ParameterSet,
    on: date,
    *,
    plant_flow: ParameterValue | None = None,
    plant_temperature: ParameterValue | None = None,
) -> InfluentTemperature:
    """The plant influent temperature a discharge is modelled to cause, and a finding if it
    exceeds 40 °C.

    § 196-19 C(5): no person shall discharge "Any liquid or vapor at such temperatures or in
    such quantities to cause the influent wastewater temperature at the treatment plant to
    exceed 40° C. (104° F.)."

    ``flow``/``temperature`` describe the discharge, in any accepted spelling of a flow and a
    temperature unit. The plant's figures are read from ``plant.flow`` and ``plant.temperature``
    on ``on``, unless given explicitly (as :class:`ParameterValue` naming their source).
    Returns an :class:`InfluentTemperature` whose ``finding`` is a ``review``
    :class:`Finding` when the modelled influent is above the maximum, None otherwise: the
    mixing is an estimate (assumed plant flow and temperature, no heat lost on the way), so it
    asks the Superintendent to look, it does not find a prohibited discharge.
    """
    q_unit = _unit(flow_unit, "flow", "discharge flow")
    t_unit = _unit(temperature_unit, "temperature", "discharge temperature")
    if flow < 0:
        raise PlantTemperatureError(f"a discharge flow cannot be negative ({flow} {q_unit})")
    qp = plant_flow if plant_flow is not None else params.get(PLANT_FLOW, on)
    tp = plant_temperature if plant_temperature is not None else params.get(PLANT_TEMPERATURE, on)
    maximum = params.get(MAXIMUM, on)
    if maximum.value is None:
        raise PlantTemperatureError(f"{MAXIMUM} is not configured in {params.jurisdiction} on {on}")
    result = InfluentTemperature(
        on=on,
        discharge_flow=flow,
        discharge_flow_unit=q_unit,
        discharge_temperature=temperature,
        discharge_temperature_unit=t_unit,
        plant_flow=qp,
        plant_temperature=tp,
        maximum=maximum,
        influent_c=None,
        finding=None,
    )
    if qp.value is None or tp.value is None:
        return result
    _unit(qp.unit, "flow", PLANT_FLOW)
    _unit(tp.unit, "temperature", PLANT_TEMPERATURE)
    if qp.value < 0:
        raise PlantTemperatureError(f"{PLANT_FLOW} cannot be negative ({qp.value} {qp.unit})")
    qd_gpd = convert(flow, q_unit, "gpd")
    qp_gpd = convert(qp.value, qp.unit, "gpd")
    if qd_gpd + qp_gpd == 0:
        raise PlantTemperatureError("no flow at all: the influent temperature is undefined")
    td_c = convert(temperature, t_unit, "°C")
    tp_c = convert(tp.value, tp.unit, "°C")
    influent = (qd_gpd * td_c + qp_gpd * tp_c) / (qd_gpd + qp_gpd)
    limit_c = convert(maximum.value, maximum.unit, "°C")
    finding = None
    if influent > limit_c:
        finding = Finding(
            status=Status.REVIEW,
            citation=C5,
            message=(
                f"the discharge ({format_decimal(flow)} {q_unit} at "
                f"{format_decimal(temperature)} {t_unit}) is modelled to raise the plant influent "
                f"({format_decimal(qp.value)} {qp.unit} at {format_decimal(tp.value)} {tp.unit}) "
                f"to {approx_decimal(influent)} °C, exceeding {approx_decimal(limit_c)} °C "
                f"({C5}): an estimate, for review — a measured plant influent above "
                f"{approx_decimal(limit_c)} °C is prohibited"
            ),
            limit=format_decimal(maximum.value),
            limit_unit=maximum.unit,
            parameter=UsedParameter(maximum.name, maximum.effective, maximum.authority),
        )
    return replace(result, influent_c=influent, finding=finding)


@implements("§ 196-19 C(5)")
def measured_plant_influent(
    temperature: Decimal, unit: str, params: ParameterSet, on: date
) -> Finding | None:
    """A ``prohibited`` finding when a measured plant influent temperature exceeds 40 °C.

    § 196-19 C(5): no person shall discharge "Any liquid or vapor at such temperatures or in
    such quantities to cause the influent wastewater temperature at the treatment plant to
    exceed 40° C. (104° F.)." A temperature measured in the influent at the plant is the fact
    the subsection names: above the maximum it is prohibited; exactly 40 °C is lawful.
    """
    t_unit = _unit(unit, "temperature", "plant influent temperature")
    maximum = params.get(MAXIMUM, on)
    if maximum.value is None:
        raise PlantTemperatureError(f"{MAXIMUM} is not configured in {params.jurisdiction} on {on}")
    measured_c = convert(temperature, t_unit, "°C")
    limit_c = convert(maximum.value, maximum.unit, "°C")
    if measured_c <= limit_c:
        return None
    return Finding(
        status=Status.PROHIBITED,
        citation=C5,
        message=(
            f"measured plant influent temperature {format_decimal(temperature)} {t_unit} "
            f"({approx_decimal(measured_c)} °C) exceeds {approx_decimal(limit_c)} °C ({C5})"
        ),
        limit=format_decimal(maximum.value),
        limit_unit=maximum.unit,
        parameter=UsedParameter(maximum.name, maximum.effective, maximum.authority),
    )


def _unit(spelling: str, dimension: str, what: str) -> str:
    try:
        return unit_of(spelling, dimension, what).symbol
    except UnitError as e:
        raise PlantTemperatureError(str(e)) from None


def _opt(x: Fraction | None) -> str | None:
    """Display form for JSON: exact when it terminates, else rounded to 6 places."""
    return None if x is None else format_decimal(x)


def _param(p: ParameterValue) -> dict[str, object]:
    return {
        "name": p.name,
        "value": None if p.value is None else format_decimal(p.value),
        "unit": p.unit,
        "effective": p.effective.isoformat(),
        "authority": p.authority,
        "reference": p.reference,
    }
