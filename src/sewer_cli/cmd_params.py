"""``sewer-use params --on DATE`` — the parameter values in force on a date, with their authority."""

from __future__ import annotations

import argparse
from datetime import date

from .common import jurisdiction, today
from .main import EXIT_OK, UsageError
from .output import destination, dump_json, table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("params", help="print the parameter values in force on a date")
    p.add_argument("--on", metavar="DATE", help="YYYY-MM-DD (default: today)")
    p.add_argument("--jurisdiction", default="wappinger")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--output", metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    params = jurisdiction(args.jurisdiction)
    try:
        on = date.fromisoformat(args.on) if args.on else today(params)
    except ValueError:
        raise UsageError(f"--on: {args.on!r} is not a date (YYYY-MM-DD)") from None
    values = params.in_force(on)
    with destination(args.output) as out:
        if args.format == "json":
            dump_json(
                {
                    "jurisdiction": params.jurisdiction,
                    "on": on.isoformat(),
                    "version": params.version,
                    "parameters": [
                        {
                            "name": v.name,
                            "value": None if v.value is None else str(v.value),
                            **(
                                {}
                                if v.table is None
                                else {
                                    "table": [
                                        {
                                            "up_to": None if b.up_to is None else str(b.up_to),
                                            "rate": str(b.rate),
                                        }
                                        for b in v.table
                                    ]
                                }
                            ),
                            "unit": v.unit,
                            "effective": v.effective.isoformat(),
                            "reference": v.reference,
                            "authority": v.authority,
                        }
                        for v in values
                    ],
                },
                out,
            )
        else:
            out.write(f"{params.name} — parameters in force on {on} ({params.version})\n")
            if params.notice:
                out.write(f"NOTE: {params.notice}\n")
            rows = [
                (
                    v.name,
                    "not configured" if v.text is None else v.text,
                    v.unit,
                    v.effective,
                    v.reference,
                    v.authority,
                )
                for v in values
            ]
            out.write(
                table(["parameter", "value", "unit", "since", "reference", "authority"], rows)
                + "\n"
            )
    return EXIT_OK
