"""§ 196-19 F(2) — grease traps: sizing against the method in force.

§ 196-19 F(2): "Grease traps shall be provided by all food preparation services, processing
operations and restaurants for the proper handling of their kitchen wastes. The grease trap
shall be sized in accordance with the New York State Department of Environmental
Conservation publication Design Standards for Wastewater Treatment Works, (1988) edition,
and approved by the Dutchess County Health Department. All grease traps shall be located as
to be readily and easily accessible for cleaning and inspection."

What is formalized here, and what is not:

- **The sizing method is a dated parameter** (``grease_interceptor.sizing_method``): 0 = the
  NYS DEC Design Standards (1988), the method the article names; 1 = PDI G-101
  hydromechanical; 2 = the UPC gravity table; 3 = either 1 or 2. Wappinger ships 0.
- **The DEC 1988 Design Standards are not formalized**: their text is not in this project.
  While the method in force is 0 (Wappinger), the PDI and UPC computations below are shown
  as *references* for the engineer, never as a determination under § 196-19 F(2) (a check's
  ``passed`` is then None). Where a town adopts 1, 2 or 3 (the demo), they decide.
- **Hydromechanical, PDI G-101** (with ASME A112.14.3): flow rate
  gpm = 0.75 × (fixture volume in³ ÷ 231) ÷ drain time (1 minute, or 2 where allowed); the
  unit is the smallest listed rated size at or above it — 4, 7, 10, 15, 20, 25, 35, 50 gpm —
  with a grease capacity of 2 lb per gpm of rating. Above 50 gpm no listed size fits: the
  result says so. A 48 × 24 × 12 in sink (13,824 in³) → 44.89 gpm → a 50 gpm unit (100 lb).
  231 in³ = 1 US gallon exactly (through pint). Arithmetic is exact (fractions); the flow is
  shown rounded *up* to the hundredth (4.0032 gpm shows as 4.01, never as a rated 4), with the
  exact fraction beside it.
- **Gravity, UPC** gravity grease interceptor table (drainage fixture units → gallons): up to
  8 DFU 500 gal, 21 → 750, 35 → 1,000, 90 → 1,250, 172 → 1,500, 216 → 2,000, 307 → 2,500,
  342 → 3,000, 428 → 4,000, 576 → 5,000, 720 → 7,500, 2,112 → 10,000, 2,640 → 15,000; each
  row's DFU is the most it serves (inclusive). Above 2,640 DFU the table has no size.
  (Figures from DOMAIN.md, read from secondary sources: verify against the UPC edition the
  town adopts.)
- **An installation check**: a unit whose rated flow (gpm) is at least the computed flow, or a
  gravity interceptor of at least the table's capacity, meets the method.
- **Not formalized**: whether an establishment is a "food preparation service, processing
  operation or restaurant" (the office records it), the Dutchess County Health Department's
  approval (another agency), and "readily and easily accessible for cleaning and inspection"
  (found by inspection).
- **Cleaning** (pump-out clocks): :mod:`.grease_pump_outs`.
"""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal
from enum import IntEnum
from fractions import Fraction
from functools import cache

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import format_decimal, fraction_to_decimal, registry

F2 = cite("§ 196-19 F(2)")
SIZING_METHOD = "grease_interceptor.sizing_method"

PDI_REFERENCE = "PDI G-101 / ASME A112.14.3 (hydromechanical)"
UPC_REFERENCE = "UPC gravity grease interceptor sizing table (verify edition)"
#: the share of a fixture's volume that drains (PDI G-101 displacement factor)
PDI_DISPLACEMENT = Fraction(3, 4)
PDI_DRAIN_MINUTES = (1, 2)
PDI_RATED_GPM = (4, 7, 10, 15, 20, 25, 35, 50)
PDI_GREASE_LB_PER_GPM = 2
#: (most drainage fixture units served, gallons)
UPC_GRAVITY_TABLE = (
    (8, 500),
    (21, 750),
    (35, 1000),
    (90, 1250),
    (172, 1500),
    (216, 2000),
    (307, 2500),
    (342, 3000),
    (428, 4000),
    (576, 5000),
    (720, 7500),
    (2112, 10000),
    (2640, 15000),
)


