"""``sewer-use surcharge`` — the extra-strength surcharge of a billing period.

    sewer-use surcharge --start DATE --end DATE (--flow-mgd X | --volume-mg X)
                        --bod X --tss X --grease X [--jurisdiction ...] [--format table|json]

Pounds over normal strength (§ 196-15 NORMAL SEWAGE) = excess mg/l × million gallons × 8.34,
per pollutant, at the dated $/lb rates set by Town Board resolution (§ 196-19 E(1)(d), J).
Concentrations are the period's averages in mg/l (or another concentration unit: "600 ppm").
The period is split by days where a rate or normal strength changes.

Exit status: 0 when computed (even when a rate is not configured: the output says so);
2 for unusable input.
"""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from .common import add_common, header, iso_date, jurisdiction, measure, money
from .main import EXIT_OK, UsageError
from .output import dump_json, table

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.surcharge import SurchargeComputation
    from sewer_rules.parameters import ParameterSet


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "surcharge",
        help="§ 196-19 E(1)(d), J: extra-strength surcharge of a billing period",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--start", type=iso_date, required=True, metavar="DATE", help="first day of the period"
    )
    p.add_argument(
        "--end", type=iso_date, required=True, metavar="DATE", help="last day (inclusive)"
    )
    flow = p.add_mutually_exclusive_group(required=True)
    flow.add_argument(
        "--flow-mgd", dest="flow_mgd", metavar="X", help="average flow, million gallons per day"
    )
    flow.add_argument(
        "--volume-mg", dest="volume_mg", metavar="X", help="total volume, million gallons"
    )
    p.add_argument("--bod", required=True, metavar="X", help="average BOD, mg/l")
    p.add_argument("--tss", required=True, metavar="X", help="average suspended solids, mg/l")
    p.add_argument("--grease", required=True, metavar="X", help="average grease or oil, mg/l")
    add_common(p)
    p.set_defaults(func=run)


def _number(text: str, option: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise UsageError(f"{option}: {text!r} is not a number") from None
    if not value.is_finite():
        raise UsageError(f"{option}: {text!r} is not a number")
    return value


def _concentration(text: str, option: str) -> Decimal:
    from sewer_rules.units import convert, format_decimal

    value, unit = measure(text, option, "concentration", "mg/l")
    if unit == "mg/l":
        return value
    exact = convert(value, unit, "mg/l")
    return Decimal(format_decimal(exact))


def run(args: argparse.Namespace) -> int:
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.surcharge import (
        SurchargeError,
        surcharge,
    )
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    flow = _number(args.flow_mgd, "--flow-mgd") if args.flow_mgd is not None else None
    volume = _number(args.volume_mg, "--volume-mg") if args.volume_mg is not None else None
    try:
        sc = surcharge(
            args.start,
            args.end,
            params,
            bod=_concentration(args.bod, "--bod"),
            suspended_solids=_concentration(args.tss, "--tss"),
            grease_oil=_concentration(args.grease, "--grease"),
            flow_mgd=flow,
            volume_mg=volume,
        )
    except (SurchargeError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        dump_json({**sc.as_dict(), "parameters_version": params.version}, sys.stdout)
    else:
        print(render(sc, params))
    return EXIT_OK


def render(sc: SurchargeComputation, params: ParameterSet) -> str:
    from sewer_rules.units import format_decimal

    lines = header(
        "Extra-strength surcharge — § 196-19 E(1)(d), § 196-19 J; normal strength § 196-15 NORMAL SEWAGE",
        params,
    )
    lines.append("")
    lines.append(f"1. Billing period: {sc.start} to {sc.end} inclusive, {sc.days} days")
    if sc.flow_mgd is not None:
        lines.append(
            f"2. Volume: {format_decimal(sc.flow_mgd)} MGD × {sc.days} days = "
            f"{format_decimal(sc.volume_mg)} million gallons"
        )
    else:
        lines.append(f"2. Volume: {format_decimal(sc.volume_mg)} million gallons (given)")
    factor = sc.parts[0].pounds_factor
    lines.append(
        f"3. pounds = (average − normal strength, never below 0) mg/l × million gallons × "
        f"{format_decimal(factor.value or Decimal(0))} ({factor.name}, since {factor.effective}) "
        "(§ 196-19 E(1)(d))"
    )
    if len(sc.parts) > 1:
        lines.append(
            f"4. A parameter changes within the period: {len(sc.parts)} parts, the volume shared "
            "among them by days"
        )
    lines.append("")
    rows = []
    for part in sc.parts:
        span = f"{part.first_day}..{part.last_day} ({part.days} d, {format_decimal(part.volume_mg)} MG)"
        for p in part.pollutants:
            rows.append(
                (
                    span,
                    p.pollutant.label,
                    format_decimal(p.concentration),
                    _opt(p.normal.value),
                    format_decimal(p.excess),
                    format_decimal(p.pounds),
                    str(p.rate.value) if p.rate.value is not None else "not configured",
                    p.rate.effective,
                    p.rate.authority or "-",
                    "0"
                    if p.charge == 0
                    else ("not configured" if p.charge is None else format_decimal(p.charge)),
                )
            )
            span = ""
    heads = (
        "period",
        "pollutant",
        "avg mg/l",
        "normal mg/l",
        "excess mg/l",
        "pounds",
        "USD/lb",
        "rate since",
        "rate authority",
        "USD",
    )
    lines.append(table(heads, rows))
    lines.append("")
    totals = [
        (
            t.pollutant.label,
            format_decimal(t.pounds),
            "not configured" if t.charge is None else format_decimal(t.charge),
        )
        for t in sc.totals
    ]
    lines.append(table(("pollutant", "pounds over normal", "USD (exact)"), totals))
    lines.append("")
    if sc.total is None:
        missing = ", ".join(f"{r.name} (since {r.effective})" for r in sc.unconfigured_rates)
        lines.append(
            f"Surcharge: not stated — no rate is configured for {missing}; record the Town Board's "
            "rate in the jurisdiction's parameters (§ 196-19 E(1)(d))."
        )
    else:
        lines.append(
            f"Surcharge: USD {money(sc.total)} (exact amount rounded to cents, half-up, at the end) "
            "(§ 196-19 E(1)(d), § 196-19 J)."
        )
    return "\n".join(lines)


def _opt(d: Decimal | None) -> str:
    from sewer_rules.units import format_decimal

    return "not configured" if d is None else format_decimal(d)
