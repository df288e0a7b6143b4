"""``sewer-use fines`` — the § 196-22 notice/correction clock and the accrued daily fine.

    sewer-use fines --served DATE [--period DAYS] [--later-notice DATE[:DAYS] ...]
                    [--corrected DATE [--verified DATE]] [--as-of DATE]
                    [--violation CITATION] [--jurisdiction wappinger|demo|PATH]
                    [--format table|json]

A notice served on --served (personal service: the day of delivery; certified mail: the day of
delivery on the return receipt) gives the period it states (--period, at least and by default
the 10 days of § 196-22 A), counted from the day after service; a last day on a Saturday,
Sunday or New York public holiday (N.Y. General Construction Law § 24's list only) moves to the
next business day (§ 25-a). Each day after the deadline up to the day the violation ceased, as
the verification found it (--corrected; --verified is the day of that verification, not before
it), or up to --as-of (default: today in the town's zone) while that day is not known, is
fined at the § 122-20 Y daily amount in force on that day (§ 196-22 B). Each later notice or
order on the violation (--later-notice DATE[:DAYS], repeatable, in the order served; DAYS its
period, default 10) takes the day after its service through its own deadline out of the count.
Fines are accrued, subject to conviction.

Example: --served 2026-01-05 --later-notice 2026-02-02:30 --corrected 2026-03-10 counts 18 days
(2026-01-16 to 02-02) + 6 days (03-05 to 03-10) = 24 days.

Exit status: 0 when no fine has accrued (corrected in time, or still within the period);
1 when days of continuing violation have accrued, or the violation is of § 196-20 (referred at
once, no clock); 2 for unusable input.

This module also holds the small argument helpers shared by the rules commands ``fines``,
``surcharge``, ``sewer-design``, ``grinder`` and ``plant-temperature``.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from .common import add_common, header, iso_date, jurisdiction, law_of, money, today
from .ladder_response import counts_a_daily_fine, run_response
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json, table

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.calendars import NonBusinessDay
    from sewer_rules.ordinance.s196_22_penalties import FineComputation
    from sewer_rules.parameters import ParameterSet

# --- sewer-use fines --------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "fines",
        help="§ 196-22: correction deadline and accrued daily fine of a notice of violation",
        description=__doc__.split("\n\nThis module")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--served", type=iso_date, metavar="DATE", help="day the notice was served")
    p.add_argument(
        "--mailed",
        type=iso_date,
        metavar="DATE",
        help="day the notice was mailed (a law that counts from mailing: the Town of Poughkeepsie's)",
    )
    p.add_argument(
        "--received",
        type=iso_date,
        metavar="DATE",
        help="day the notice or order was received (a law that counts from receipt)",
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
        help="day the violation ceased, as the verification found it (omit while not known)",
    )
    p.add_argument(
        "--verified",
        type=iso_date,
        metavar="DATE",
        help="day the correction was verified (not before --corrected; shown, never extends the count)",
    )
    p.add_argument(
        "--later-notice",
        dest="later_notices",
        type=later_notice,
        action="append",
        default=[],
        metavar="DATE[:DAYS]",
        help="a later notice or order served on DATE stating DAYS (default 10); repeatable, in order",
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


def later_notice(text: str) -> tuple[date, int | None]:
    """argparse type: ``DATE[:DAYS]``, a later notice served on DATE stating DAYS."""
    day, sep, days = text.strip().partition(":")
    served = iso_date(day)
    if not sep:
        return served, None
    try:
        period = int(days)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: DAYS after the colon must be a whole number of days"
        ) from None
    return served, period


def run(args: argparse.Namespace) -> int:
    from sewer_rules.citations import CitationError
    from sewer_rules.ordinance.s196_22_penalties import ClockError, accrued_fines, procedure_for
    from sewer_rules.parameters import ParameterError

    law = law_of(args.jurisdiction)
    if not counts_a_daily_fine(law):
        assert law is not None
        return run_response(args, law)
    if args.served is None:
        raise UsageError(
            "--served is required: the notice's period runs from its service (§ 196-22 A)"
        )
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
    for flag, value in (("--corrected", args.corrected), ("--verified", args.verified)):
        if value and args.as_of is None and value > as_of:
            raise UsageError(f"{flag} {value} is in the future (today is {as_of})")
    if args.verified and args.corrected is None:
        raise UsageError(
            "--verified needs --corrected: the day the violation ceased, as the verification "
            "found it"
        )
    if args.verified and args.verified < args.corrected:
        raise UsageError(
            f"--verified {args.verified} is before --corrected {args.corrected}: a correction is "
            "verified on or after the day the violation ceased"
        )
    try:
        fc = accrued_fines(
            args.served,
            args.corrected,
            as_of,
            params,
            period_days=args.period,
            verified=args.verified,
            later_notices=args.later_notices,
        )
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
    from sewer_rules.ordinance.s196_22_computation import suspension
    from sewer_rules.ordinance.s196_22_penalties import DAILY_AMOUNT
    from sewer_rules.units import format_decimal

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
        say(_moved(clock.nominal, clock.moved_over))
    say(f"Correction deadline: end of {fc.deadline}, {params.timezone} (§ 196-22 A)")
    for n, later in enumerate(fc.later, 1):
        stop = suspension(later)
        say(
            f"Later notice {n} served {later.served}, stating {later.period_days} days: deadline "
            f"end of {later.deadline}; {stop.first} to {stop.last} are not counted — the Town "
            "is bound by the period it served (§ 196-22 A)"
        )
        if later.moved_over:
            say(_moved(later.nominal, later.moved_over))
    if fc.corrected is not None:
        found = f"verified on {fc.verified}" if fc.verified else "verification day not given"
        say(
            f"The violation ceased on {fc.corrected}, as the verification found it ({found}; § 196-22 B)"
        )
    else:
        say(f"Not corrected as of {fc.as_of} (§ 196-22 B)")
    if fc.days == 0:
        say("Days of continuing violation: 0 (§ 196-22 B)")
    else:
        if len(fc.spans) == 1:
            spans = f"{fc.first_day} to {fc.last_day}"
        else:
            spans = " + ".join(f"{p.first} to {p.last} ({p.days})" for p in fc.spans)
        say(f"Days of continuing violation: {fc.days}, {spans} inclusive (§ 196-22 B)")
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
        if fc.state == "within_correction_period":
            lines.append(
                f"The later notice's period runs to the end of {fc.deadline_in_force}; if the "
                "violation continues, the count resumes the day after."
            )
        else:
            lines.append(
                "The violation continues: one more day accrues each day until it ceases, as its "
                "verification will find."
            )
    if fc.days:
        lines.append("Accrued, subject to conviction: a court, not this software, convicts.")
    return "\n".join(lines)


def _moved(nominal: date, moved: tuple[NonBusinessDay, ...]) -> str:
    passed = ", ".join(f"{d.day} {d.reason}" for d in moved)
    return (
        f"Last day {nominal} is not a business day ({passed}): the deadline moves to the next "
        "business day (N.Y. General Construction Law §§ 24, 25-a)"
    )