class SizingMethod(IntEnum):
    DEC_1988 = 0
    PDI_G101 = 1
    UPC_GRAVITY = 2
    EITHER = 3

    @property
    def label(self) -> str:
        return {
            0: "NYS DEC Design Standards for Wastewater Treatment Works (1988) — not formalized",
            1: "PDI G-101 hydromechanical",
            2: "UPC gravity table",
            3: "PDI G-101 hydromechanical or UPC gravity table",
        }[int(self)]

    def allows(self, method: SizingMethod) -> bool:
        return self is method or (
            self is SizingMethod.EITHER
            and method in (SizingMethod.PDI_G101, SizingMethod.UPC_GRAVITY)
        )


class GreaseSizingError(ValueError):
    """Inputs that cannot be sized (negative volume, a drain time PDI G-101 does not use...)."""


@cache
def cubic_inches_per_gallon() -> Fraction:
    """231, exactly: the US gallon's definition, read from pint."""
    return Fraction(registry().Quantity(Fraction(1), "gallon").to("inch ** 3").magnitude)


def method_in_force(params: ParameterSet, on: date) -> tuple[ParameterValue, SizingMethod | None]:
    """The sizing method parameter on ``on`` (None when not configured)."""
    pv = params.get(SIZING_METHOD, on)
    if pv.value is None:
        return pv, None
    try:
        return pv, SizingMethod(int(pv.value))
    except ValueError:
        raise GreaseSizingError(
            f"{SIZING_METHOD} = {pv.value} is not a known method code (0, 1, 2 or 3)"
        ) from None


def hydromechanical_flow_gpm(fixture_volume_in3: Fraction, drain_minutes: int) -> Fraction:
    """PDI G-101: 0.75 × (volume in³ ÷ 231) ÷ drain minutes, exactly."""
    if fixture_volume_in3 <= 0:
        raise GreaseSizingError(f"fixture volume must be positive, not {fixture_volume_in3} in³")
    if drain_minutes not in PDI_DRAIN_MINUTES:
        raise GreaseSizingError(
            f"PDI G-101 drains in 1 minute, or 2 where allowed; not {drain_minutes}"
        )
    return PDI_DISPLACEMENT * fixture_volume_in3 / cubic_inches_per_gallon() / drain_minutes


def rated_size_gpm(flow_gpm: Fraction) -> int | None:
    """The smallest listed PDI rated size at or above the flow; None above 50 gpm."""
    return next((size for size in PDI_RATED_GPM if size >= flow_gpm), None)


def gravity_capacity_gal(dfu: int) -> int | None:
    """The UPC table's capacity for ``dfu`` drainage fixture units; None above 2,640."""
    return next((gal for most, gal in UPC_GRAVITY_TABLE if dfu <= most), None)


def _standing(
    params: ParameterSet, on: date, method: SizingMethod
) -> tuple[ParameterValue, SizingMethod | None, bool, str]:
    """(parameter, method in force, whether ``method`` decides, sentence saying so)."""
    pv, in_force = method_in_force(params, on)
    since = f"{SIZING_METHOD} = {'not configured' if pv.value is None else pv.value}"
    since += f" since {pv.effective}" + (f", {pv.authority}" if pv.authority else "")
    if in_force is None:
        return pv, None, False, f"no sizing method is configured ({since}): a reference only"
    if in_force.allows(method):
        return pv, in_force, True, f"the method in force is {in_force.label} ({since})"
    if in_force is SizingMethod.DEC_1988:
        why = (
            f"{F2} sizes grease traps by the NYS DEC Design Standards for Wastewater Treatment "
            f"Works (1988) ({since}), which this software does not formalize: this "
            f"{method.label} figure is a reference for the engineer, not a determination"
        )
    else:
        why = (
            f"the method in force is {in_force.label} ({since}): this {method.label} figure is "
            "a reference only"
        )
    return pv, in_force, False, why


def _cited(text: str) -> str:
    return text if str(F2) in text else f"{text} ({F2})"


def _details(pv: ParameterValue, in_force: SizingMethod | None, decides: bool) -> dict[str, str]:
    return {
        "method_in_force": "not configured" if in_force is None else str(int(in_force)),
        "method_in_force_label": "not configured" if in_force is None else in_force.label,
        "determination": "yes" if decides else "reference only",
        "parameter": pv.name,
        "effective": pv.effective.isoformat(),
        "authority": pv.authority,
    }


