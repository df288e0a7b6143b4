"""``sewer-use snc-office --period 2026H1 [--rolling] --as USERNAME`` — SNC in the office.

    sewer-use snc-office --period 2026H1|2026|2026-01..2026-06 [--rolling]
                         --as USERNAME [--facility CODE ...] [--format table|json]

40 CFR 403.8(f)(2)(viii) for every facility of the office with discharge limits or required
report due dates in the period (or only the facilities named by --facility), from the stored
laboratory results (current ones, superseded excluded), the facilities' limits and the
reports' due and received dates, through the same rules as ``sewer-use snc``. One
determination is stored per facility, superseding the previous one of the same period; a
facility in SNC gets one violation (kind significant_noncompliance of the response guide) per
period. --as names the Superintendent or the engineer who makes the determination.

Exit status: 0 no facility in SNC, 1 some, 2 unusable input (a bad period, an unknown user or
facility, a user who may not determine SNC).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user
from .main import EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "snc-office",
        help="40 CFR 403.8(f)(2)(viii): determine SNC from the office's stored results",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--period", required=True, help="2026H1, 2026, or 2026-01..2026-06")
    p.add_argument(
        "--rolling",
        action="store_true",
        default=None,
        help="rolling six months judged at each quarter's end (default: snc.rolling_window)",
    )
    p.add_argument("--as", dest="username", required=True, help="the Superintendent or engineer")
    p.add_argument(
        "--facility", action="append", default=None, metavar="CODE", help="only this facility"
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core.errors import Forbidden, OfficeError
    from sewer_office.pretreatment.snc import compute_snc
    from sewer_office.registry.models import Establishment

    try:
        actor = office_user(args.username)
    except NoSuchUser as e:
        print(f"snc-office: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    ids = None
    if args.facility:
        found = dict(Establishment.objects.filter(code__in=args.facility).values_list("code", "id"))
        unknown = sorted(set(args.facility) - set(found))
        if unknown:
            print(f"snc-office: no facility with code {', '.join(unknown)}", file=sys.stderr)
            return EXIT_UNUSABLE
        ids = sorted(found.values())
    try:
        result = compute_snc(actor, args.period, rolling=args.rolling, establishment_ids=ids)
    except (OfficeError, Forbidden) as e:
        print(f"snc-office: {e.message}", file=sys.stderr)
        return EXIT_UNUSABLE
    rows = [
        {
            "id": d.pk,
            "facility": d.establishment.name,
            "code": d.establishment.code,
            "snc": d.snc,
            "criteria": d.criteria,
            "citations": d.citations,
            "measurements": d.measurements,
            "violation": d.violation_id,
            "supersedes": d.supersedes_id,
        }
        for d in sorted(result.determinations, key=lambda d: d.establishment.name)
    ]
    if args.format == "json":
        out = {
            "period": result.period.as_dict(),
            "window": "rolling" if result.rolling else "fixed",
            "measurements": result.measurements,
            "violations_opened": result.violations_opened,
            "determinations": rows,
        }
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        from .output import table

        window = "rolling six months" if result.rolling else "calendar halves"
        print(
            f"Significant noncompliance — 40 CFR 403.8(f)(2)(viii), "
            f"{result.period.start}..{result.period.end} ({window}); "
            f"{result.measurements} measurements read."
        )
        print(
            table(
                ("facility", "code", "SNC", "measurements", "violation"),
                [
                    (
                        r["facility"],
                        r["code"],
                        "SNC " + ", ".join(r["criteria"]) if r["snc"] else "no",
                        r["measurements"],
                        f"VIOL-{r['violation']}" if r["violation"] else "",
                    )
                    for r in rows
                ],
            )
            if rows
            else "(no facility with limits or required reports)"
        )
        print(f"{result.violations_opened} violation(s) opened.")
    return EXIT_FOUND if result.in_snc else EXIT_OK
