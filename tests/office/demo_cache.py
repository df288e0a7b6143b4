"""The demo town built once per test process, and copied back for every later test that asks.

Building the demo town (``build_demo_town``: ~7,800 rows, ~150 letters rendered to PDF) takes
25-30 s, and some twenty tests read it. :func:`demo_town` builds it the first time a process (an
xdist worker) asks for a seed and anchor, keeps every row of the database as the build left it
(and the files it stored under ``MEDIA_ROOT``, and a copy of the returned :class:`Town`), and
for every later test with that seed and anchor writes those rows back, in well under a second.

Why the restored town is the town the test would have built:

- a build is kept, and restored, only into a *clean* database: no rows but those of the tables
  Django's migrations fill (content types, permissions, the role groups, the migration
  records). Those few tables are written back whole, as they were when the town was built
  (their ids may have moved since: a transactional test's flush recreates them), and
  ``ContentType``'s in-process cache is cleared on the way in and on the way out; a test that
  made rows of its own before asking gets a real build;
- the build is deterministic for a seed and anchor (``test_demo_town_is_deterministic``, which
  builds twice and never uses this cache), so the rows are those a new build would make, with
  the same database ids;
- the rows are copied as the database stores them, not through the models: SQLite's values
  with their storage class (``+"column"`` turns off the driver's conversion by declared type),
  PostgreSQL's as ``COPY`` text; foreign keys are checked at the end of the transaction (Django
  declares them ``DEFERRABLE INITIALLY DEFERRED``), so the order of the tables does not matter;
  PostgreSQL's sequences are moved past the restored ids, never back (a sequence is not rolled
  back with the test); SQLite's ``AUTOINCREMENT`` counter follows explicit ids by itself.

What a restore does not repeat: timestamps the build took from the clock (``timezone.now()``)
are the first build's, minutes earlier in the same run; e-mail a transactional test's build
sends on commit is not sent again (no demo test reads the outbox).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from sewer_office.demo import build as demo_build
from sewer_office.demo.build import Town


@dataclass
class _Snapshot:
    """Every table's rows after one build (SQLite: tuples of stored values; PostgreSQL: lines
    of ``COPY`` text), with their columns; the files under MEDIA_ROOT; the builder's Town."""

    rows: dict[str, tuple[list[str], list[Any]]]
    files: dict[str, bytes]
    town: Town


_SNAPSHOTS: dict[tuple[Any, ...], _Snapshot] = {}
#: The tables that hold rows in the migrated, empty test database (:func:`record_baseline`).
_FRAMEWORK: set[str] = set()
_RECORDED: list[bool] = []


def record_baseline() -> None:
    """Note which tables the migrations fill (the session fixture ``demo_baseline`` calls this
    once per process, before any test): a database is clean when no other table has rows."""
    _FRAMEWORK.clear()
    _FRAMEWORK.update(t for t in _tables() if _count(t))
    _RECORDED[:] = [True]


def demo_town(seed: int = 4, anchor: date | None = None) -> Town:
    """``build_demo_town(seed, anchor)`` into the test's database: built on the first call of
    this process for that seed, anchor and jurisdictions, restored on the next ones."""
    anchor = anchor or timezone.localdate()
    towns = tuple(getattr(settings, "SEWER_USE_JURISDICTIONS", ()))
    key = (seed, anchor, settings.SEWER_USE_JURISDICTION, towns, connection.vendor)
    clean = _clean()
    snapshot = _SNAPSHOTS.get(key)
    if snapshot is not None and clean:
        return _restore(snapshot)
    media = _media_files()
    town = demo_build.build_demo_town(seed=seed, anchor=anchor)
    if snapshot is None and clean:
        _SNAPSHOTS[key] = _Snapshot(
            rows={t: (c, r) for t in _tables() if (r := _select(t, c := _columns(t)))},
            files={n: b for n, b in _media_files().items() if media.get(n) != b},
            town=copy.deepcopy(town),
        )
    return town


