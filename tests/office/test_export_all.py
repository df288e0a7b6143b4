"""Everything out and back in: ``sewer-use export-all`` and ``import-all`` (docs/leaving.md).

The demo town (with an uploaded plan, a stray stored file and a person merged into one
entered after it) is exported, imported into an empty installation, exported again: every
table and every file must come back the same, the audit chain must verify, with one event
more ("imported from export <manifest SHA-256>"). An installation that is not empty, a
changed file, another schema and a missing audit key are refused with nothing changed. The
data dictionary committed in docs/ must be what the generator makes now.

The commands run in child processes, as an operator runs them, each office in its own data
directory; on PostgreSQL (``DATABASE_URL=postgresql://…/NAME``) in databases ``NAME_export_…``
made and dropped here, and the SQLite export is loaded into PostgreSQL too (the export does
not depend on the vendor)."""

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
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from sewer_office.core import data_dictionary
from sewer_office.core.export_all import sums_line
from sewer_office.core.export_tables import (
    CARRIED,
    LEFT_OUT,
    csv_value,
    export_tables,
    json_value,
    unclassified,
)

SEWER_USE = str(Path(sys.executable).with_name("sewer-use"))
ROOT = Path(__file__).resolve().parents[2]
AUDIT_KEY = "2026-12-06:export-all-test-key-" + "x" * 32

#: Prepared in the demo office: a plan attached to the first building sewer permit, a stored
#: file no record names, the first person merged into the last (a forward reference).
PREPARE = """
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.conf import settings
from pathlib import Path
from sewer_office.core.attachments import attach
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.registry.merge import merge_person
from sewer_office.registry.models import Person
clerk = User.objects.get(username="clerk")
permit = BuildingSewerPermit.objects.order_by("id").first()
plan = SimpleUploadedFile("plan ü.pdf", b"%PDF-1.4 plan " + bytes(range(256)) * 40)
attach(permit, plan, clerk, title="Site plan")
stray = Path(settings.MEDIA_ROOT) / "stray" / "notes.pdf"
stray.parent.mkdir(parents=True, exist_ok=True)
stray.write_bytes(b"%PDF-1.4 a file no record names")
first, last = Person.objects.order_by("id").first(), Person.objects.order_by("-id").first()
merge_person(first, last, clerk, reason="entered twice")
"""


