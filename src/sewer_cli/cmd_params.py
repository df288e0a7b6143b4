"""``sewer-use params --on DATE`` — the parameter values in force on a date, with their authority.

``sewer-use params --check FILE`` reads a parameter file (and the one it extends) as every
command would, against the schema of the keys, and says whether it would be accepted — before
anyone relies on it. Nothing else runs: exit 0 with ``OK: N parameters, M values``, or exit 2
(unusable input) with every problem on its own line.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import TextIO

from .common import jurisdiction, today
from .main import EXIT_OK, EXIT_UNUSABLE, UsageError
from .output import destination, dump_json, table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("params", help="print the parameter values in force on a date")
    p.add_argument("--on", metavar="DATE", help="YYYY-MM-DD (default: today)")
    p.add_argument("--jurisdiction", help="wappinger (default), demo, or a parameters.yaml")
    p.add_argument(
        "--check",
        metavar="FILE",
        help="only check FILE (a parameters.yaml, which may extend a jurisdiction) against the "
        "schema of the keys: exit 0 if valid, 2 listing every problem",
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--output", metavar="FILE")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.check is not None:
        if args.on or args.jurisdiction:
            raise UsageError("--check FILE checks a file; --on and --jurisdiction do not apply")
        return check(args.check, args.format, args.output)
    params = jurisdiction(args.jurisdiction or "wappinger", article_rules=False)
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
                            "value": v.string
                            if v.string is not None
                            else (None if v.value is None else str(v.value)),
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


def check(path: str, fmt: str, output: str | None) -> int:
    """Load ``path`` as a command would and report; ``EXIT_UNUSABLE`` when it is refused."""
    from sewer_rules.parameters import ParameterError, load_jurisdiction  # at run: start-up

    try:
        params = load_jurisdiction(path)
    except ParameterError as e:
        problems = list(e.problems)
        if fmt == "json":
            with destination(output) as out:
                dump_json({"file": path, "valid": False, "problems": problems}, out)
        else:
            _write_problems(path, problems, sys.stderr)
        return EXIT_UNUSABLE
    count = len(params.parameters)
    values = sum(len(p.values) for p in params)
    with destination(output) as out:
        if fmt == "json":
            dump_json(
                {
                    "file": path,
                    "valid": True,
                    "jurisdiction": params.jurisdiction,
                    "version": params.version,
                    "sources": list(params.sources),
                    "parameters": count,
                    "values": values,
                },
                out,
            )
        else:
            out.write(f"OK: {count} parameters, {values} values\n")
            out.write(f"read: {', '.join(params.sources)} ({params.version})\n")
    return EXIT_OK


def _write_problems(path: str, problems: list[str], out: TextIO) -> None:
    for line in problems:
        out.write(f"{line}\n")
    n = len(problems)
    out.write(f"sewer-use: {path}: refused, {n} problem{'' if n == 1 else 's'}\n")
