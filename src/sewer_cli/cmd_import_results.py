"""``sewer-use import-results LAB.csv [--dry-run] [--format table|json] [--as USERNAME]
[--mapping NAME]``.

Validates the whole laboratory file, evaluates it with ``sewer_rules`` against the ordinance
and each facility's discharge limits, and stores it in one transaction — or nothing.
``--mapping NAME`` reads a laboratory's own layout (a preset, a mapping file, or a mapping
saved in the office; docs/laboratory-files.md).
Exit 0 stored (or, with ``--dry-run``, would be stored), 1 refused (every failing row and field
listed, or the file was already imported), 2 for an unusable file or unknown user.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import mapping_arg
from .cmd_office import NoSuchUser, _setup, office_user
from .output import table


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "import-results", help="import a laboratory results file into the office"
    )
    p.add_argument("path", metavar="LAB.csv")
    p.add_argument("--dry-run", action="store_true", help="validate and evaluate, store nothing")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument(
        "--as",
        dest="username",
        default=None,
        help="record the import as this office user (default: the office itself)",
    )
    mapping_arg.add_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    try:
        data = path.read_bytes()
    except OSError as e:
        print(f"import-results: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 2
    _setup()
    from sewer_office.core.errors import Forbidden
    from sewer_office.monitoring.lab_import import UnusableFile, import_lab_file

    try:
        actor = office_user(args.username)
    except NoSuchUser as e:
        print(f"import-results: {e}", file=sys.stderr)
        return 2
    mapping = mapping_arg.mapping_of(args, office_ready=True)
    try:
        report = import_lab_file(data, path.name, actor, dry_run=args.dry_run, mapping=mapping)
    except UnusableFile as e:
        print(f"import-results: {e}", file=sys.stderr)
        return 2
    except Forbidden as e:
        print(f"import-results: {e.message}", file=sys.stderr)
        return 1
    if args.format == "json":
        json.dump({**report.as_dict(), "dry_run": args.dry_run}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        _print_table(report, args.dry_run)
    return 0 if report.ok else 1


def _print_table(report: Any, dry_run: bool) -> None:
    name = report.source_name
    if report.refused:
        print(f"{name}: refused — {report.refused}")
    if report.errors:
        n = len(report.errors)
        print(f"{name}: refused, nothing stored ({n} error{'s' if n != 1 else ''}):")
        print(table(["row", "field", "message"], [(str(r), f, m) for r, f, m in report.errors]))
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
