"""Backup and restore of the office: the database, the uploaded files and a manifest.

A backup is a directory::

    manifest.json         what the backup holds: every part with its size and SHA-256,
                          the database vendor, the applied migrations, the audit chain's head
    audit-anchor.json     the audit chain's head when the backup began (:mod:`.anchor`), also
                          written to the anchor directory and the log: outside the database
    database.sqlite3      SQLite: a copy made with SQLite's online backup API, or
    database.pgdump       PostgreSQL: ``pg_dump --format=custom``
    media/...             the uploaded files (MEDIA_ROOT), as they are stored

:func:`restore` refuses a backup with a part missing or changed (naming it), a backup of the
other database vendor, and a target that already holds records (unless ``force``); it loads
the database, copies the files and then runs ``migrate``, so a backup made by an older
version of the office is brought to the current schema; then it verifies the audit chain,
and against the backup's anchor (the restored chain holds the anchored event, unchanged).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from . import anchor as anchors
from .audit import verify_chain
from .models import AuditEvent

FORMAT = "sewer-use-backup"
VERSION = 1
MANIFEST = "manifest.json"
MEDIA = "media"
DATABASE_FILES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
#: Tables a freshly migrated, empty installation already fills (migrations and Django's own
#: registries of models, permissions and the office's roles): not records of the office.
INSTALLATION_TABLES = frozenset(
    {
        "django_migrations",
        "django_content_type",
        "auth_permission",
        "auth_group",
        "auth_group_permissions",
    }
)


class BackupError(Exception):
    """A backup that cannot be made or restored, with the reason (the part at fault)."""


@dataclass(frozen=True)
class Part:
    name: str  # path inside the backup directory, with "/"
    kind: str  # "database" or "media"
    size: int
    sha256: str

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "size": self.size, "sha256": self.sha256}


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _part(root: Path, path: Path, kind: str) -> Part:
    return Part(path.relative_to(root).as_posix(), kind, path.stat().st_size, sha256_of(path))


def applied_migrations() -> dict[str, list[str]]:
    """The schema version: every applied migration, by app, in name order."""
    out: dict[str, list[str]] = {}
    for app, name in sorted(MigrationRecorder(connection).applied_migrations()):
        out.setdefault(app, []).append(name)
    return out


def _pg_env_and_args() -> tuple[dict[str, str], list[str]]:
    db = settings.DATABASES["default"]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    sslmode = db.get("OPTIONS", {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = str(sslmode)
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    return env, [*args, "--dbname", str(db["NAME"])]


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    except FileNotFoundError as e:
        raise BackupError(f"{what}: {cmd[0]} is not installed ({e})") from None
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip()[:2000]}")


def _dump_database(target: Path) -> None:
    if connection.vendor == "sqlite":
        source = sqlite3.connect(str(settings.DATABASES["default"]["NAME"]))
        copy = sqlite3.connect(str(target))
        try:
            with copy:
                source.backup(copy)  # the online backup API: consistent while the office runs
        finally:
            copy.close()
            source.close()
    elif connection.vendor == "postgresql":
        env, args = _pg_env_and_args()
        cmd = ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file"]
        _run([*cmd, str(target), *args], env, "pg_dump")
    else:
        raise BackupError(f"backups of a {connection.vendor} database are not supported")


def _audit_head() -> str:
    """The last event's digest ("" when the schema predates the chain: core 0001), for a
    schema older than the keyed chain (no anchor then)."""
    table = AuditEvent._meta.db_table
    with connection.cursor() as cursor:
        columns = {c.name for c in connection.introspection.get_table_description(cursor, table)}
    if "digest" not in columns:
        return ""
    return AuditEvent.objects.order_by("-id").values_list("digest", flat=True).first() or ""


def private(directory: Path) -> None:
    """Make ``directory`` and everything in it readable by the office's user alone (0700
    directories, 0600 files): a backup holds the sessions, API tokens and password hashes,
    and the copies of the uploads keep their own modes otherwise (``copy2``)."""
    directory.chmod(0o700)
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            (Path(root) / name).chmod(0o700)
        for name in files:
            (Path(root) / name).chmod(0o600)


def backup(directory: Path) -> dict[str, Any]:
    """Write a backup of the office into ``directory`` (new or empty); returns the manifest."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise BackupError(f"{directory}: not an empty directory (a backup never overwrites)")
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)  # the service's alone from the first byte, whatever the umask
    started = datetime.now(UTC)
    database = directory / DATABASE_FILES.get(connection.vendor, "database")
    # The schema version and the audit head first: the dump holds at least this much.
    schema = applied_migrations()
    head = anchors.take("backup") if anchors.chain_has_anchor_columns() else None
    audit: dict[str, Any]
    if head is not None:
        audit = {"events": head.events, "head": head.digest, "seq": head.seq}
        audit |= {"key_id": head.key_id, "anchor": anchors.BACKUP_NAME}
    else:
        audit = {"events": AuditEvent.objects.count(), "head": _audit_head()}
    _dump_database(database)
    parts = [_part(directory, database, "database")]
    if head is not None:
        anchors.write(head, directory / anchors.BACKUP_NAME)
        parts.append(_part(directory, directory / anchors.BACKUP_NAME, "anchor"))
    media_root = Path(settings.MEDIA_ROOT)
    if media_root.is_dir():
        for path in sorted(p for p in media_root.rglob("*") if p.is_file()):
            copy = directory / MEDIA / path.relative_to(media_root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copy)
            parts.append(_part(directory, copy, "media"))
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": started.isoformat(),
        "vendor": connection.vendor,
        "schema": schema,
        "audit": audit,
        "parts": [p.as_json() for p in parts],
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    (directory / MANIFEST).write_text(text, encoding="utf-8")
    private(directory)
    if head is not None:
        anchors.publish(head)  # the anchor directory and the log: outside the backup too
    return manifest


