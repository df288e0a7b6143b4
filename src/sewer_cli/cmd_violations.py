"""``sewer-use violations [--open] [--jurisdiction TOWN] [--format table|json]``: the office's
violations.

An office command (it hands over to Django settings, like ``import-results``): one line per
violation — id, facility or property, section, kind, stage, the deadline of the notice in
force, the days of continuing violation past it, and the fine accrued as the office shows it
("accrued, subject to conviction", or "not configured" when the Town has not recorded the daily
amount, § 196-22 B, Town Code § 122-20 Y). ``--open`` lists only violations still open.
JSON: a list of objects with the fields ``id``, ``number``, ``facility``, ``person``,
``section``, ``kind``, ``state``, ``jurisdiction`` (the member town whose law governs it), ``stage``, ``observed_on``, ``notice_deadline``,
``days_late``, ``fines_accrued`` (decimal text or null), ``fines_status``, ``fines_note``,
``would_now_be_refused`` (null, or why a violation recorded before the rule that a violation
is opened only under a provision imposing a duty, from a finding that is a violation, would
now be refused; the record itself is never changed). The table marks such a violation with
``*`` and says why below it; ``--refused`` lists only those. In an office of several member
towns, ``--jurisdiction TOWN`` lists one town's (exit 2 for a town the office does not serve).
Exit 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from .cmd_office import _setup
from .output import table


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("violations", help="list the office's violations (§ 196-22)")
    p.add_argument("--open", action="store_true", help="only violations still open")
    p.add_argument(
        "--refused",
        action="store_true",
        help="only violations that would now be refused (no duty, or not a violation)",
    )
    p.add_argument(
        "--jurisdiction",
        metavar="TOWN",
        help="only the violations of this member town (an office of several towns)",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from django.db.models import Q

    from sewer_office.accounts.jurisdictions import within
    from sewer_office.accounts.towns import installed
    from sewer_office.enforcement.models import Violation
    from sewer_office.enforcement.queries import violations
    from sewer_office.enforcement.states import OPEN_STATES
    from sewer_office.enforcement.summary import violation_summary

    qs = violations().prefetch_related("notices__superseded_by", "corrections")
    if args.jurisdiction:
        served = installed()
        if args.jurisdiction not in served:
            print(
                f"sewer-use violations: --jurisdiction {args.jurisdiction!r} is not a member town "
                f"of this office (it serves {', '.join(served)})",
                file=sys.stderr,
            )
            return 2
        qs = qs.filter(within(Violation, frozenset({args.jurisdiction})) or Q())
    if args.open:
        qs = qs.filter(state__in=OPEN_STATES)
    rows = [violation_summary(v) for v in qs.order_by("id")]
    if args.refused:
        rows = [r for r in rows if r["would_now_be_refused"]]
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        if args.refused:
            print("No violations would now be refused.")
        else:
            print("No violations." if not args.open else "No open violations.")
        return 0
    print(
        table(
            (
                "id",
                "facility/property",
                "section",
                "kind",
                "stage",
                "deadline",
                "days late",
                "fines",
            ),
            [
                (
                    r["id"],
                    r["facility"],
                    r["section"] + (" *" if r["would_now_be_refused"] else ""),
                    r["kind"],
                    r["stage"],
                    r["notice_deadline"] or "",
                    "" if r["days_late"] is None else r["days_late"],
                    _fines(r),
                )
                for r in rows
            ],
        )
    )
    for r in rows:
        if r["would_now_be_refused"]:
            print(f"\n* {r['number']} would now be refused: {r['would_now_be_refused']}")
    notes = sorted({r["fines_note"] for r in rows if r["fines_note"]})
    for note in notes:
        print(f"\n{note}")
    return 0


def _fines(row: Mapping[str, object]) -> str:
    if row["fines_accrued"] is not None:
        return f"USD {row['fines_accrued']} {row['fines_status']}"
    return str(row["fines_status"])