def _env(data: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    env.update(SEWER_USE_DATA_DIR=str(data), SEWER_USE_JURISDICTION="demo", **extra)
    env.setdefault("SEWER_USE_AUDIT_KEY", AUDIT_KEY)
    return env


def _cli(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([SEWER_USE, *args], env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        pytest.fail(f"sewer-use {' '.join(args)}: {done.returncode}\n{done.stdout}{done.stderr}")
    return done


def _demo(env: dict[str, str]) -> None:
    if "DATABASE_URL" in env:
        _cli(env, "manage", "migrate", "-v0")
    _cli(env, "manage", "load_demo")
    _cli(env, "manage", "shell", "-c", PREPARE)


def _rows(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))  # the whole file is valid JSON
    assert isinstance(data, list)
    return data


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _assert_same_office(first: Path, again: Path) -> None:
    """``again`` (an export of the imported office) holds what ``first`` held, and the one
    audit event of the import."""
    one = json.loads((first / "manifest.json").read_text())
    two = json.loads((again / "manifest.json").read_text())
    assert one["migrations"] == two["migrations"]
    counts = {t["table"]: t["rows"] for t in one["tables"]}
    assert {t["table"]: t["rows"] for t in two["tables"]} == counts | {
        "core.auditevent": counts["core.auditevent"] + 1
    }
    for table in sorted((first / "tables").glob("*.json")):
        name = table.name
        if name == "core.auditevent.json":
            continue
        assert _rows(again / "tables" / name) == _rows(table), name
        csv_name = name.removesuffix(".json") + ".csv"
        assert (again / "tables" / csv_name).read_bytes() == (
            first / "tables" / csv_name
        ).read_bytes(), csv_name
    events, events_now = (_rows(d / "tables" / "core.auditevent.json") for d in (first, again))
    assert events_now[:-1] == events  # seq, digests and key ids kept
    last = events_now[-1]
    assert last["reason"] == f"imported from export {_sha(first / 'manifest.json')}"
    assert last["seq"] == events[-1]["seq"] + 1 and last["prev_hash"] == events[-1]["digest"]
    assert last["action"] == "import_export"
    # every stored file back in its place, byte for byte
    assert (again / "files.json").read_bytes() == (first / "files.json").read_bytes()
    assert two["audit"]["verified"] and two["audit"]["digest"] == last["digest"]


def _assert_export_layout(export: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((export / "manifest.json").read_text())
    # sha256sum -c checks every file with the standard tool
    done = subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=export, check=False)
    assert done.returncode == 0
    listed = {line.split("  ", 1)[1].rstrip("\n") for line in (export / "SHA256SUMS").open()}
    written = {p.relative_to(export).as_posix() for p in export.rglob("*") if p.is_file()}
    assert listed == written - {"SHA256SUMS"}
    assert set(manifest["sha256"]) == written - {"SHA256SUMS", "manifest.json"}
    tables = {t["table"]: t for t in manifest["tables"]}
    assert {t.label for t in export_tables()} == set(tables)
    for label, table in tables.items():
        assert len(_rows(export / table["json"])) == table["rows"], label
        header = (export / table["csv"]).read_text().split("\n", 1)[0]
        assert header.split(",") == table["columns"], label
    # no secret: no password column, no sessions, tokens or second-factor devices
    assert "password" not in tables["auth.user"]["columns"]
    assert not any(t in tables for t in LEFT_OUT)
    assert {t["table"] for t in manifest["left_out"]["tables"]} == set(LEFT_OUT)
    # the files: the uploads under their stored names, the bytes of rows as files
    files = _rows(export / "files.json")
    by_path = {f["path"]: f for f in files}
    plan = [f for f in files if f["table"] == "core.attachment" and f["size"] == 14 + 256 * 40]
    assert len(plan) == 1 and plan[0]["stored_as"].startswith("attachments/buildingsewerpermit/")
    stray = by_path["files/media/stray/notes.pdf"]
    assert stray["table"] == "" and stray["stored_as"] == "stray/notes.pdf"
    documents = [f for f in files if f["table"] == "core.issueddocument"]
    assert documents and all(f["path"].endswith(".pdf") for f in documents)
    for f in files:
        assert _sha(export / f["path"]) == f["sha256"] == manifest["sha256"][f["path"]]
    issued = _rows(export / "tables" / "core.issueddocument.json")
    assert {r["content"] for r in issued} == {f["path"] for f in documents}
    # typed values: decimals as exact strings, times with their offset, JSON as JSON
    invoice = _rows(export / "tables" / "billing.invoice.json")[0]
    assert isinstance(invoice["total"], str) and Decimal(invoice["total"]) > 0
    assert isinstance(invoice["due_basis"], dict)
    assert datetime.fromisoformat(invoice["issued_at"]).utcoffset() == timedelta(0)
    date.fromisoformat(invoice["issued_on"])
    persons = _rows(export / "tables" / "registry.person.json")
    assert persons[0]["merged_into_id"] == persons[-1]["id"]  # a later row: a forward key
    assert manifest["audit"]["verified"] and manifest["audit"]["keys_used"] == ["2026-12-06"]
    assert (export / "data-dictionary.md").read_text() == data_dictionary.markdown()
    return manifest


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: Any) -> Path:
    """An empty office on SQLite (migrated once: each test copies it)."""
    data: Path = tmp_path_factory.mktemp("migrated")
    _cli(_env(data), "manage", "migrate", "-v0")
    return data


@pytest.fixture
def empty_office(migrated: Path, tmp_path: Path) -> Any:
    """``empty_office(name, **environment)``: a new empty office on SQLite, its environment."""

    def make(name: str, **extra: str) -> dict[str, str]:
        shutil.copytree(migrated, tmp_path / name)
        return _env(tmp_path / name, **extra)

    return make


@pytest.fixture(scope="module")
def demo_sqlite(migrated: Path, tmp_path_factory: Any) -> tuple[Path, Path]:
    """The demo office on SQLite and its export."""
    data = tmp_path_factory.mktemp("demo-sqlite") / "office"
    shutil.copytree(migrated, data)
    _demo(_env(data))
    export = tmp_path_factory.mktemp("export") / "out"
    out = _cli(_env(data), "export-all", str(export)).stdout
    assert "sha256sum -c SHA256SUMS" in out
    return data, export


def test_sqlite_round_trip_keeps_every_row_and_file(
    demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    data, export = demo_sqlite
    manifest = _assert_export_layout(export)
    assert manifest["database"]["vendor"] == "sqlite"
    # an export never overwrites
    again = _cli(_env(data), "export-all", str(export), check=False)
    assert again.returncode == 2 and "not an empty directory" in again.stderr

    target = tmp_path / "new-office"
    empty_office("new-office")
    # a row the installation made itself (as a migration may), the same as the export's: kept
    _copy_row(data, target, "registry_servicearea", 1)
    out = _cli(_env(target), "import-all", str(export)).stdout
    assert "audit chain OK" in out and "without passwords" in out
    assert "OK" in _cli(_env(target), "verify-audit").stdout
    with sqlite3.connect(target / "sewer_office.sqlite3") as db:
        passwords = [r[0] for r in db.execute("SELECT password FROM auth_user")]
    assert passwords and all(p.startswith("!") for p in passwords)  # unusable: set anew
    plan = next((target / "media" / "attachments" / "buildingsewerpermit").rglob("*.pdf"))
    assert plan.read_bytes().startswith(b"%PDF-1.4 plan ")
    assert (target / "media" / "stray" / "notes.pdf").is_file()
    second = tmp_path / "second-export"
    _cli(_env(target), "export-all", str(second))
    _assert_same_office(export, second)
    # new records continue after the imported ids
    shell = (
        "from sewer_office.registry.models import Person; print(Person.objects.create(name='N').pk)"
    )
    new_id = int(_cli(_env(target), "manage", "shell", "-c", shell).stdout.split()[-1])
    assert new_id == max(p["id"] for p in _rows(export / "tables" / "registry.person.json")) + 1

    # an installation holding records is refused, naming a table
    refused = _cli(_env(target), "import-all", str(export), check=False)
    assert refused.returncode == 2
    assert "not empty" in refused.stderr and "registry_person" in refused.stderr


def _copy(export: Path, where: Path) -> Path:
    shutil.copytree(export, where)
    return where


def _copy_row(source: Path, target: Path, table: str, pk: int, change: str = "") -> None:
    """Copy row ``pk`` of ``table`` from the office ``source`` into ``target`` (SQLite), with
    the SQL assignment ``change`` made after."""
    with sqlite3.connect(target / "sewer_office.sqlite3") as db:
        db.execute("ATTACH DATABASE ? AS source", [str(source / "sewer_office.sqlite3")])
        db.execute(f"INSERT INTO {table} SELECT * FROM source.{table} WHERE id = ?", [pk])
        if change:
            db.execute(f"UPDATE {table} SET {change} WHERE id = ?", [pk])


def test_an_installation_with_another_row_is_refused(
    demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    env = empty_office("office")
    _copy_row(demo_sqlite[0], tmp_path / "office", "registry_servicearea", 1, "name = 'Other'")
    refused = _cli(env, "import-all", str(demo_sqlite[1]), check=False)
    assert refused.returncode == 2
    assert (
        "not empty: registry_servicearea" in refused.stderr and "nothing changed" in refused.stderr
    )
    assert _users(tmp_path / "office") == 0


def _users(path: Path) -> int:
    with sqlite3.connect(path / "sewer_office.sqlite3") as db:
        return int(db.execute("SELECT count(*) FROM auth_user").fetchone()[0])


def test_a_changed_file_is_refused(
    demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    export = _copy(demo_sqlite[1], tmp_path / "export")
    document = next((export / "files" / "records" / "core.issueddocument").iterdir())
    document.write_bytes(document.read_bytes() + b" ")
    env = empty_office("office")
    refused = _cli(env, "import-all", str(export), check=False)
    assert refused.returncode == 2
    name = document.relative_to(export).as_posix()
    assert f"{name}: damaged" in refused.stderr and "nothing changed" in refused.stderr
    assert _users(tmp_path / "office") == 0
    # a row changed in a table file, the same
    export = _copy(demo_sqlite[1], tmp_path / "export2")
    table = export / "tables" / "billing.payment.json"
    table.write_text(table.read_text().replace('"amount": "', '"amount": "1', 1))
    refused = _cli(env, "import-all", str(export), check=False)
    assert refused.returncode == 2 and "tables/billing.payment.json: damaged" in refused.stderr


def test_another_schema_is_refused(
    demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    export = _copy(demo_sqlite[1], tmp_path / "export")
    manifest = json.loads((export / "manifest.json").read_text())
    dropped = manifest["migrations"]["billing"].pop()
    (export / "manifest.json").write_text(json.dumps(manifest))
    env = empty_office("office")
    refused = _cli(env, "import-all", str(export), check=False)
    assert refused.returncode == 2
    assert "another schema" in refused.stderr and f"billing.{dropped}" in refused.stderr
    assert _users(tmp_path / "office") == 0


def test_the_audit_key_must_come_along(
    demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    export = demo_sqlite[1]
    other = "2027-01-02:another-installations-key-" + "y" * 32
    env = empty_office("office", SEWER_USE_AUDIT_KEY=other)
    refused = _cli(env, "import-all", str(export), check=False)
    assert refused.returncode == 2 and "2026-12-06" in refused.stderr
    assert "SEWER_USE_AUDIT_KEY" in refused.stderr
    # the same key id with another secret: loaded, found not to verify, rolled back
    forged = "2026-12-06:not-the-secret-that-signed-them-" + "z" * 32
    env = empty_office("office2", SEWER_USE_AUDIT_KEY=forged)
    refused = _cli(env, "import-all", str(export), check=False)
    assert refused.returncode == 2 and "audit key is not the one" in refused.stderr
    assert _users(tmp_path / "office2") == 0
    assert not any(p.is_file() for p in (tmp_path / "office2" / "media").rglob("*"))


# --- PostgreSQL -------------------------------------------------------------------------------


def _server() -> tuple[str, str] | None:
    """(the server's URL without a database, the database name) of ``DATABASE_URL``."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/")), parts.path.lstrip("/") or "sewer"


@pytest.fixture(scope="module")
def pg_databases() -> Iterator[Any]:
    server = _server()
    if server is None:
        pytest.skip("PostgreSQL round trip: set DATABASE_URL=postgresql://.../NAME")
    import psycopg

    base, name = server
    made: list[str] = []

    def create() -> str:
        database = f"{name}_export_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(base + "postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        made.append(database)
        return base + database

    yield create
    with psycopg.connect(base + "postgres", autocommit=True) as conn:
        for database in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def test_postgresql_round_trip(
    pg_databases: Any, demo_sqlite: tuple[Path, Path], empty_office: Any, tmp_path: Path
) -> None:
    """Out of PostgreSQL (into SQLite), and into PostgreSQL (out of SQLite): the export does
    not depend on the vendor; on PostgreSQL the sequences are set and the guards hold."""
    source = _env(tmp_path / "source", DATABASE_URL=pg_databases())
    _demo(source)
    export = tmp_path / "export"
    _cli(source, "export-all", str(export))
    manifest = _assert_export_layout(export)
    assert manifest["database"]["vendor"] == "postgresql"
    into_sqlite = empty_office("into-sqlite")
    assert "audit chain OK" in _cli(into_sqlite, "import-all", str(export)).stdout
    _cli(into_sqlite, "export-all", str(tmp_path / "again"))
    _assert_same_office(export, tmp_path / "again")

    target = _env(tmp_path / "target", DATABASE_URL=pg_databases())
    _cli(target, "manage", "migrate", "-v0")
    sqlite_export = demo_sqlite[1]
    assert "audit chain OK" in _cli(target, "import-all", str(sqlite_export)).stdout
    assert "OK" in _cli(target, "verify-audit").stdout
    _cli(target, "export-all", str(tmp_path / "third"))
    _assert_same_office(sqlite_export, tmp_path / "third")
    # the sequences were set past the imported ids
    shell = (
        "from sewer_office.registry.models import Person; print(Person.objects.create(name='N').pk)"
    )
    new_id = int(_cli(target, "manage", "shell", "-c", shell).stdout.split()[-1])
    persons = _rows(sqlite_export / "tables" / "registry.person.json")
    assert new_id == max(p["id"] for p in persons) + 1
    # the imported records are guarded like any (an UPDATE of an audit event refused)
    import psycopg

    with (
        psycopg.connect(target["DATABASE_URL"], autocommit=True) as conn,
        pytest.raises(psycopg.errors.RestrictViolation),
    ):
        conn.execute("UPDATE core_auditevent SET reason = 'x' WHERE id = 1")
    refused = _cli(target, "import-all", str(export), check=False)
    assert refused.returncode == 2 and "not empty" in refused.stderr


# --- in process -------------------------------------------------------------------------------


def test_the_committed_data_dictionary_is_current() -> None:
    committed = (ROOT / "docs" / "data-dictionary.md").read_text(encoding="utf-8")
    assert committed == data_dictionary.markdown(), (
        f"docs/data-dictionary.md is not what the models say now: run {data_dictionary.REGENERATE}"
    )


def test_every_table_is_exported_or_left_out_with_why() -> None:
    assert unclassified() == [], "decide: export it (CARRIED) or leave it out (LEFT_OUT), why"
    labels = {t.label for t in export_tables()}
    assert set(CARRIED) <= labels and not set(LEFT_OUT) & labels
    assert {"core.auditevent", "registry.person", "auth.user", "auth.user_groups"} <= labels


def test_the_dictionary_tells_meaning_and_law() -> None:
    data = {t["table"]: t for t in data_dictionary.dictionary()["tables"]}
    notice = data["enforcement.notice"]
    assert "§ 196-22 A" in notice["law"] and notice["guard"]["placement"] == "guarded"
    permit = data["permits.buildingsewerpermit"]
    assert permit["law"][0] == "§ 196-18"  # the model's CITATION first
    person = {c["column"]: c for c in data["registry.person"]["columns"]}
    assert "merged" in person["merged_into_id"]["meaning"]  # its #: comment
    assert person["merged_into_id"]["references"] == {"table": "registry.person", "column": "id"}
    assert person["kind"]["choices"] and person["mail_city"]["label"] == "mailing town"
    assert data["auth.group"]["law"] == [data_dictionary.NO_LAW]
    document = {c["column"]: c for c in data["core.issueddocument"]["columns"]}
    assert document["content"]["kind"] == "bytes" and document["issued_at"]["kind"] == "datetime"
    assert data_dictionary.citations(
        "under § 196-19 F(2) and 40 CFR 403.8(f)(2)(viii), § 196-15 SLUG; § 196-16 D–F."
    ) == ["§ 196-19 F(2)", "§ 196-15 SLUG", "§ 196-16 D–F", "40 CFR 403.8(f)(2)(viii)"]


def test_values_are_written_exactly() -> None:
    assert json_value(Decimal("0E-8")) == "0.00000000"  # never an exponent
    assert json_value(Decimal("1234.50")) == "1234.50"
    instant = datetime(2026, 12, 6, 14, 5, tzinfo=UTC)
    assert json_value(instant) == "2026-12-06T14:05:00+00:00"
    eastern = datetime(2026, 12, 6, 9, 5, tzinfo=timezone(timedelta(hours=-5)))
    assert json_value(eastern) == "2026-12-06T09:05:00-05:00"
    assert json_value(float("nan")) == "nan" and json_value(1.5) == 1.5
    assert csv_value({"a": [1, "ü"]}, "json") == '{"a": [1, "ü"]}'
    assert csv_value(True, "boolean") == "true" and csv_value(None, "text") == ""
    assert sums_line("ab", "a\\b") == "\\ab  a\\\\b\n"