def load_demo(**options: Any) -> None:
    """``call_command("load_demo", **options)`` with the command's build taken from
    :func:`demo_town`: the command's own checks and message run as they do without it."""
    from sewer_office.demo.management.commands import load_demo as command

    with _replaced(command, "build_demo_town", demo_town):
        call_command("load_demo", **options)


def forget_content_types() -> None:
    """Clear ``ContentType``'s cache (a restore rewrites the content types' ids)."""
    ContentType.objects.clear_cache()


@contextmanager
def _replaced(module: Any, name: str, value: Any) -> Iterator[None]:
    original = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, original)


# --- reading the database ----------------------------------------------------------------------


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        return sorted(connection.introspection.table_names(cursor, include_views=False))


def _count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {_q(table)}")
        return int(cursor.fetchone()[0])


def _clean() -> bool:
    """Whether only the tables the migrations fill hold rows (see the module docstring)."""
    return bool(_RECORDED) and not any(_count(t) for t in _tables() if t not in _FRAMEWORK)


def _columns(table: str) -> list[str]:
    with connection.cursor() as cursor:
        return [c.name for c in connection.introspection.get_table_description(cursor, table)]


def _select(table: str, columns: list[str]) -> list[Any]:
    """Every row of ``table`` as stored: SQLite tuples, PostgreSQL ``COPY`` text lines."""
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        cols = ", ".join(_q(c) for c in columns)
        with (
            connection.connection.cursor() as cursor,
            cursor.copy(f"COPY {_q(table)} ({cols}) TO STDOUT") as out,
        ):
            data = b"".join(bytes(block) for block in out)
        return data.split(b"\n")[:-1]
    if connection.vendor != "sqlite":
        raise NotImplementedError(f"demo cache: no copy for {connection.vendor}")
    with connection.cursor() as cursor:
        # unary plus: the stored value, without the driver's conversion by declared type
        cursor.execute(f"SELECT {', '.join('+' + _q(c) for c in columns)} FROM {_q(table)}")
        return cursor.fetchall()


def _media_files() -> dict[str, bytes]:
    root = Path(settings.MEDIA_ROOT)
    if not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


# --- writing it back ---------------------------------------------------------------------------


def _restore(snapshot: _Snapshot) -> Town:
    forget_content_types()
    with transaction.atomic():
        for table in _FRAMEWORK:
            columns, rows = snapshot.rows.get(table, (_columns(table), []))
            if sorted(_select(table, columns)) != sorted(rows):
                with connection.cursor() as cursor:
                    cursor.execute(f"DELETE FROM {_q(table)}")
                _insert(table, columns, rows)
        for table, (columns, rows) in snapshot.rows.items():
            if table not in _FRAMEWORK:
                _insert(table, columns, rows)
        if connection.vendor == "postgresql":
            _sequences_past([t for t, (columns, _) in snapshot.rows.items() if "id" in columns])
    root = Path(settings.MEDIA_ROOT)
    for name, data in snapshot.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return copy.deepcopy(snapshot.town)


def _insert(table: str, columns: list[str], rows: list[Any]) -> None:
    if not rows:
        return
    cols = ", ".join(_q(c) for c in columns)
    if connection.vendor == "postgresql":
        with (
            connection.connection.cursor() as cursor,
            cursor.copy(f"COPY {_q(table)} ({cols}) FROM STDIN") as into,
        ):
            into.write(b"".join(line + b"\n" for line in rows))
        return
    marks = ", ".join(["%s"] * len(columns))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {_q(table)} ({cols}) VALUES ({marks})", rows)


def _sequences_past(tables: list[str]) -> None:
    """Each restored table's ``id`` sequence moved up to its largest id, never down: ``setval``
    is not rolled back with the test, and the rows a rollback brings back keep their ids."""
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [_q(table)])
            row = cursor.fetchone()
            if not row or not row[0]:
                continue
            cursor.execute(
                f"SELECT setval(%s, m) FROM (SELECT max(id) AS m FROM {_q(table)}) AS t, "
                f"{row[0]} AS s WHERE m > s.last_value OR (m = s.last_value AND NOT s.is_called)",
                [row[0]],
            )
