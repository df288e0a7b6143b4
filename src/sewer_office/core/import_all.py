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
:data:`.export_all.INSTALLATION`) are replaced by the export's, so that the ids the records
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
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from uuid import UUID

from django.apps import apps
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.db import IntegrityError, connection, models, transaction
from django.utils.dateparse import parse_duration

from . import anchor as anchors
from .audit import keys, record, verify_chain
from .backup import applied_migrations, sha256_of
from .export_all import (
    ANCHOR,
    FORMAT,
    INSTALLATION,
    MANIFEST,
    VERSION,
    Table,
    export_tables,
    json_value,
    kind_of,
    label_of,
    left_out_tables,
)
from .models import AuditEvent

#: Rows inserted by one statement at most (fewer where the database allows fewer variables).
BATCH = 1000
#: A table this installation filled itself is compared with the export's up to this many rows.
SEEDED_AT_MOST = 1000


class ImportRefused(Exception):
    """An export that cannot be imported here, with the reason (nothing was changed)."""


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


def _read_manifest(root: Path) -> tuple[dict[str, Any], str]:
    path = root / MANIFEST
    if not path.is_file():
        raise ImportRefused(f"{path}: missing — not an export of sewer-use, or an incomplete one")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ImportRefused(f"{path}: damaged ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ImportRefused(f"{path}: not a {FORMAT} manifest")
    if manifest.get("version") != VERSION:
        raise ImportRefused(f"{path}: export format version {manifest.get('version')!r} unknown")
    for key in ("sha256", "tables", "migrations", "audit"):
        if key not in manifest:
            raise ImportRefused(f"{path}: damaged (no {key!r})")
    return manifest, sha256_of(path)


def _inside(root: Path, name: str) -> Path:
    file = (root / name).resolve()
    if root.resolve() not in file.parents:
        raise ImportRefused(f"{MANIFEST}: damaged (file {name!r} lies outside the export)")
    return file


def check_files(root: Path, manifest: dict[str, Any]) -> None:
    """Every file the manifest lists is there with its SHA-256 (else ImportRefused, naming it)."""
    hashes = manifest["sha256"]
    if not isinstance(hashes, dict):
        raise ImportRefused(f"{MANIFEST}: damaged ('sha256' is not a table of files)")
    for name, digest in sorted(hashes.items()):
        file = _inside(root, name)
        if not file.is_file():
            raise ImportRefused(f"{name}: missing from the export (incomplete export)")
        if sha256_of(file) != digest:
            raise ImportRefused(
                f"{name}: damaged — its SHA-256 differs from the manifest's (the file was "
                "changed after the export)"
            )


def check_schema(manifest: dict[str, Any]) -> None:
    """The export's applied migrations are this installation's (else ImportRefused)."""
    theirs = {(a, n) for a, names in manifest["migrations"].items() for n in names}
    ours = {(a, n) for a, names in applied_migrations().items() for n in names}
    if theirs == ours:
        return
    version = manifest.get("software", {}).get("version", "?")
    lacking = sorted(f"{a}.{n}" for a, n in theirs - ours)
    extra = sorted(f"{a}.{n}" for a, n in ours - theirs)
    parts = []
    if lacking:
        parts.append(
            f"not applied here: {', '.join(lacking[:5])}{' ...' if len(lacking) > 5 else ''}"
        )
    if extra:
        parts.append(
            f"applied here, not in the export: {', '.join(extra[:5])}"
            f"{' ...' if len(extra) > 5 else ''}"
        )
    raise ImportRefused(
        "the export was made at another schema than this installation's ("
        + "; ".join(parts)
        + f"): import it into sewer-use {version} with its migrations applied "
        "(`sewer-use manage migrate`), then upgrade that installation"
    )


def _model(label: str) -> type[models.Model] | None:
    found = {label_of(m): m for m in apps.get_models(include_auto_created=True)}
    return found.get(label)


def _comparable(kind: str, value: Any) -> Any:
    """A value of this installation as the export writes it (bytes: their SHA-256)."""
    if kind == "bytes":
        return hashlib.sha256(bytes(value)).hexdigest() if value else value
    return json_value(value)


def _same_rows(root: Path, table: Table, entry: dict[str, Any] | None) -> set[Any] | None:
    """The primary keys of the rows this installation holds in ``table`` when every one of
    them is in the export, identical (a migration's seeds); None otherwise."""
    manager = table.model._base_manager
    if entry is None or manager.count() > SEEDED_AT_MOST:
        return None
    kinds = [kind_of(f) for f in table.columns]
    pk_name = str(table.model._meta.pk.attname)
    ours: dict[Any, dict[str, Any]] = {}
    for raw in manager.order_by("pk").values_list(*table.names):
        row = {n: _comparable(k, v) for n, k, v in zip(table.names, kinds, raw, strict=True)}
        ours[row[pk_name]] = row
    found: set[Any] = set()
    for _, row in _json_rows(_inside(root, str(entry["json"]))):
        pk = row.get(pk_name)
        if pk not in ours:
            continue
        theirs = {
            n: (sha256_of(_inside(root, v)) if k == "bytes" and v else v)
            for n, k, v in zip(table.names, kinds, (row.get(n) for n in table.names), strict=True)
        }
        if theirs != ours[pk]:
            return None
        found.add(pk)
    return found if found == set(ours) else None


def check_empty(root: Path, entries: dict[str, dict[str, Any]]) -> dict[str, set[Any]]:
    """Refuse an installation holding a record (naming its table) or a stored file. Rows
    it filled itself (a migration's), identical in the export, are allowed: returned, by
    table, to be kept rather than inserted again."""
    full: list[str] = []
    seeded: dict[str, set[Any]] = {}
    for table in export_tables():
        if table.label in INSTALLATION or not table.model._base_manager.exists():
            continue
        same = _same_rows(root, table, entries.get(table.label))
        if same is None:
            full.append(table.db_table)
        else:
            seeded[table.label] = same
    for label, db_table, _ in left_out_tables():
        model = _model(label)
        if model is not None and model._base_manager.exists():
            full.append(db_table)
    if full:
        shown = ", ".join(full[:5]) + (" ..." if len(full) > 5 else "")
        raise ImportRefused(
            f"this installation is not empty: {shown} hold(s) records. import-all loads into "
            "an empty installation only (a new database, migrated: `sewer-use manage "
            "migrate`), never into one in use"
        )
    media = Path(settings.MEDIA_ROOT)
    if media.is_dir() and any(p.is_file() for p in media.rglob("*")):
        raise ImportRefused(
            f"this installation is not empty: {media} holds stored files. import-all loads "
            "into an empty installation only"
        )
    return seeded


def check_keys(manifest: dict[str, Any]) -> None:
    """The audit keys that signed the export's events are this installation's."""
    used = [str(k) for k in manifest["audit"].get("keys_used", [])]
    ring = keys()
    lacking = [k for k in used if ring.get(k) is None]
    if lacking:
        raise ImportRefused(
            f"the export's audit events are signed with the audit key(s) {', '.join(lacking)}, "
            f"which this installation does not have ({ring.source} holds "
            f"{', '.join(ring.ids)}). The key is a secret and never in an export: give this "
            "installation the old installation's key file (SEWER_USE_AUDIT_KEY_FILE) or "
            "SEWER_USE_AUDIT_KEY, then import again"
        )


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
            return _inside(self.root, value).read_bytes() if value else b""
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


def _json_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of an exported JSON table, one object a line (see :mod:`.export_all`)."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if text in ("[", "]", ""):
                continue
            try:
                row = json.loads(text.removesuffix(","))
            except json.JSONDecodeError as e:
                raise ImportRefused(f"{path.name}, line {number}: not a JSON row ({e})") from None
            if not isinstance(row, dict):
                raise ImportRefused(f"{path.name}, line {number}: not a JSON object")
            yield number, row


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
    path = _inside(root, str(entry["json"]))
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
    for line, row in _json_rows(path):
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
    for line, entry in _json_rows(_inside(root, json_list)):
        stored_as = str(entry.get("stored_as") or "")
        if not stored_as:
            continue  # bytes of a row: loaded with it
        source = _inside(root, str(entry["path"]))
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
    manifest, manifest_sha = _read_manifest(root)
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
