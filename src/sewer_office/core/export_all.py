"""Everything out: every record of the office as CSV and JSON, every stored file, a manifest
and a data dictionary, in an open form another system can read (``sewer-use export-all``).

An export is a directory::

    README.txt                what the directory holds, in a few lines
    manifest.json             the software's version, the export's time, the database vendor,
                              the applied migrations, each table's row count, the audit chain's
                              head, what was left out and why, the SHA-256 of every file below
    SHA256SUMS                the same hashes for ``sha256sum -c SHA256SUMS`` (manifest included)
    audit-anchor.json         the audit chain's head when the export began (:mod:`.anchor`)
    data-dictionary.md/.json  every table and column: type, meaning, the law it serves
    tables/<app>.<model>.csv  one table, one row a line, a header of column names
    tables/<app>.<model>.json the same rows as a JSON array, one row (an object) a line
    files.csv, files.json     every file below: path, size, SHA-256, the record it belongs to
    files/media/...           the uploaded files (attachments), under their stored names
    files/records/<table>/... the documents the database keeps as bytes (issued letters,
                              signed reports' PDFs, letterhead logos), one file each

Which tables (:func:`.export_tables.export_tables`): every model of the office's apps, the user accounts
(without passwords), roles and their memberships, the back office's change log, and the
names of the record kinds (content types, which the generic references name). Left out,
with the reason written into the manifest and the dictionary (:data:`.export_tables.LEFT_OUT`,
:data:`.export_tables.COLUMNS_LEFT_OUT`): the secrets — password hashes, second-factor keys and backup
codes, API tokens, sessions, one-time signing codes. The audit key is a secret too: it is
never in the database, and the export does not carry it.

The values (:func:`.export_tables.json_value`, :func:`.export_tables.csv_value`) are typed faithfully: decimals as the
exact strings stored, dates ISO, times ISO with their offset (UTC), JSON columns as JSON, a
foreign key as the target's primary key, bytes as the path of their file. Every table is
read in chunks and written row by row (:mod:`.export_writer`): a table of millions of rows
is never held in memory. The whole export reads one snapshot of the database (PostgreSQL: one
repeatable-read transaction; SQLite: one read transaction). The names of the files and the
manifest's shape are :mod:`.export_format`'s.
"""

from __future__ import annotations

import importlib.metadata
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from . import anchor as anchors
from .audit import keys, verify_chain
from .backup import applied_migrations, private, sha256_of
from .export_format import (
    ANCHOR,
    DICTIONARY,
    FILE_LIST,
    FORMAT,
    MANIFEST,
    README,
    SUMS,
    VERSION,
    AuditHead,
    Manifest,
    MissingFile,
    TableEntry,
)
from .export_tables import export_tables, left_out_listed
from .export_writer import CHUNK, Exporter
from .models import AuditEvent


class ExportError(Exception):
    """An export that cannot be written, with the reason."""


def software_version() -> str:
    try:
        return importlib.metadata.version("sewer-use")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a checkout
        return "unknown"


def database_version() -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW server_version")
        elif connection.vendor == "sqlite":
            cursor.execute("SELECT sqlite_version()")
        else:  # pragma: no cover - the office runs on these two
            return ""
        row = cursor.fetchone()
    return str(row[0]) if row else ""


@dataclass
class Written:
    """What :func:`export_all` wrote: the manifest and a few counts for the command."""

    manifest: Manifest
    rows: int
    files: int
    missing: list[MissingFile] = field(default_factory=list)


