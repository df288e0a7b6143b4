"""``sewer-use backup DIR`` and ``sewer-use restore DIR [--force]``.

``backup`` writes the database (``pg_dump`` custom format on PostgreSQL, SQLite's online
backup API on SQLite), the uploaded files and ``manifest.json`` (size and SHA-256 of each
part, the applied migrations, the audit chain's head) into DIR, a new or empty directory.

``restore`` checks every part against the manifest (a missing or changed part is named and
nothing is touched), refuses an installation that already holds records unless ``--force``
is given, loads the database and the files, then runs ``migrate`` (a backup of an older
version is brought forward) and verifies the audit chain.

Exit status: 0 done; 1 restored, but the audit chain does not verify; 2 refused (the reason).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK, UsageError


def register(subparsers: Any) -> None:
    b = subparsers.add_parser(
        "backup",
        help="back up the office: database dump, uploaded files and a manifest (SHA-256)",
    )
    b.add_argument("directory", type=Path, help="new or empty directory to write the backup to")
    b.set_defaults(func=run_backup)

    r = subparsers.add_parser(
        "restore", help="restore a backup of the office into an empty installation"
    )
    r.add_argument("directory", type=Path, help="the backup's directory (with manifest.json)")
    r.add_argument(
        "--force",
        action="store_true",
        help="replace the records and files this installation already holds",
    )
    r.set_defaults(func=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    _setup()
    from sewer_office.core.backup import BackupError, backup
    from sewer_office.core.uploads import sweep

    sweep()  # a killed upload's temporary files (a day old): never kept, never backed up
    try:
        manifest = backup(args.directory)
    except BackupError as e:
        raise UsageError(str(e)) from None
    parts = manifest["parts"]
    size = sum(p["size"] for p in parts)
    files = sum(1 for p in parts if p["kind"] == "media")
    print(
        f"backup written to {args.directory}: {manifest['vendor']} database, {files} uploaded "
        f"file(s), {size} bytes; {manifest['audit']['events']} audit event(s)"
    )
    return EXIT_OK


def run_restore(args: argparse.Namespace) -> int:
    _setup(owner=True)  # it drops and loads tables, then migrates: the tables' owner's work
    from sewer_office.core.backup import BackupError, restore

    try:
        done = restore(args.directory, force=args.force)
    except BackupError as e:
        raise UsageError(str(e)) from None
    print(f"restored from {args.directory}: {done.files} uploaded file(s)")
    if done.migrated:
        print(f"migrations applied after the restore: {', '.join(done.migrated)}")
    if done.audit_broken:
        print(f"the audit chain does NOT verify: {done.audit_broken}")
        return EXIT_FOUND
    print(f"audit chain OK ({done.audit_events} event(s))")
    return EXIT_OK
