"""Back in: an export (:mod:`.export_all`) loaded into an empty installation of the office
(``sewer-use import-all DIR``).

Refused, with nothing touched, when:

- a file of the export is missing or differs from the SHA-256 the manifest gives it (named);
- the export was made at another schema: the applied migrations of the export and of this
  installation must be the same (install the version that made it, import, then upgrade);
- this installation holds a record (the table is named) or a stored file: the import fills an
  empty installation, never merges;
- the audit events were signed with an audit key this installation does not have (the key
  is a secret, carried apart from the export: ``SEWER_USE_AUDIT_KEY`` or the key file).

Then, in one transaction: the installation's own tables (content types, permissions, roles:
:data:`.export_tables.INSTALLATION`) are replaced by the export's, so that the ids the records
use (an audit event's ``content_type_id``, which its digest covers) mean the same again;
every table is inserted in the order of its foreign keys, with its primary keys, as the
rows were stored (no ``auto_now``, no signal: the rows of the export, not new ones); the
database's foreign keys are checked at the end of the transaction (Django declares them
deferrable), so a table pointing at itself (a person merged into another, a service area's
parent, a slug superseded by a re-evaluation) or two tables pointing at each other need no
second pass, and no row is ever updated (the guards of :mod:`.protection` refuse updates of
records of legal weight; inserts they allow); PostgreSQL's sequences are set past the
largest id; the stored files are put back where the office keeps them, each checked against
its SHA-256. The audit chain is verified, and one audit event is appended at its end:
"imported from export <the manifest's SHA-256>". A failure anywhere rolls back every row and
removes every file already put back.

Users come back without a usable password (the export never holds one): each sets a new one.
The refusals before anything is touched are :mod:`.import_checks`'.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.db import IntegrityError, connection, models, transaction
from django.utils.dateparse import parse_duration

from . import anchor as anchors
from .audit import record, verify_chain
from .backup import sha256_of
from .export_format import ANCHOR, MANIFEST
from .export_tables import (
    INSTALLATION,
    Table,
    export_tables,
    kind_of,
    label_of,
)
from .import_checks import (
    ImportRefused,
    check_empty,
    check_files,
    check_keys,
    check_schema,
    inside,
    json_rows,
    read_manifest,
)
from .models import AuditEvent

#: Rows inserted by one statement at most (fewer where the database allows fewer variables).
BATCH = 1000


@dataclass
class Imported:
    """What :func:`import_all` loaded."""

    manifest_sha256: str
    tables: int
    rows: int
    files: int
    users: int
    audit_events: int
    audit_problem: str  # "" when the chain (and the export's anchor) verify
    event_id: int | None = None
    counts: dict[str, int] = field(default_factory=dict)


# --- values -----------------------------------------------------------------------------------


class _Values:
    """Turns the export's JSON values of one table back into the database's values."""

    def __init__(self, root: Path, table: Table) -> None:
        self.root = root
        self.table = table
        self.kinds = {f.attname: kind_of(f) for f in table.columns}

    def value(self, name: str, value: Any, line: int) -> Any:
        if value is None:
            return None
        kind = self.kinds[name]
        try:
            return self._typed(kind, value)
        except (ValueError, TypeError, InvalidOperation, OSError) as e:
            raise ImportRefused(
                f"{self.table.path('json')}, row {line}, column {name}: {e} (a {kind} value "
                f"{str(value)[:60]!r})"
            ) from None

    def _typed(self, kind: str, value: Any) -> Any:
        if kind == "bytes":
            return inside(self.root, value).read_bytes() if value else b""
        if kind == "decimal":
            return Decimal(str(value))
        if kind == "datetime":
            return datetime.fromisoformat(value)
        if kind == "date":
            return date.fromisoformat(value)
        if kind == "time":
            return time.fromisoformat(value)
        if kind == "duration":
            parsed = parse_duration(value)
            if parsed is None:
                raise ValueError("not a duration")
            return parsed
        if kind == "uuid":
            return UUID(str(value))
        if kind == "float":
            return float(value)
        return value


def _left_out_value(f: models.Field[Any, Any]) -> Any:
    """A column the export leaves out comes back empty: a password unusable (the user sets
    a new one), anything else its default."""
    return make_password(None) if f.name == "password" else f.get_default()


class _Row:
    """A row to insert: its values by attribute name (what a raw insert reads)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def _insert(
    model: type[models.Model], columns: list[models.Field[Any, Any]], rows: list[_Row]
) -> None:
    # A raw insert, as loaddata makes one: the values as given (no auto_now, no default).
    model._base_manager._insert(rows, fields=columns, raw=True, using=connection.alias)  # type: ignore[attr-defined]


