"""``sewer-use fines`` — the § 196-22 notice/correction clock and the accrued daily fine.

    sewer-use fines --served DATE [--period DAYS] [--corrected DATE | --as-of DATE]
                    [--violation CITATION] [--jurisdiction wappinger|demo|PATH]
                    [--format table|json]

A notice served on --served gives the period it states (--period, at least and by default the
10 days of § 196-22 A), counted from the day after service; a last day on a Saturday, Sunday
or New York public holiday moves to the next business day (N.Y. General Construction Law
§§ 24, 25-a). Each day after the deadline
up to the day the Superintendent verified the correction (--corrected), or up to --as-of
(default: today in the town's zone) while it is not corrected, is fined at the § 122-20 Y daily
amount in force on that day (§ 196-22 B). Fines are accrued, subject to conviction.

Exit status: 0 when no fine has accrued (corrected in time, or still within the period);
1 when days of continuing violation have accrued, or the violation is of § 196-20 (referred at
once, no clock); 2 for unusable input.

This module also holds the small argument helpers shared by the rules commands ``fines``,
``surcharge``, ``sewer-design``, ``grinder`` and ``plant-temperature``.
"""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal

from sewer_rules.citations import CitationError
from sewer_rules.ordinance.s196_22_penalties import (
    DAILY_AMOUNT,
    ClockError,
    FineComputation,
    accrued_fines,
    procedure_for,
)
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.units import format_decimal

from .common import add_common, header, iso_date, jurisdiction, money, today
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json, table

# --- sewer-use fines --------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "fines",
        help="§ 196-22: correction deadline and accrued daily fine of a notice of violation",
        description=__doc__.split("\n\nThis module")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--served", type=iso_date, required=True, metavar="DATE", help="day the notice was served"
    )
    p.add_argument(
        "--period",
        type=int,
        metavar="DAYS",
        help="correction period stated in the notice (at least 10, the default; § 196-22 A)",
    )
    p.add_argument(
        "--corrected",
        type=iso_date,
        metavar="DATE",
        help="day the Superintendent verified the correction (omit while not corrected)",
    )
    p.add_argument(
        "--as-of",
        dest="as_of",
        type=iso_date,
        metavar="DATE",
        help="count up to this day while not corrected (default: today in the town's zone)",
    )
    p.add_argument(
        "--violation",
        metavar="CITATION",
        help='the provision violated, e.g. "§ 196-19 C(3)"; § 196-20 has no correction clock',
    )
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    params = jurisdiction(args.jurisdiction)
    procedure = None
    if args.violation:
        try:
            procedure = procedure_for(args.violation)
        except CitationError as e:
            raise UsageError(f"--violation: {e}") from None
        if not procedure.correction_clock:
            if args.format == "json":
                dump_json(
                    {"jurisdiction": params.jurisdiction, "procedure": procedure.as_dict()},
                    sys.stdout,
                )
            else:
                print(
                    "\n".join(
                        [*header("Notice of violation — § 196-22 A", params), "", procedure.message]
                    )
                )
            return EXIT_FOUND
    as_of = args.as_of or today(params)
    if args.corrected and args.as_of is None and args.corrected > as_of:
        raise UsageError(f"--corrected {args.corrected} is in the future (today is {as_of})")
    try:
        fc = accrued_fines(args.served, args.corrected, as_of, params, period_days=args.period)
    except (ClockError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        data = {**fc.as_dict(), "parameters_version": params.version}
        if procedure is not None:
            data["procedure"] = procedure.as_dict()
        dump_json(data, sys.stdout)
    else:
        print(render(fc, params, procedure.message if procedure else None))
    return EXIT_FOUND if fc.days else EXIT_OK


def render(fc: FineComputation, params: ParameterSet, procedure: str | None = None) -> str:
    lines = header("Notice of violation and accrued fine — § 196-22 A, B", params)
    lines.append("")
    if procedure:
        lines += [procedure, ""]
    step = 0

    def say(text: str) -> None:
        nonlocal step
        step += 1
        lines.append(f"{step}. {text}")

    say(f"Notice served: {fc.served} (§ 196-22 A)")
    cd, clock = fc.correction_days, fc.clock
    least = format_decimal(cd.value or Decimal(0))
    say(
        f"Correction period stated in the notice: {clock.period_days} days, counted from the day "
        f"after service (at least {least} — {cd.name}, in force since {cd.effective}"
        f"{', ' + cd.authority if cd.authority else ''}; § 196-22 A)"
    )
    if clock.moved_over:
        passed = ", ".join(f"{d.day} {d.reason}" for d in clock.moved_over)
        say(
            f"Last day {clock.nominal} is not a business day ({passed}): the deadline moves to "
            "the next business day (N.Y. General Construction Law §§ 24, 25-a)"
        )
    say(f"Correction deadline: end of {fc.deadline}, {params.timezone} (§ 196-22 A)")
    if fc.corrected is not None:
        say(f"Corrected: {fc.corrected}, as verified by the Superintendent (§ 196-22 B)")
    else:
        say(f"Not corrected as of {fc.as_of} (§ 196-22 B)")
    if fc.days == 0:
        say("Days of continuing violation: 0 (§ 196-22 B)")
    else:
        say(
            f"Days of continuing violation: {fc.days}, {fc.first_day} to {fc.last_day} inclusive (§ 196-22 B)"
        )
        say(f"Daily amount in force on each day — {DAILY_AMOUNT} (Town Code § 122-20 Y):")
        rows = [
            (
                s.first_day,
                s.last_day,
                s.days,
                money(s.daily_amount.value),
                s.daily_amount.effective,
                s.daily_amount.authority or "-",
                money(s.amount.quantize(Decimal("0.01")) if s.amount is not None else None),
            )
            for s in fc.segments
        ]
        heads = ("first day", "last day", "days", "daily USD", "in force since", "authority", "USD")
        lines += ["", *("   " + line for line in table(heads, rows).splitlines())]
    lines.append("")
    if fc.days == 0:
        lines.append(f"Result: {fc.summary}.")
    elif fc.total is None:
        lines.append(
            f"Accrued fine: not stated — the daily amount ({DAILY_AMOUNT}, Town Code § 122-20 Y) is "
            f"not configured for {fc.unconfigured_days} of the {fc.days} days; record the Town "
            "Board's amount in the jurisdiction's parameters (§ 196-22 B)."
        )
        if fc.unconfigured_days < fc.days:
            lines.append(f"  (configured days alone: USD {fc.configured_subtotal:,})")
    else:
        lines.append(f"Accrued fine: USD {fc.total:,} (§ 196-22 B).")
    if fc.days and fc.corrected is None:
        lines.append(
            "The violation continues: one more day accrues each day until the correction is verified."
        )
    if fc.days:
        lines.append("Accrued, subject to conviction: a court, not this software, convicts.")
    return "\n".join(lines)
