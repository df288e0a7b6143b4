"""``sewer-use bill --period 2026-Q1 [--dry-run | --issue] --as USERNAME`` — a billing run.

    sewer-use bill --period 2026-Q1|2026-01|2026 [--dry-run] [--issue [--issued-on DATE]]
                   [--as USERNAME] [--format table|json]

The extra-strength surcharge of the period (§ 196-19 E(1)(d), J) of every facility with a
Superintendent's decision or a Town agreement in force, for the days it covers, from the
office's stored results (the daily-average strength of § 196-15 NORMAL SEWAGE: BOD and
suspended solids from composites, oil and grease from grab samples) and stored flow (meter
readings, else the flow declared in the approval; without either the line says it cannot be
computed). A facility of abnormal strength without a decision or agreement is listed with the
status ``no_decision`` ("abnormal strength, no surcharge decision"), never billed:

- ``--dry-run`` prints the lines and the total and writes nothing (no --as needed);
- without it, the draft run of the period is computed and stored for the clerk's review on
  the page ``/billing/runs/<id>/`` — or, when the period already has a run, that run is shown
  and nothing is written (idempotent: a period is billed once);
- ``--issue`` issues the period's draft (computing it first if there is none): one invoice per
  facility with a charge, all in one transaction. An issued run is shown, never issued again.

``--as`` names the clerk (or the Superintendent or engineer) who computes or issues.
JSON: ``{"period", "run", "state", "total", "lines": [{"facility", "person", "status",
"flow_source", "amount", "message"}]}``.

Exit status: 0 done (or nothing to do), 2 unusable input (a bad period, an unknown user, a
user who may not bill, a rate or due date not configured where it is needed).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cmd_office import NoSuchUser, _setup, office_user
from .common import iso_date
from .main import EXIT_OK, EXIT_UNUSABLE
from .output import table


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bill",
        help="§ 196-19 E(1)(d): a billing run of the facilities' surcharges for a period",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--period", required=True, help="2026-Q1, 2026-01 or 2026")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the lines, write nothing")
    mode.add_argument("--issue", action="store_true", help="issue the period's draft run")
    p.add_argument("--issued-on", type=iso_date, default=None, metavar="DATE", help="issue date")
    p.add_argument("--as", dest="username", default=None, help="the clerk who bills")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.billing import runs
    from sewer_office.billing.choices import RunState
    from sewer_office.billing.models import BillingRun
    from sewer_office.core.errors import Forbidden, OfficeError

    try:
        start, end = runs.parse_period(args.period)
        if args.dry_run:
            lines = runs.compute_lines(start, end)
            rows = [_row(ln.name, str(ln.person_id), ln.result) for ln in lines]
            total = sum((ln.result.amount or 0 for ln in lines if ln.result.status == "charged"), 0)
            return _print(args, None, "dry run (nothing written)", f"{total:.2f}", rows)
        if not args.username:
            raise OfficeError("--as USERNAME: name the clerk who computes or issues the run")
        actor = office_user(args.username)
        existing = (
            BillingRun.objects.exclude(state=RunState.DISCARDED).filter(period=args.period).first()
        )
        note = ""
        if existing is None:
            existing = runs.create_run(args.period, actor)
            note = "draft computed"
        elif not args.issue:
            note = "already exists: nothing written"
        if args.issue:
            if existing.state == RunState.DRAFT:
                existing = runs.issue_run(existing, actor, args.issued_on)
                note = "issued"
            else:
                note = "already issued: nothing written"
    except NoSuchUser as e:
        print(f"bill: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    except (OfficeError, Forbidden) as e:
        print(f"bill: {e.message}", file=sys.stderr)
        return EXIT_UNUSABLE
    rows = [
        (
            ln.establishment.name,
            ln.person.name,
            ln.status,
            ln.flow_source,
            "" if ln.amount is None else str(ln.amount),
            ln.message,
        )
        for ln in existing.lines.select_related("establishment", "person")
    ]
    return _print(
        args, existing.pk, f"{existing.get_state_display()} — {note}", str(existing.total), rows
    )


def _row(name: str, person: str, result: Any) -> tuple[str, ...]:
    amount = "" if result.amount is None else str(result.amount)
    return (name, person, result.status, result.flow_source, amount, result.message)


def _print(
    args: argparse.Namespace, run_id: int | None, state: str, total: str, rows: list[Any]
) -> int:
    if args.format == "json":
        keys = ("facility", "person", "status", "flow_source", "amount", "message")
        out = {
            "period": args.period,
            "run": run_id,
            "state": state,
            "total": total,
            "lines": [dict(zip(keys, r, strict=True)) for r in rows],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return EXIT_OK
    head = f"Billing run {args.period}" + (f" (run {run_id})" if run_id else "")
    print(f"{head}: {state}")
    if rows:
        print(table(("facility", "person", "status", "flow", "amount USD", "message"), rows))
    print(f"Total: USD {total}")
    return EXIT_OK
