"""``sewer-use icis-export``: the annual pretreatment report as ICIS-NPDES XML, for EPA.

    sewer-use icis-export (--year YYYY | --period START..END) --output FILE
                          [--submitter ID] [--replace]

40 CFR 403.12(i) (the Control Authority's annual report) sent electronically (40 CFR 127): the
office's annual report of the calendar year (or of the period, two dates YYYY-MM-DD) written as
EPA's ICIS-NPDES schema 5.14 takes it — the same figures as the annual report's PDF and CSV.
An office command (it hands over to Django settings, like ``violations``); it reads the
records and writes nothing in the office.

--submitter is the header's Id (3–30 characters), the identifier of who submits (the Town's
CDX account, if its node wants it there; default ``sewer-use``). --replace sends the report as
a replacement (TransactionType R) of one already accepted for the same period; the default is
a new report (N).

Exit status: 0 written (the file named, and each industrial user listed with its figures);
1 refused — the NPDES permit number of the treatment works not configured, an industrial user
without an ICIS-NPDES identifier on its approval, a parameter or enforcement response without
its configured code — every problem printed, nothing written; 2 unusable input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "icis-export",
        help="40 CFR 403.12(i): the annual pretreatment report as ICIS-NPDES XML (for EPA)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--year", type=int, help="the calendar year reported")
    when.add_argument("--period", help="START..END, two dates YYYY-MM-DD (inclusive)")
    p.add_argument("--output", required=True, help="the XML file to write")
    p.add_argument("--submitter", default="sewer-use", help="the header's Id (3–30 characters)")
    p.add_argument(
        "--replace", action="store_true", help="a replacement of the period's report (R)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sewer_rules.icis_report import report_period

    try:
        first, last = report_period(year=args.year, period=args.period)
    except ValueError as e:
        print(f"icis-export: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    _setup()
    from sewer_office.pretreatment.icis import ExportRefused, build, listed

    try:
        export = build(
            first,
            last,
            submitter=args.submitter,
            transaction_type="R" if args.replace else "N",
        )
    except ExportRefused as e:
        print(f"icis-export: the report of {first}..{last} is not written:", file=sys.stderr)
        for problem in e.problems:
            print(f"  - {problem}", file=sys.stderr)
        return EXIT_FOUND
    out = Path(args.output)
    try:
        out.write_bytes(export.content)
    except OSError as e:
        print(f"icis-export: cannot write {out}: {e.strerror}", file=sys.stderr)
        return EXIT_UNUSABLE
    report = export.report
    sius = listed(report)
    print(
        f"Wrote {out}: ICIS-NPDES pretreatment program report {report.label} "
        f"({first}..{last}), {len(sius)} significant industrial user(s) of the period "
        f"(of {len(report.facilities)} industrial users in the annual report), "
        f"{export.actions} enforcement actions."
    )
    for f in sius:
        print(
            f"  {f.icis_permit_id}  {f.establishment.name}: {f.inspections} inspections, "
            f"{f.samplings_town} samples by the Town, {f.samplings_user} by the user"
            + (
                f" of {f.self_monitoring_required} required"
                if f.self_monitoring_required is not None
                else ""
            )
            + (f", in SNC ({', '.join(sorted(f.snc_criteria))})" if f.snc else "")
            + (f", {sum(f.actions.values())} enforcement actions" if f.actions else "")
        )
    return EXIT_OK
