"""Backup and restore of the demo town (SQLite and PostgreSQL), damaged backups refused, a
restore migrated forward; on PostgreSQL, the records of legal weight refuse raw SQL changes.

Each test drives ``sewer-use`` in child processes, as an operator would, against its own data
directory (and, on PostgreSQL, its own temporary databases)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The installed command, as an operator runs it (``python -m sewer_cli.main`` would load the
#: main module twice, and its UsageError with it).
SEWER_USE = str(Path(sys.executable).with_name("sewer-use"))
PG = "postgresql://postgres@127.0.0.1:5432/"
AUDIT_KEY = "2026-12-06:backup-restore-test-key-" + "x" * 32


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    # one audit key for every office of these tests, as an operator moves the key with the data
    env.update(SEWER_USE_DATA_DIR=str(data), SEWER_USE_JURISDICTION="demo", **extra)
    env.setdefault("SEWER_USE_AUDIT_KEY", AUDIT_KEY)
    return env


def _cli(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SEWER_USE, *args], env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        pytest.fail(f"sewer-use {' '.join(args)}: {done.returncode}\n{done.stdout}{done.stderr}")
    return done


def _add_uploads(data: Path) -> None:
    media = data / "media" / "attachments" / "buildingsewerpermit" / "7"
    media.mkdir(parents=True, exist_ok=True)
    (media / "plan.pdf").write_bytes(b"%PDF-1.4 plan " + bytes(range(256)) * 40)
    (media / "photo ü.jpg").write_bytes(b"\xff\xd8\xff" + os.urandom(5000))


def _files(media: Path) -> dict[str, str]:
    return {
        p.relative_to(media).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(media.rglob("*"))
        if p.is_file()
    }


def _sqlite_tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(path) as db:
        names = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        out = {}
        for name in sorted(names):
            width = len(db.execute(f'SELECT * FROM "{name}" LIMIT 0').description)
            order = ", ".join(str(i) for i in range(1, width + 1))
            out[name] = db.execute(f'SELECT * FROM "{name}" ORDER BY {order}').fetchall()
    return out


@pytest.fixture(scope="module")
def demo_sqlite(tmp_path_factory: Any) -> Path:
    """A data directory with the demo town on SQLite and three uploaded files.

    A building permit's plan and photo, and a portal link request's authorization.
    """
    data = tmp_path_factory.mktemp("demo-sqlite")
    env = _env(data)
    _cli(env, "manage", "migrate", "-v0")
    _cli(env, "manage", "load_demo")
    _add_uploads(data)
    return data


def test_sqlite_round_trip_keeps_every_row_and_file(demo_sqlite: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup"
    out = _cli(_env(demo_sqlite), "backup", str(backup)).stdout
    assert "3 uploaded file(s)" in out
    manifest = json.loads((backup / "manifest.json").read_text())
    assert manifest["vendor"] == "sqlite" and "0003_record_protection" in manifest["schema"]["core"]
    names = {p["name"]: p for p in manifest["parts"]}
    # the demo's upload is stored under a generated name with its checked type's extension
    uploaded = [n for n in names if n.startswith("media/attachments/linkrequest/1/")]
    assert len(uploaded) == 1 and uploaded[0].endswith(".pdf")
    assert set(names) == {
        "database.sqlite3",
        "audit-anchor.json",  # the audit chain's head (docs/audit-chain.md)
        "media/attachments/buildingsewerpermit/7/plan.pdf",
        "media/attachments/buildingsewerpermit/7/photo ü.jpg",
        *uploaded,
    }
    for name, part in names.items():
        assert part["size"] == (backup / name).stat().st_size
        assert part["sha256"] == hashlib.sha256((backup / name).read_bytes()).hexdigest()
    assert manifest["audit"]["events"] > 100 and len(manifest["audit"]["head"]) == 64
    # a backup never overwrites
    assert _cli(_env(demo_sqlite), "backup", str(backup), check=False).returncode == 2

    target = tmp_path / "new-office"
    restored = _cli(_env(target), "restore", str(backup))
    assert "audit chain OK" in restored.stdout and "3 uploaded file(s)" in restored.stdout
    source_db, target_db = demo_sqlite / "sewer_office.sqlite3", target / "sewer_office.sqlite3"
    assert _sqlite_tables(target_db) == _sqlite_tables(source_db)
    assert _files(target / "media") == _files(demo_sqlite / "media")
    assert len(_files(target / "media")) == 3

    # the restored office is not empty any more: a second restore is refused, unless --force
    again = _cli(_env(target), "restore", str(backup), check=False)
    assert again.returncode == 2 and "not empty" in again.stderr and "--force" in again.stderr
    forced = _cli(_env(target), "restore", str(backup), "--force")
    assert "audit chain OK" in forced.stdout
    assert _sqlite_tables(target_db) == _sqlite_tables(source_db)


def test_restore_into_a_migrated_empty_installation(demo_sqlite: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup"
    _cli(_env(demo_sqlite), "backup", str(backup))
    target = tmp_path / "fresh"
    _cli(_env(target), "manage", "migrate", "-v0")  # installed, no records yet
    _cli(_env(target), "restore", str(backup))
    assert _sqlite_tables(target / "sewer_office.sqlite3") == _sqlite_tables(
        demo_sqlite / "sewer_office.sqlite3"
    )


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("flip-database", "database.sqlite3: damaged (its SHA-256 differs"),
        ("truncate-file", "plan.pdf: damaged (size"),
        ("remove-file", "photo ü.jpg: missing from the backup"),
        ("bad-manifest", "manifest.json: damaged"),
        ("no-manifest", "manifest.json: missing"),
        ("part-outside", "lies outside the backup"),
    ],
)
def test_damaged_or_incomplete_backup_is_refused(
    demo_sqlite: Path, tmp_path_factory: Any, damage: str, message: str
) -> None:
    backup = tmp_path_factory.mktemp("bk") / "b"
    _cli(_env(demo_sqlite), "backup", str(backup))
    media = backup / "media" / "attachments" / "buildingsewerpermit" / "7"
    manifest = backup / "manifest.json"
    if damage == "flip-database":
        raw = bytearray((backup / "database.sqlite3").read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        (backup / "database.sqlite3").write_bytes(bytes(raw))
    elif damage == "truncate-file":
        (media / "plan.pdf").write_bytes((media / "plan.pdf").read_bytes()[:-1])
    elif damage == "remove-file":
        (media / "photo ü.jpg").unlink()
    elif damage == "bad-manifest":
        manifest.write_text(manifest.read_text()[:-40])
    elif damage == "no-manifest":
        manifest.unlink()
    elif damage == "part-outside":
        data = json.loads(manifest.read_text())
        data["parts"][1]["name"] = "../../etc/passwd"
        manifest.write_text(json.dumps(data))
    target = tmp_path_factory.mktemp("target")
    done = _cli(_env(target), "restore", str(backup), check=False)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (target / "media").exists()  # nothing restored
    with sqlite3.connect(target / "sewer_office.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)


def test_restore_of_an_older_schema_migrates_forward(demo_sqlite: Path, tmp_path: Path) -> None:
    """A backup made before the audit chain existed (core at 0001): the restore migrates it
    forward — the chain columns added and linked — and the chain verifies."""
    old = tmp_path / "old-office"
    shutil.copytree(demo_sqlite, old)
    _cli(_env(old), "manage", "migrate", "core", "0001", "-v0")
    with sqlite3.connect(old / "sewer_office.sqlite3") as db:
        columns = {r[1] for r in db.execute("PRAGMA table_info(core_auditevent)")}
        assert "digest" not in columns
    backup = tmp_path / "backup"
    _cli(_env(old), "backup", str(backup))
    assert json.loads((backup / "manifest.json").read_text())["schema"]["core"] == ["0001_initial"]
    target = tmp_path / "new"
    out = _cli(_env(target), "restore", str(backup)).stdout
    assert "core.0002_audit_chain" in out and "core.0003_record_protection" in out
    assert "audit chain OK" in out
    assert "OK" in _cli(_env(target), "verify-audit").stdout
    with sqlite3.connect(target / "sewer_office.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM core_auditevent WHERE digest = ''").fetchone() == (
            0,
        )


def test_verify_audit_command_finds_raw_sql_tampering(demo_sqlite: Path, tmp_path: Path) -> None:
    office = tmp_path / "office"
    shutil.copytree(demo_sqlite, office)
    ok = _cli(_env(office), "verify-audit")
    assert ok.stdout.startswith("OK:")
    with sqlite3.connect(office / "sewer_office.sqlite3") as db:
        (victim,) = db.execute(
            "SELECT id FROM core_auditevent ORDER BY id LIMIT 1 OFFSET 100"
        ).fetchone()
        db.execute("UPDATE core_auditevent SET actor_name = 'someone' WHERE id = ?", [victim])
    bad = _cli(_env(office), "verify-audit", check=False)
    assert bad.returncode == 1
    assert f"audit event #{victim}" in bad.stdout and "was changed" in bad.stdout
    assert "100 event(s) before it verify" in bad.stdout


# --- PostgreSQL ------------------------------------------------------------------------------


def _pg_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG + "postgres", connect_timeout=3):
            return True
    except Exception:
        return False


@pytest.fixture(scope="module")
def pg_databases() -> Iterator[Any]:
    if not _pg_available():
        pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432")
    import psycopg

    made: list[str] = []

    def create() -> str:
        name = f"sewer_test_backup_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(PG + "postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return name

    yield create
    with psycopg.connect(PG + "postgres", autocommit=True) as conn:
        for name in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def demo_pg(pg_databases: Any, tmp_path_factory: Any) -> tuple[str, Path]:
    name = pg_databases()
    data = tmp_path_factory.mktemp("demo-pg")
    env = _env(data, DATABASE_URL=PG + name)
    _cli(env, "manage", "migrate", "-v0")
    _cli(env, "manage", "load_demo")
    _add_uploads(data)
    return name, data


def _pg_tables(name: str) -> dict[str, list[tuple[Any, ...]]]:
    import psycopg

    out = {}
    with psycopg.connect(PG + name) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        for table in tables:
            cur = conn.execute(f'SELECT * FROM "{table}" LIMIT 0')
            order = ", ".join(str(i) for i in range(1, len(cur.description or []) + 1))
            out[table] = conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}').fetchall()
    return out


def test_postgresql_round_trip_keeps_every_row_and_file(
    demo_pg: tuple[str, Path], pg_databases: Any, tmp_path: Path
) -> None:
    source, data = demo_pg
    backup = tmp_path / "backup"
    _cli(_env(data, DATABASE_URL=PG + source), "backup", str(backup))
    manifest = json.loads((backup / "manifest.json").read_text())
    assert manifest["vendor"] == "postgresql" and (backup / "database.pgdump").is_file()
    assert (backup / "database.pgdump").read_bytes()[:5] == b"PGDMP"  # pg_dump custom format
    target_db, target = pg_databases(), tmp_path / "new-office"
    out = _cli(_env(target, DATABASE_URL=PG + target_db), "restore", str(backup)).stdout
    assert "audit chain OK" in out
    restored, original = _pg_tables(target_db), _pg_tables(source)
    assert set(restored) == set(original)
    for table, rows in original.items():
        assert restored[table] == rows, table
    assert sum(len(r) for r in original.values()) > 1000
    assert _files(target / "media") == _files(data / "media") and len(_files(data / "media")) == 3
    # the restored database is protected as well (its triggers re-installed by migrate)
    _assert_protected(target_db)


def _refused(conn: Any, sql: str, *params: Any) -> str:
    import psycopg

    with pytest.raises(psycopg.errors.RestrictViolation) as caught, conn.transaction():
        conn.execute(sql, params)
    return str(caught.value)


def _assert_protected(name: str) -> None:
    import psycopg

    with psycopg.connect(PG + name, autocommit=True) as conn:
        one = conn.execute("SELECT id FROM core_auditevent ORDER BY id LIMIT 1").fetchone()
        assert one
        message = _refused(conn, "UPDATE core_auditevent SET reason = 'x' WHERE id = %s", one[0])
        assert "record of legal weight" in message and "reason cannot change" in message
        assert "never deleted" in _refused(
            conn, "DELETE FROM core_auditevent WHERE id = %s", one[0]
        )


def test_postgresql_refuses_raw_changes_of_records_of_legal_weight(
    demo_pg: tuple[str, Path],
) -> None:
    import psycopg

    name, _ = demo_pg
    _assert_protected(name)
    with psycopg.connect(PG + name, autocommit=True) as conn:

        def first(sql: str) -> Any:
            row = conn.execute(sql).fetchone()
            assert row, sql
            return row[0]

        approved = first("SELECT id FROM monitoring_labresult WHERE state = 'approved' LIMIT 1")
        assert "value_text cannot change" in _refused(
            conn, "UPDATE monitoring_labresult SET value_text = '0' WHERE id = %s", approved
        )
        _refused(conn, "DELETE FROM monitoring_labresult WHERE id = %s", approved)
        # the one legitimate move of an approved result: superseded by a correction
        with conn.transaction():
            conn.execute(
                "UPDATE monitoring_labresult SET state = 'superseded' WHERE id = %s", [approved]
            )
            _refused(
                conn, "UPDATE monitoring_labresult SET state = 'approved' WHERE id = %s", approved
            )
            raise_rollback = psycopg.Rollback()
            raise raise_rollback
        # a reported result is still the laboratory's draft: not protected
        reported = conn.execute(
            "SELECT id FROM monitoring_labresult WHERE state = 'reported' LIMIT 1"
        ).fetchone()
        if reported:
            with conn.transaction():
                conn.execute(
                    "UPDATE monitoring_labresult SET method = 'x' WHERE id = %s", [reported[0]]
                )
                raise psycopg.Rollback()

        notice = first("SELECT id FROM enforcement_notice LIMIT 1")
        assert "nature cannot change" in _refused(
            conn, "UPDATE enforcement_notice SET nature = 'softer' WHERE id = %s", notice
        )
        _refused(conn, "DELETE FROM enforcement_notice WHERE id = %s", notice)
        served = first("SELECT id FROM enforcement_notice WHERE served_on IS NOT NULL LIMIT 1")
        assert "served_on cannot change" in _refused(
            conn,
            "UPDATE enforcement_notice SET served_on = served_on + 1 WHERE id = %s",
            served,
        )
        unserved = conn.execute(
            "SELECT id FROM enforcement_notice WHERE served_on IS NULL LIMIT 1"
        ).fetchone()
        if unserved:  # service is recorded once, from nothing
            with conn.transaction():
                conn.execute(
                    "UPDATE enforcement_notice SET served_on = issued_on, updated_at = now() "
                    "WHERE id = %s",
                    [unserved[0]],
                )
                _refused(
                    conn,
                    "UPDATE enforcement_notice SET served_on = NULL WHERE id = %s",
                    unserved[0],
                )
                raise psycopg.Rollback()
        for table, column in (
            ("enforcement_cost", "amount"),
            ("enforcement_referral", "note"),
            ("pretreatment_sncdetermination", "snc"),
            ("billing_invoice", "total"),
            ("billing_invoiceline", "amount"),
            ("billing_charge", "amount"),
            ("billing_payment", "amount"),
            ("billing_paymentapplication", "amount"),
            ("billing_refund", "amount"),
        ):
            row = conn.execute(f"SELECT id FROM {table} LIMIT 1").fetchone()
            if row is None:
                continue
            value = {"snc": "NOT snc", "note": "'x'"}.get(column, f"{column} + 1")
            _refused(conn, f"UPDATE {table} SET {column} = {value} WHERE id = %s", row[0])
            _refused(conn, f"DELETE FROM {table} WHERE id = %s", row[0])
        # an issued invoice's one move: its void, recorded once; never back
        issued = conn.execute(
            "SELECT id FROM billing_invoice WHERE state = 'issued' LIMIT 1"
        ).fetchone()
        if issued:
            with conn.transaction():
                conn.execute(
                    "UPDATE billing_invoice SET state = 'void', voided_at = now(), "
                    "void_reason = 'test' WHERE id = %s",
                    [issued[0]],
                )
                _refused(
                    conn, "UPDATE billing_invoice SET state = 'issued' WHERE id = %s", issued[0]
                )
                raise psycopg.Rollback()
        # and the application's own writes still work: flag-overdue records and transitions
    done = _cli(_env(demo_pg[1], DATABASE_URL=PG + name), "flag-overdue")
    assert "recorded" in done.stdout
