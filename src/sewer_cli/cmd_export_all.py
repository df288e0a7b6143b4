"""``sewer-use export-all DIR`` and ``sewer-use import-all DIR``: everything out, and back in.

``export-all`` writes every record of the office into DIR (a new or empty directory), one
CSV and one JSON file per table, every stored file, a manifest with the SHA-256 of each file
(and ``SHA256SUMS`` for ``sha256sum -c``) and a data dictionary: what each table and column
means and the law it serves (docs/leaving.md). Secrets are left out: password hashes, the
second factor's keys, API tokens, sessions, one-time codes; the audit key too (carry it
apart). ``--dictionary-only FILE`` writes the data dictionary alone (Markdown, or JSON when
FILE ends in ``.json``): ``make data-dictionary`` regenerates docs/data-dictionary.md so.

``import-all`` loads an export into an EMPTY installation of the same schema (migrated, no
record): every file checked against the manifest first, then every table with its ids in
one transaction, the stored files put back, the audit chain verified and one event appended
("imported from export <SHA-256 of the manifest>"). Users come back without passwords.

Exit status: export-all 0 written, 1 written but a stored file a record names is missing
(listed), 2 refused; import-all 0 imported, 1 imported but the audit chain (already broken
when exported) does not verify, 2 refused (the reason: nothing was changed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .cmd_office import _setup
from .main import EXIT_FOUND, EXIT_OK, UsageError


def register(subparsers: Any) -> None:
    e = subparsers.add_parser(
        "export-all",
        help="export every record and file of the office (CSV, JSON, data dictionary)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument(
        "directory",
        type=Path,
        nargs="?",
        help="new or empty directory to write the export to",
    )
    e.add_argument(
        "--dictionary-only",
        type=Path,
        metavar="FILE",
        default=None,
        help="write only the data dictionary to FILE (Markdown; JSON if FILE ends in .json)",
    )
    e.set_defaults(func=run_export)

    i = subparsers.add_parser(
        "import-all",
        help="load an export (export-all) into an empty installation",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    i.add_argument("directory", type=Path, help="the export's directory (with manifest.json)")
    i.set_defaults(func=run_import)


def run_export(args: argparse.Namespace) -> int:
    if (args.directory is None) == (args.dictionary_only is None):
        raise UsageError("export-all: give a DIRECTORY, or --dictionary-only FILE (not both)")
    _setup()
    from sewer_office.core import data_dictionary
    from sewer_office.core.export_all import ExportError, export_all
    from sewer_office.core.uploads import sweep

    if args.dictionary_only is not None:
        target: Path = args.dictionary_only
        if target.suffix.lower() == ".json":
            data = data_dictionary.dictionary()
            text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        else:
            text = data_dictionary.markdown()
        try:
            target.write_text(text, encoding="utf-8", newline="\n")
        except OSError as e:
            raise UsageError(f"{target}: cannot write ({e.strerror})") from None
        print(f"data dictionary written to {target}")
        return EXIT_OK
    sweep()  # a killed upload's temporary files: never kept, never exported
    try:
        done = export_all(args.directory, data_dictionary.generated())
    except (ExportError, OSError) as e:
        raise UsageError(str(e)) from None
    manifest = done.manifest
    audit = manifest["audit"]
    print(
        f"export written to {args.directory}: {len(manifest['tables'])} tables, {done.rows} "
        f"rows, {done.files} file(s); audit chain {audit['events']} event(s), head seq "
        f"{audit['seq']} {audit['digest'] or '-'}"
        + ("" if audit["verified"] else f" — it does NOT verify: {audit['problem']}")
    )
    print(f"check it with: cd {args.directory} && sha256sum -c SHA256SUMS")
    if done.missing:
        for m in done.missing:
            print(
                f"missing from storage: {m['stored_as']} ({m['table']} #{m['record']}, "
                f"{m['column']})"
            )
        return EXIT_FOUND
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    _setup(owner=True)  # it replaces the installation's tables and sets sequences: the owner's
    from sewer_office.core.import_all import import_all
    from sewer_office.core.import_checks import ImportRefused

    try:
        done = import_all(args.directory)
    except ImportRefused as e:
        raise UsageError(f"import-all refused, nothing changed: {e}") from None
    print(
        f"imported from {args.directory}: {done.tables} tables, {done.rows} rows, "
        f"{done.files} stored file(s), {done.users} user(s) (without passwords: each sets a "
        "new one)"
    )
    print(f"audit event #{done.event_id}: imported from export {done.manifest_sha256}")
    if done.audit_problem:
        print(f"the audit chain does NOT verify: {done.audit_problem}")
        return EXIT_FOUND
    print(f"audit chain OK ({done.audit_events} event(s))")
    return EXIT_OK
