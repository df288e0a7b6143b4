"""``sewer-use import-results LAB.csv [--dry-run] [--format table|json] [--as USERNAME]
[--mapping NAME]``.

Validates the whole laboratory file, evaluates it with ``sewer_rules`` against the ordinance
and each facility's discharge limits, and stores it in one transaction — or nothing.
``--mapping NAME`` reads a laboratory's own layout (a preset, a mapping file, or a mapping
saved in the office; docs/laboratory-files.md). The file may be of any size the machine can hold
(a county laboratory's year of results): the upload cap of the pages and the API
(``SEWER_USE_MAX_UPLOAD_BYTES``) is not the operator's.
Exit 0 stored (or, with ``--dry-run``, would be stored), 1 refused (every failing row and field
listed, or the file was already imported), 2 for an unusable file or unknown user.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import mapping_arg
from .main import EXIT_FOUND
from .office_import import Stop, add_options, command, emit, office_actor, refusal

PROG = "import-results"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(PROG, help="import a laboratory results file into the office")
    p.add_argument("path", metavar="LAB.csv")
    add_options(p, dry_run="validate and evaluate, store nothing")
    mapping_arg.add_argument(p)
    p.set_defaults(func=run)


@command(PROG)
def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise Stop(f"cannot read {path}: {e.strerror or e}") from None
    actor = office_actor(args.username)
    from sewer_office.core.errors import Forbidden
    from sewer_office.monitoring.lab_import import UnusableFile, import_lab_file

    mapping = mapping_arg.mapping_of(args, office_ready=True)
    try:
        report = import_lab_file(data, path.name, actor, dry_run=args.dry_run, mapping=mapping)
    except UnusableFile as e:
        raise Stop(str(e)) from None
    except Forbidden as e:
        raise Stop(e.message, EXIT_FOUND) from None
    emit(
        args,
        {**report.as_dict(), "dry_run": args.dry_run},
        lambda: _print_table(report, args.dry_run),
    )
    return 0 if report.ok else 1


def _print_table(report: Any, dry_run: bool) -> None:
    name = report.source_name
    if report.refused:
        print(f"{name}: refused — {report.refused}")
    if report.errors:
        print("\n".join(refusal(name, report.errors, nothing="nothing stored")))
        return
    if report.refused:
        return
    counts = ", ".join(f"{k} {v}" for k, v in sorted(report.statuses.items()))
    verb = "would store" if dry_run else "stored"
    where = "" if dry_run else f" as import #{report.lab_import.pk}"
    print(
        f"{name}: {verb} {report.rows} result(s){where} — {counts}; "
        f"{report.findings} finding(s); parameters {report.parameters_version}"
    )
    for m in report.monthly:
        print(
            f"  monthly {m['facility']} {m['parameter']} {m['month']}: {m['average']} "
            f"{m['limit_unit']} vs {m['limit']} → {m['status']} ({m['citation']})"
        )
