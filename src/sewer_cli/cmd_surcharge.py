"""``sewer-use surcharge`` — the extra-strength surcharge of a billing period.

    sewer-use surcharge --start DATE --end DATE (--flow-mgd X | --volume-mg X)
                        (--bod X --tss X --grease X | --results FILE)
                        [--jurisdiction ...] [--format table|json]

Pounds over normal strength (§ 196-15 NORMAL SEWAGE) = excess mg/l × million gallons × 8.34,
per pollutant, at the dated $/lb rates set by Town Board resolution (§ 196-19 E(1)(d), J).
Concentrations are the period's averages in mg/l (or another concentration unit: "600 ppm"),
or computed from the laboratory results in --results FILE (CSV with the columns date,
parameter, sample_type, value and optionally unit) as the office's billing run computes them:
the daily average of § 196-15 NORMAL SEWAGE — each day's mean, then the mean of the days in the
period — with BOD and suspended solids from composite samples and grease or oil from grab
samples only (a result of another sample type is ignored and counted). The period is split by
days where a rate or normal strength changes. The surcharge is payable only under a
Superintendent's decision (§ 196-19 E(1)(d)) or an agreement (§ 196-19 J): this command
computes the amount for the period given, which should be the days one is in force.

Exit status: 0 when computed (even when a rate is not configured: the output says so);
2 for unusable input.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from .common import add_common, header, iso_date, jurisdiction, measure, money
from .main import EXIT_OK, UsageError
from .output import dump_json, table

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.billing.strength import PollutantStrength
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
    p.add_argument("--bod", metavar="X", help="average BOD, mg/l")
    p.add_argument("--tss", metavar="X", help="average suspended solids, mg/l")
    p.add_argument("--grease", metavar="X", help="average grease or oil, mg/l")
    p.add_argument(
        "--results",
        metavar="FILE",
        help="laboratory results (CSV: date, parameter, sample_type, value[, unit]): the "
        "daily-average strength is computed from them",
    )
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
    given = [
        o for o, v in (("--bod", args.bod), ("--tss", args.tss), ("--grease", args.grease)) if v
    ]
    strength: dict[str, PollutantStrength] | None = None
    if args.results is not None:
        if given:
            raise UsageError(
                f"--results computes the strengths: do not also give {', '.join(given)}"
            )
        strength = _strength(args.results, args.start, args.end)
        averages = {k: s.average for k, s in strength.items()}
        missing = [s.message for s in strength.values() if s.average is None]
        if missing:
            raise UsageError(
                "cannot be computed: " + "; ".join(missing) + " (an unmeasured strength is "
                "not normal strength)"
            )
    elif len(given) < 3:
        raise UsageError("give --bod, --tss and --grease, or --results FILE")
    else:
        averages = {
            "bod": _concentration(args.bod, "--bod"),
            "suspended_solids": _concentration(args.tss, "--tss"),
            "grease_oil": _concentration(args.grease, "--grease"),
        }
    try:
        sc = surcharge(
            args.start,
            args.end,
            params,
            bod=averages["bod"] or Decimal(0),
            suspended_solids=averages["suspended_solids"] or Decimal(0),
            grease_oil=averages["grease_oil"] or Decimal(0),
            flow_mgd=flow,
            volume_mg=volume,
        )
    except (SurchargeError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        out: dict[str, object] = {**sc.as_dict(), "parameters_version": params.version}
        if strength is not None:
            out["strength"] = {k: s.as_dict() for k, s in strength.items()}
        dump_json(out, sys.stdout)
    else:
        if strength is not None:
            print("Daily-average strength (§ 196-15 NORMAL SEWAGE) from " + args.results + ":")
            for s in strength.values():
                print(f"  {s.message}")
            print("")
        print(render(sc, params))
    return EXIT_OK


def _strength(path: str, start: date, end: date) -> dict[str, PollutantStrength]:
    """The daily-average strength of the results in ``path`` on ``start``..``end``."""
    import csv
    from datetime import timedelta

    from sewer_rules.analytes import UnknownAnalyte, resolve
    from sewer_rules.billing.strength import Result, daily_average_strength

    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise UsageError(f"--results: cannot read {path}: {e.strerror}") from None
    need = {"date", "parameter", "sample_type", "value"}
    if not rows or not need <= set(rows[0]):
        raise UsageError(f"--results {path}: the header must name {', '.join(sorted(need))}")
    results: list[Result] = []
    for n, row in enumerate(rows, start=2):
        where = f"--results {path}, line {n}"
        try:
            day = date.fromisoformat((row["date"] or "").strip()[:10])
        except ValueError:
            raise UsageError(f"{where}: date {row['date']!r} is not YYYY-MM-DD") from None
        try:
            analyte = resolve(row["parameter"] or "").name
        except UnknownAnalyte as e:
            raise UsageError(f"{where}: {e}") from None
        kind = (row["sample_type"] or "").strip().lower()
        if kind not in ("grab", "composite", "continuous"):
            raise UsageError(f"{where}: sample_type {kind!r} is not grab, composite or continuous")
        results.append(Result(day, analyte, kind, row["value"] or "", row.get("unit") or "mg/l"))
    days = {start + timedelta(days=i) for i in range((end - start).days + 1)}
    try:
        return daily_average_strength(results, days)
    except ValueError as e:
        raise UsageError(f"--results {path}: {e}") from None


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