def _load(root: Path, table: Table, entry: dict[str, Any], kept: set[Any]) -> int:
    """Insert the rows of ``table`` (those in ``kept`` are here already, identical)."""
    path = inside(root, str(entry["json"]))
    model = table.model
    # a generated column is the database's to compute: exported, never inserted
    columns = [f for f in model._meta.local_concrete_fields if not getattr(f, "generated", False)]
    exported = set(entry.get("columns") or table.names)
    mine = {f.attname for f in table.columns}
    if exported != mine:
        raise ImportRefused(
            f"{entry['json']}: its columns differ from this installation's "
            f"{table.label} ({', '.join(sorted(exported ^ mine))})"
        )
    values = _Values(root, table)
    left_out = [f for f in columns if f.attname not in mine]
    batch_size = max(1, min(BATCH, connection.ops.bulk_batch_size(columns, [None] * BATCH)))
    batch: list[_Row] = []
    count = 0
    pk_name = model._meta.pk.attname
    for line, row in json_rows(path):
        if set(row) != mine:
            raise ImportRefused(
                f"{entry['json']}, line {line}: columns {', '.join(sorted(set(row) ^ mine))} "
                "differ from the table's"
            )
        if row[pk_name] in kept:
            count += 1
            continue
        typed = {name: values.value(name, v, line) for name, v in row.items()}
        for f in left_out:
            typed[f.attname] = _left_out_value(f)
        batch.append(_Row(typed))
        if len(batch) >= batch_size:
            _insert(model, columns, batch)
            count += len(batch)
            batch = []
    if batch:
        _insert(model, columns, batch)
        count += len(batch)
    if count != int(entry.get("rows", count)):
        raise ImportRefused(f"{entry['json']}: {count} row(s), the manifest says {entry['rows']}")
    return count


def dependency_order(tables: list[Table]) -> list[Table]:
    """``tables`` with every table after those its foreign keys point to (by label among
    equals; a cycle, which the deferred foreign keys allow, is broken at its first label)."""
    by_label = {t.label: t for t in tables}
    needs: dict[str, set[str]] = {}
    for t in tables:
        targets = {
            label_of(f.related_model)
            for f in t.model._meta.local_concrete_fields
            if f.is_relation and isinstance(f.related_model, type)
        }
        needs[t.label] = {x for x in targets if x in by_label and x != t.label}
    done: list[str] = []
    placed: set[str] = set()
    remaining = sorted(by_label)
    while remaining:
        ready = [label for label in remaining if needs[label] <= placed]
        chosen = ready[0] if ready else remaining[0]
        done.append(chosen)
        placed.add(chosen)
        remaining.remove(chosen)
    return [by_label[label] for label in done]


def _clear_installation(tables: list[Table]) -> None:
    """Empty the tables an empty installation filled itself, to take the export's rows."""
    quote = connection.ops.quote_name
    installation = [t for t in tables if t.label in INSTALLATION]
    with connection.cursor() as cursor:
        for table in reversed(dependency_order(installation)):
            cursor.execute(f"DELETE FROM {quote(table.db_table)}")