@implements("§ 196-19 F(2)")
def size_hydromechanical(
    fixture_volume_in3: Decimal | Fraction,
    drain_minutes: int,
    params: ParameterSet,
    on: date,
    *,
    installed_gpm: Decimal | Fraction | None = None,
) -> Check:
    """PDI G-101 sizing of a hydromechanical grease interceptor for the fixtures it serves.

    ``passed`` is None when sizing only, or when PDI G-101 is not the method in force (a
    reference); with ``installed_gpm`` and the method in force, True when the installed unit's
    rated flow is at least the computed flow.
    """
    volume = Fraction(fixture_volume_in3)
    flow = hydromechanical_flow_gpm(volume, drain_minutes)
    size = rated_size_gpm(flow)
    pv, in_force, decides, standing = _standing(params, on, SizingMethod.PDI_G101)
    flow_text = format_decimal(Fraction(math.ceil(flow * 100), 100))  # shown rounded up
    gallons = volume / cubic_inches_per_gallon()
    head = (
        f"{format_decimal(volume)} in³ of fixtures ({format_decimal(fraction_to_decimal(gallons, 2))}"
        f" gal) × 0.75 drained in {drain_minutes} min = {flow_text} gpm"
    )
    if size is None:
        result = (
            f"above {PDI_RATED_GPM[-1]} gpm, the largest rated size listed: no single "
            "hydromechanical unit of the listed sizes serves it (a gravity interceptor, or "
            "several units, for the engineer)"
        )
    else:
        result = (
            f"a {size} gpm unit (grease capacity {size * PDI_GREASE_LB_PER_GPM} lb) "
            f"is the smallest rated size at or above it"
        )
    passed: bool | None = None
    details = {
        "method": "hydromechanical",
        "reference": PDI_REFERENCE,
        "fixture_volume_in3": format_decimal(volume),
        "drain_minutes": str(drain_minutes),
        "flow_gpm": flow_text,
        "flow_gpm_exact": f"{flow.numerator}/{flow.denominator}"
        if flow.denominator != 1
        else str(flow),
        "rated_size_gpm": "none" if size is None else str(size),
        "grease_capacity_lb": "none" if size is None else str(size * PDI_GREASE_LB_PER_GPM),
        **_details(pv, in_force, decides),
    }
    message = f"{head}: {result}; {_cited(standing)}"
    if installed_gpm is not None:
        installed = Fraction(installed_gpm)
        meets = installed >= flow
        details["installed_gpm"] = format_decimal(installed)
        details["installed_meets"] = "yes" if meets else "no"
        verdict = "meets" if meets else "does not meet"
        message += (
            f"; the installed {format_decimal(installed)} gpm unit {verdict} the "
            f"{flow_text} gpm flow"
        )
        if decides:
            passed = meets
    return Check(citation=F2, passed=passed, message=message, details=details)


@implements("§ 196-19 F(2)")
def size_gravity(
    dfu: int,
    params: ParameterSet,
    on: date,
    *,
    installed_gal: Decimal | Fraction | None = None,
) -> Check:
    """UPC gravity grease interceptor sizing by drainage fixture units.

    ``passed`` as for :func:`size_hydromechanical`: with ``installed_gal`` and the method in
    force, True when the installed capacity is at least the table's.
    """
    if isinstance(dfu, bool) or not isinstance(dfu, int) or dfu < 0:
        raise GreaseSizingError(f"drainage fixture units must be a whole number ≥ 0, not {dfu!r}")
    capacity = gravity_capacity_gal(dfu)
    pv, in_force, decides, standing = _standing(params, on, SizingMethod.UPC_GRAVITY)
    if capacity is None:
        result = (
            f"{dfu} drainage fixture units is above the table's {UPC_GRAVITY_TABLE[-1][0]}: "
            "it lists no size (for the engineer)"
        )
        row = "none"
    else:
        most = next(m for m, gal in UPC_GRAVITY_TABLE if gal == capacity)
        result = f"{dfu} drainage fixture units (up to {most}) → {capacity:,} gallons"
        row = str(most)
    passed: bool | None = None
    details = {
        "method": "gravity",
        "reference": UPC_REFERENCE,
        "dfu": str(dfu),
        "table_row_dfu": row,
        "capacity_gal": "none" if capacity is None else str(capacity),
        **_details(pv, in_force, decides),
    }
    message = f"{result}; {_cited(standing)}"
    if installed_gal is not None and capacity is not None:
        installed = Fraction(installed_gal)
        meets = installed >= capacity
        details["installed_gal"] = format_decimal(installed)
        details["installed_meets"] = "yes" if meets else "no"
        verdict = "meets" if meets else "does not meet"
        message += f"; the installed {format_decimal(installed)} gal interceptor {verdict} it"
        if decides:
            passed = meets
    return Check(citation=F2, passed=passed, message=message, details=details)
