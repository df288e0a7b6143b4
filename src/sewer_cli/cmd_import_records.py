"""``sewer-use import-records ZIP_OR_DIR [--dry-run] [--format table|json] [--source TEXT]
[--as USERNAME]``.

Imports records of the past — permits, approvals with their conditions and limits,
inspections, violations, kept on paper before the office — from a ZIP file or a directory of
CSV files and scanned documents (``docs/past-records.md``), as records made outside the office.
Every row is checked first; one refused row and nothing is stored. Exit 0 stored (or, with
``--dry-run``, would be stored), 1 rows refused or the same records imported already, 2 an
unusable file or directory, or an unknown user.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .main import EXIT_FOUND
from .office_import import Stop, add_options, command, emit, office_actor, plural
from .output import table

PROG = "import-records"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        PROG,
        help="import records of the past (permits, approvals, inspections, violations)",
    )
    p.add_argument("path", metavar="ZIP_OR_DIR")
    add_options(p, dry_run="check every row, store nothing")
    p.add_argument(
        "--source",
        default="",
        help="where the paper records are kept, for the rows that do not say",
    )
    p.set_defaults(func=run)


@command(PROG)
def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if not path.exists():
        raise Stop(f"{path}: no such file or directory")
    actor = office_actor(args.username)
    from sewer_office.archive.bundle import UnusableFile, read_path
    from sewer_office.archive.services import import_records
    from sewer_office.core.errors import Forbidden

    try:
        report = import_records(read_path(path), actor, source=args.source, dry_run=args.dry_run)
    except UnusableFile as e:
        raise Stop(str(e)) from None
    except Forbidden as e:
        raise Stop(e.message, EXIT_FOUND) from None
    emit(args, report.as_dict(), lambda: _print_table(report))
    return 0 if report.ok else 1


def _print_table(report: Any) -> None:
    name = report.name
    if report.refused_reason:
        print(f"{name}: refused — {report.refused_reason}")
        return
    if report.problems:
        print(f"{name}: refused, nothing stored ({plural(report.refused, 'row')} to correct):")
        print(
            table(
                ["file", "row", "field", "message"],
                [
                    (r["file"], str(r["row"]), e["field"], e["message"])
                    for r in report.rows
                    if r["status"] == "refused"
                    for e in r["errors"]
                ],
            )
        )
        return
    counts = ", ".join(f"{f} {n}" for f, n in report.counts.items())
    if report.dry_run:
        print(f"{name}: would import {report.new} record(s) of the past — {counts}")
    else:
        print(
            f"{name}: imported {report.new} record(s) of the past as import "
            f"#{report.batch.pk} — {counts}"
        )
    print(
        table(
            ["file", "row", "on paper", "record", "state"],
            [
                (
                    r["file"],
                    str(r["row"]),
                    r["number"] or "—",
                    r.get("record") or r.get("what") or "",
                    r.get("state_label") or "",
                )
                for r in report.rows
            ],
        )
    )
    for note in report.notes:
        print(f"note: {note}")