def read_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of the backup in ``directory``, every part checked (else BackupError)."""
    path = directory / MANIFEST
    if not path.is_file():
        raise BackupError(f"{path}: missing — not a backup, or an incomplete one")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError(f"{path}: damaged ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{path}: damaged (not a {FORMAT} manifest)")
    if manifest.get("version") != VERSION:
        raise BackupError(f"{path}: backup format version {manifest.get('version')!r} unknown")
    parts = manifest.get("parts")
    if not isinstance(parts, list) or not any(
        isinstance(p, dict) and p.get("kind") == "database" for p in parts
    ):
        raise BackupError(f"{path}: damaged (no database part listed)")
    for index, part in enumerate(parts):
        try:
            name, size, digest = str(part["name"]), int(part["size"]), str(part["sha256"])
        except (KeyError, TypeError, ValueError):
            raise BackupError(f"{path}: damaged (part {index + 1} is incomplete)") from None
        file = (directory / name).resolve()
        if directory.resolve() not in file.parents:
            raise BackupError(f"{path}: damaged (part {name!r} lies outside the backup)")
        if not file.is_file():
            raise BackupError(f"{name}: missing from the backup (incomplete backup)")
        if file.stat().st_size != size:
            raise BackupError(
                f"{name}: damaged (size {file.stat().st_size} bytes, the manifest says {size})"
            )
        if sha256_of(file) != digest:
            raise BackupError(f"{name}: damaged (its SHA-256 differs from the manifest's)")
    return manifest


def records_held() -> list[str]:
    """Tables of this database holding rows that an empty installation does not have."""
    existing = connection.introspection.table_names()
    with connection.cursor() as cursor:
        full = []
        for table in existing:
            if table in INSTALLATION_TABLES:
                continue
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
            if cursor.fetchone():
                full.append(table)
    return full


def _clear_postgresql() -> None:
    quote = connection.ops.quote_name
    tables = connection.introspection.table_names()
    with connection.cursor() as cursor:
        if tables:
            cursor.execute("DROP TABLE " + ", ".join(quote(t) for t in tables) + " CASCADE")
        cursor.execute("DROP FUNCTION IF EXISTS sewer_use_protect() CASCADE")
        cursor.execute("DROP FUNCTION IF EXISTS sewer_use_no_truncate() CASCADE")


def _load_database(file: Path, vendor: str) -> None:
    if vendor == "sqlite":
        target = str(settings.DATABASES["default"]["NAME"])
        connection.close()
        source = sqlite3.connect(str(file))
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)  # replaces the target's whole content, page by page
        finally:
            copy.close()
            source.close()
    else:
        _clear_postgresql()
        connection.close()
        env, args = _pg_env_and_args()
        cmd = ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error"]
        _run([*cmd, "--single-transaction", *args, str(file)], env, "pg_restore")


@dataclass(frozen=True)
class Restored:
    files: int
    migrated: list[str]  # migrations applied after the load ("app.name")
    audit_events: int
    audit_broken: str  # the first broken link of the chain, or ""


def restore(directory: Path, *, force: bool = False) -> Restored:
    """Restore the backup in ``directory`` into this installation (see the module)."""
    manifest = read_manifest(directory)
    vendor = str(manifest.get("vendor"))
    if vendor != connection.vendor:
        raise BackupError(
            f"a backup of a {vendor} database cannot be restored into {connection.vendor}: "
            "set DATABASE_URL to a database of the same kind"
        )
    media_root = Path(settings.MEDIA_ROOT)
    held = records_held()
    media_held = media_root.is_dir() and any(p.is_file() for p in media_root.rglob("*"))
    if (held or media_held) and not force:
        where = ", ".join(held[:5]) + (" ..." if len(held) > 5 else "")
        what = f"tables {where}" if held else f"uploaded files in {media_root}"
        raise BackupError(
            f"this installation is not empty ({what}): restore into an empty one, or give "
            "--force to replace everything it holds"
        )
    parts = manifest["parts"]
    database = next(p for p in parts if p["kind"] == "database")
    _load_database(directory / database["name"], vendor)
    if media_root.exists():
        shutil.rmtree(media_root)
    files = 0
    for part in parts:
        if part["kind"] != "media":
            continue
        relative = Path(part["name"]).relative_to(MEDIA)
        target = media_root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(directory / part["name"], target)
        files += 1
    before = {(app, name) for app, names in manifest.get("schema", {}).items() for name in names}
    call_command("migrate", interactive=False, verbosity=0)
    after = set(MigrationRecorder(connection).applied_migrations())
    checked, broken = verify_chain()
    problems = [str(broken)] if broken else []
    anchor_part = next((p for p in parts if p["kind"] == "anchor"), None)
    if anchor_part is not None:
        try:
            taken = anchors.read(directory / anchor_part["name"])
        except anchors.AnchorError as e:
            problems.append(str(e))
        else:
            problems += anchors.compare([taken]).problems
    return Restored(
        files=files,
        migrated=sorted(f"{app}.{name}" for app, name in after - before),
        audit_events=checked,
        audit_broken="; ".join(problems),
    )