def _snapshot() -> None:
    """Read one snapshot of the database to the end of the transaction (PostgreSQL: the
    first statement of the transaction; SQLite's read transaction is one already)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def _audit(head: anchors.Anchor) -> AuditHead:
    checked, broken = verify_chain(chunk_size=CHUNK)
    used = sorted(
        {k for k in AuditEvent.objects.order_by().values_list("key_id", flat=True).distinct() if k}
    )
    return {
        "events": head.events,
        "seq": head.seq,
        "event_id": head.event_id,
        "digest": head.digest,
        "key_id": head.key_id,
        "keys_used": used,
        "verified": broken is None,
        "problem": str(broken) if broken else "",
        "checked": checked,
        "anchor": ANCHOR,
        "key_source": keys().source,
    }


def sums_line(digest: str, name: str) -> str:
    """One line of ``sha256sum``'s format (a name with a backslash or a new line escaped,
    as GNU coreutils writes and reads it)."""
    if "\\" in name or "\n" in name:
        escaped = name.replace("\\", "\\\\").replace("\n", "\\n")
        return f"\\{digest}  {escaped}\n"
    return f"{digest}  {name}\n"


def _readme(manifest: Manifest) -> str:
    return (
        "An export of a sewer-use office: every record, every stored file.\n"
        f"Made {manifest['exported_at']} by sewer-use {manifest['software']['version']}.\n\n"
        "tables/           one CSV and one JSON file per table (the JSON is typed exactly)\n"
        "data-dictionary.md  what each table and column means, and the law it serves\n"
        "files/            the stored files; files.csv says which record each belongs to\n"
        "manifest.json     row counts, schema version, audit chain head, hashes\n"
        "SHA256SUMS        check every file: sha256sum -c SHA256SUMS\n\n"
        "Not here: passwords, second-factor keys, API tokens, sessions, the audit key\n"
        "(see the manifest's left_out). Bring it back: sewer-use import-all DIR\n"
    )


def pending_migrations() -> list[str]:
    """The migrations of this version not yet applied to the database ("app.name")."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{m.app_label}.{m.name}" for m, backwards in plan if not backwards]


def export_all(directory: Path, dictionary: tuple[str, dict[str, Any]]) -> Written:
    """Write the export into ``directory`` (new or empty); ``dictionary``: the data
    dictionary's Markdown and JSON (:mod:`.data_dictionary`, given by the caller)."""
    pending = pending_migrations()
    if pending:
        raise ExportError(
            f"the database lacks migrations of this version ({', '.join(pending[:5])}"
            f"{' ...' if len(pending) > 5 else ''}): run `sewer-use manage migrate` first"
        )
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise ExportError(f"{directory}: not an empty directory (an export never overwrites)")
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)  # personal data: the office's user's alone from the first byte
    exporter = Exporter(directory)
    started = datetime.now(UTC)
    tables: list[TableEntry] = []
    total = 0
    with transaction.atomic():
        _snapshot()
        head = anchors.take("export")
        schema = applied_migrations()
        audit = _audit(head)
        for table in export_tables():
            rows = exporter.table(table)
            total += rows
            tables.append(
                {
                    "table": table.label,
                    "db_table": table.db_table,
                    "rows": rows,
                    "csv": table.path("csv"),
                    "json": table.path("json"),
                    "columns": table.names,
                }
            )
    missing = exporter.media()
    exporter.file_list()
    anchors.write(head, directory / ANCHOR)
    exporter.hashed(ANCHOR)
    markdown, data = dictionary
    exporter.text(f"{DICTIONARY}.md", markdown)
    exporter.text(f"{DICTIONARY}.json", json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    tables_out, columns_out = left_out_listed()
    manifest: Manifest = {
        "format": FORMAT,
        "version": VERSION,
        "software": {"name": "sewer-use", "version": software_version()},
        "exported_at": started.isoformat(),
        "database": {"vendor": connection.vendor, "version": database_version()},
        "migrations": schema,
        "audit": audit,
        "tables": tables,
        "files": {
            "count": len(exporter.files),
            "bytes": sum(f.size for f in exporter.files),
            "list": [f"{FILE_LIST}.csv", f"{FILE_LIST}.json"],
            "missing": missing,
        },
        "left_out": {
            "tables": tables_out,
            "columns": columns_out,
            "audit_key": "The audit key signs the audit events (HMAC-SHA256); it is never in "
            "the database and not in this export. Carry it separately (SEWER_USE_AUDIT_KEY or "
            "the key file) to verify the chain or bring the export back.",
        },
    }
    exporter.text(README, _readme(manifest))
    manifest["sha256"] = dict(sorted(exporter.hashes.items()))
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    (directory / MANIFEST).write_text(text, encoding="utf-8", newline="\n")
    sums = {**manifest["sha256"], MANIFEST: sha256_of(directory / MANIFEST)}
    (directory / SUMS).write_text(
        "".join(sums_line(d, n) for n, d in sorted(sums.items())), encoding="utf-8", newline="\n"
    )
    private(directory)
    anchors.publish(head)  # the anchor directory and the log, as a backup does
    return Written(manifest, total, len(exporter.files), missing)