def _reset_sequences(tables: list[Table]) -> None:
    statements = connection.ops.sequence_reset_sql(no_style(), [t.model for t in tables])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _restore_files(root: Path, manifest: dict[str, Any], placed: list[Path]) -> int:
    """Put every uploaded file back where the office keeps it (its SHA-256 checked)."""
    listing = manifest.get("files", {}).get("list") or []
    json_list = next((name for name in listing if str(name).endswith(".json")), None)
    if json_list is None:
        return 0
    media = Path(settings.MEDIA_ROOT)
    count = 0
    for line, entry in json_rows(inside(root, json_list)):
        stored_as = str(entry.get("stored_as") or "")
        if not stored_as:
            continue  # bytes of a row: loaded with it
        source = inside(root, str(entry["path"]))
        if manifest["sha256"].get(entry["path"]) != entry.get("sha256"):
            raise ImportRefused(f"{json_list}, line {line}: {entry['path']} is not listed alike")
        target = (media / stored_as).resolve()
        if media.resolve() not in target.parents:
            raise ImportRefused(f"{json_list}, line {line}: {stored_as!r} lies outside storage")
        if target.exists():
            raise ImportRefused(f"{target}: already exists (the installation is not empty)")
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        placed.append(target)
        shutil.copyfile(source, target)
        target.chmod(0o600)
        if sha256_of(target) != entry["sha256"]:
            raise ImportRefused(f"{target}: its SHA-256 differs from the export's after the copy")
        count += 1
    return count


def import_all(root: Path) -> Imported:
    """Load the export in ``root`` into this (empty) installation; see the module."""
    manifest, manifest_sha = read_manifest(root)
    check_files(root, manifest)
    check_schema(manifest)
    tables = export_tables()
    entries = {str(e["table"]): e for e in manifest["tables"]}
    unknown = sorted(set(entries) - {t.label for t in tables})
    if unknown:
        raise ImportRefused(f"{MANIFEST}: tables this installation does not have: {unknown}")
    lacking = sorted({t.label for t in tables} - set(entries))
    if lacking:
        raise ImportRefused(f"{MANIFEST}: tables missing from the export: {lacking}")
    seeded = check_empty(root, entries)
    check_keys(manifest)
    placed: list[Path] = []
    counts: dict[str, int] = {}
    try:
        with transaction.atomic():
            _clear_installation(tables)
            for table in dependency_order(tables):
                counts[table.label] = _load(
                    root, table, entries[table.label], seeded.get(table.label, set())
                )
            _reset_sequences(tables)
            try:
                connection.check_constraints()
            except IntegrityError as e:
                raise ImportRefused(f"the export's rows do not hold together: {e}") from None
            files = _restore_files(root, manifest, placed)
            ContentType.objects.clear_cache()
            checked, broken = verify_chain()
            problem = str(broken) if broken else ""
            if broken and manifest["audit"].get("verified"):
                raise ImportRefused(
                    f"the audit chain verified when exported but not here ({broken}): this "
                    "installation's audit key is not the one that signed it (a key of the same "
                    "id with another secret?); give it the old installation's key"
                )
            event = record(
                actor=None,
                action="import_export",
                obj=ContentType.objects.get_for_model(AuditEvent),
                after={
                    "export": manifest_sha,
                    "exported_at": manifest.get("exported_at"),
                    "software": manifest.get("software", {}).get("version"),
                    "database": manifest.get("database", {}).get("vendor"),
                    "rows": sum(counts.values()),
                    "files": files,
                    "audit_head": {
                        "seq": manifest["audit"].get("seq"),
                        "digest": manifest["audit"].get("digest"),
                    },
                },
                reason=f"imported from export {manifest_sha}",
            )
    except BaseException:
        for path in placed:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    problems = [problem] if problem else []
    if ANCHOR in manifest["sha256"]:
        try:
            exported = anchors.read(root / ANCHOR)
        except anchors.AnchorError as e:
            problems.append(str(e))
        else:
            problems += anchors.compare([exported]).problems
            anchors.publish(exported)  # the export's head, kept with this installation's
    anchors.publish(anchors.take("import"))
    return Imported(
        manifest_sha256=manifest_sha,
        tables=len(counts),
        rows=sum(counts.values()),
        files=files,
        users=counts.get("auth.user", 0),
        audit_events=checked + 1,
        audit_problem="; ".join(problems),
        event_id=event.pk,
        counts=counts,
    )
