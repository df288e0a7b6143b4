"""``sewer-use grinder --hp X`` — § 196-19 D(3) grinder approval (and § 196-15 shredding).

    sewer-use grinder --hp X [--particle X] [--date DATE] [--jurisdiction ...] [--format ...]

--hp is the grinder motor rating ("0.75", "3/4 hp"); a motor of 3/4 horsepower or greater is
subject to the review and approval of the Superintendent (§ 196-19 D(3)). --particle is the
largest particle of the shredded garbage ("0.5 in", "1/2 inch"): properly shredded when no
particle is greater than 1/2 inch (§ 196-15 PROPERLY SHREDDED GARBAGE).

Exit status: 0 when no approval is needed (and the garbage is properly shredded); 1 when the
grinder needs the Superintendent's approval or the garbage is not properly shredded;
2 for unusable input.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .common import add_common, header, jurisdiction, measure, today
from .main import EXIT_FOUND, EXIT_OK, UsageError
from .output import dump_json

if TYPE_CHECKING:  # loaded when the command runs (start-up cost, see main.py)
    from sewer_rules.findings import Check


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grinder",
        help="§ 196-19 D(3): does a garbage grinder need the Superintendent's approval?",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--hp", required=True, metavar="X", help='motor rating, e.g. "0.75" or "3/4 hp"')
    p.add_argument(
        "--particle", metavar="X", help='largest particle of the shredded garbage, e.g. "0.5 in"'
    )
    add_common(p, on_date=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sewer_rules.ordinance.s196_15_definitions.shredded_garbage import (
        ParticleError,
        check_shredded_garbage,
    )
    from sewer_rules.ordinance.s196_19_use_of_public_sewers.grinders import (
        GrinderError,
        check_grinder,
    )
    from sewer_rules.parameters import ParameterError

    params = jurisdiction(args.jurisdiction)
    on = args.date or today(params)
    rating, unit = measure(args.hp, "--hp", "power", "hp")
    checks: list[Check] = []
    try:
        checks.append(check_grinder(rating, params, on, unit=unit))
        if args.particle is not None:
            size, size_unit = measure(args.particle, "--particle", "length", None)
            checks.append(check_shredded_garbage(size, params, on, unit=size_unit))
    except (GrinderError, ParticleError, ParameterError) as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        dump_json(
            {
                "jurisdiction": params.jurisdiction,
                "parameters_version": params.version,
                "date": on.isoformat(),
                "checks": [c.as_dict() for c in checks],
            },
            sys.stdout,
        )
    else:
        lines = header(
            "Garbage grinder — § 196-19 D(3); § 196-15 PROPERLY SHREDDED GARBAGE", params
        )
        lines.append(f"Judged on {on}")
        for i, c in enumerate(checks, 1):
            d = c.details
            limit = d.get("threshold") or d.get("limit")
            limit_unit = d.get("threshold_unit") or d.get("limit_unit")
            lines += [
                "",
                f"{i}. {c.citation}",
                f"   {d['parameter']} = {limit} {limit_unit}, in force since {d['effective']}"
                + (f", {d['authority']}" if d.get("authority") else ""),
                f"   {c.message}",
            ]
        lines.append("")
        failed = [c for c in checks if c.passed is False]
        lines.append(
            "Result: " + ("; ".join(_result(c) for c in failed) if failed else "no approval needed")
        )
        print("\n".join(lines))
    return EXIT_FOUND if any(c.passed is False for c in checks) else EXIT_OK


def _result(c: Check) -> str:
    if c.details.get("approval_needed") == "yes":
        return f"subject to the review and approval of the Superintendent ({c.citation})"
    return f"not properly shredded ({c.citation}; reviewable under § 196-19 D(3))"
