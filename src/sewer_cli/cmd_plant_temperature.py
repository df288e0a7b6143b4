"""``sewer-use plant-temperature`` — § 196-19 C(5): a discharge's effect on plant influent.

    sewer-use plant-temperature --flow X --temperature X [--plant-flow X]
                                [--plant-temperature X] [--date DATE]
                                [--jurisdiction ...] [--format table|json]

--flow and --temperature describe the discharge, with units ("50000 gpd", "35 gpm",
"0.05 MGD"; "180 °F", "82 C"). The plant's influent flow and temperature without the
discharge are the dated parameters ``plant.flow`` and ``plant.temperature`` (not configured in
the Wappinger file: give them with --plant-flow / --plant-temperature, or use a jurisdiction
that records them). The mixed influent temperature must not exceed 40 °C. It is a model (an
estimate), so a modelled influent above 40 °C is "review", not "prohibited": only a measured
plant influent above 40 °C is prohibited.

Exit status: 0 when the modelled influent does not exceed 40 °C; 1 when it does (review);
2 for unusable input, including plant figures that are not configured.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from .common import add_common, describe, header, jurisdiction, measure, today
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.plant_temperature import (
        InfluentTemperature,
    )
    from sewer_rules.parameters import ParameterSet, ParameterValue


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "plant-temperature",
        help="§ 196-19 C(5): plant influent temperature caused by a discharge",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--flow", required=True, metavar="X", help='discharge flow, e.g. "50000 gpd"')
    p.add_argument(
        "--temperature", required=True, metavar="X", help='discharge temperature, e.g. "180 °F"'
    )
    p.add_argument("--plant-flow", dest="plant_flow", metavar="X", help="plant influent flow")
    p.add_argument(
        "--plant-temperature",
        dest="plant_temperature",
        metavar="X",
        help="plant influent temperature",
    )
    add_common(p, on_date=True)
    p.set_defaults(func=run)


def _given(params: ParameterSet, name: str, on: date, value: Decimal, unit: str) -> ParameterValue:
    from sewer_rules.parameters import ParameterValue

    base = params.get(name, on)
    return ParameterValue(name, value, unit, on, base.reference, "given on the command line")


def run(args: argparse.Namespace) -> int:
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.plant_temperature import (
        PLANT_FLOW,
        PLANT_TEMPERATURE,
        PlantTemperatureError,
        plant_influent_temperature,
    )
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    on = args.date or today(params)
    flow, flow_unit = measure(args.flow, "--flow", "flow", None)
    temp, temp_unit = measure(args.temperature, "--temperature", "temperature", None)
    plant_flow = plant_temp = None
    if args.plant_flow is not None:
        plant_flow = _given(
            params, PLANT_FLOW, on, *measure(args.plant_flow, "--plant-flow", "flow", None)
        )
    if args.plant_temperature is not None:
        plant_temp = _given(
            params,
            PLANT_TEMPERATURE,
            on,
            *measure(args.plant_temperature, "--plant-temperature", "temperature", None),
        )
    try:
        result = plant_influent_temperature(
            flow,
            flow_unit,
            temp,
            temp_unit,
            params,
            on,
            plant_flow=plant_flow,
            plant_temperature=plant_temp,
        )
    except (PlantTemperatureError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if not result.computed:
        options = {PLANT_FLOW: "--plant-flow", PLANT_TEMPERATURE: "--plant-temperature"}
        hint = ", ".join(options[n] for n in result.not_configured)
        raise UsageError(
            f"{result.message} (jurisdiction {params.jurisdiction}; give {hint}, e.g. "
            f"--plant-flow '2 MGD' --plant-temperature '68 °F')"
        )
    if args.format == "json":
        dump_json(
            {
                **result.as_dict(),
                "jurisdiction": params.jurisdiction,
                "parameters_version": params.version,
            },
            sys.stdout,
        )
    else:
        print(render(result, params))
    return EXIT_FOUND if result.finding is not None else EXIT_OK


def render(r: InfluentTemperature, params: ParameterSet) -> str:
    from sewer_rules.units import approx_decimal, format_decimal

    lines = header("Plant influent temperature — § 196-19 C(5)", params)
    lines.append(f"Judged on {r.on}")
    lines.append("")
    lines.append(
        f"1. Discharge: {format_decimal(r.discharge_flow)} {r.discharge_flow_unit} at "
        f"{format_decimal(r.discharge_temperature)} {r.discharge_temperature_unit}"
    )
    lines.append(f"2. Plant influent without it: {describe(r.plant_flow)}")
    lines.append(f"                              {describe(r.plant_temperature)}")
    lines.append(
        "3. Mixed (flows in gpd, temperatures in °C, exact): T = (Qd·Td + Qp·Tp) / (Qd + Qp)"
    )
    assert r.influent_c is not None
    assert r.influent_f is not None
    lines.append(f"   = {approx_decimal(r.influent_c)} °C ({approx_decimal(r.influent_f)} °F)")
    lines.append(
        f"4. Limit: {describe(r.maximum)} — a modelled influent above it is for review; "
        "a measured one is prohibited (§ 196-19 C(5))"
    )
    lines.append("")
    if r.review:
        lines.append(f"Result: REVIEW (modelled estimate) — {r.message}")
    else:
        lines.append(f"Result: within the limit — {r.message}")
    return "\n".join(lines)
