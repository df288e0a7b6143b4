"""The PostgreSQL functions and triggers that enforce :data:`~.records.PROTECTED`, their
installation after every ``migrate``, and the two ways around them the owner has: a data
migration's :func:`suspended` block and the tests' :func:`maintenance` (TRUNCATE)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.apps import apps as global_apps
from django.db import connections

from .records import PROTECTED, spec_of
from .spec import Protected

FUNCTION = "sewer_use_protect"
TRUNCATE_FUNCTION = "sewer_use_no_truncate"
TRIGGER_PREFIX = "sewer_use_protect"
#: The transaction-local setting that says a TRUNCATE is the owner's maintenance.
MAINTENANCE_SETTING = "sewer_use.maintenance"
#: The row triggers of one table (``settled`` only where the table has a settled condition).
ROW_TRIGGERS = ("update", "delete", "settled")
TRUNCATE_TRIGGER = f"{TRIGGER_PREFIX}_truncate"
ALL_TRIGGERS = (*(f"{TRIGGER_PREFIX}_{op}" for op in ROW_TRIGGERS), TRUNCATE_TRIGGER)


_FUNCTION_SQL = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
    fill_once text[] := string_to_array(TG_ARGV[0], ',');
    bookkeeping text[] := string_to_array(TG_ARGV[1], ',');
    moves text[] := string_to_array(TG_ARGV[2], ',');
    tied text[] := string_to_array(coalesce(TG_ARGV[3], ''), ',');
    old_row jsonb := to_jsonb(OLD);
    new_row jsonb;
    moved text[] := '{{}}';
    k text;
    old_value jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'sewer-use: % #% is a record of legal weight: it is never deleted',
            TG_TABLE_NAME, old_row->>'id' USING ERRCODE = 'restrict_violation';
    END IF;
    new_row := to_jsonb(NEW);
    FOR k, old_value IN SELECT key, value FROM jsonb_each(old_row) LOOP
        IF (new_row -> k) IS DISTINCT FROM old_value AND (k || ':'
            || coalesce(old_row->>k, '') || '>' || coalesce(new_row->>k, '')) = ANY(moves) THEN
            moved := moved || k;
        END IF;
    END LOOP;
    FOR k, old_value IN SELECT key, value FROM jsonb_each(old_row) LOOP
        CONTINUE WHEN (new_row -> k) IS NOT DISTINCT FROM old_value;
        CONTINUE WHEN k = ANY(bookkeeping);
        CONTINUE WHEN k = ANY(fill_once) AND old_value IN
            ('null'::jsonb, '""'::jsonb, 'false'::jsonb, '[]'::jsonb, '{{}}'::jsonb);
        CONTINUE WHEN k = ANY(moved);
        CONTINUE WHEN EXISTS (SELECT 1 FROM unnest(moved) AS m WHERE k || ':' || m = ANY(tied));
        RAISE EXCEPTION 'sewer-use: % #% is a record of legal weight: % cannot change',
            TG_TABLE_NAME, old_row->>'id', k USING ERRCODE = 'restrict_violation';
    END LOOP;
    RETURN NEW;
END
$body$;
"""

# A TRUNCATE empties a table without a row trigger: refused, unless the transaction said it is
# maintenance (``SET LOCAL sewer_use.maintenance = 'on'``, :func:`maintenance`) AND the role is
# the table's owner (or a superuser). Any role may say the setting; only the owner is heard —
# and a role that does not own the tables has no TRUNCATE privilege to begin with.
_TRUNCATE_SQL = f"""
CREATE OR REPLACE FUNCTION {TRUNCATE_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
    IF coalesce(current_setting('{MAINTENANCE_SETTING}', true), '') = 'on' AND EXISTS (
        SELECT 1 FROM pg_class c
        WHERE c.oid = TG_RELID AND pg_has_role(current_user, c.relowner, 'USAGE')
    ) THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'sewer-use: % holds records of legal weight: it is never truncated',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation',
        HINT = 'only its owner''s maintenance (the tests'' flush) may, saying {MAINTENANCE_SETTING}';
END
$body$;
"""


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _table(spec: Protected) -> str:
    return str(global_apps.get_model(spec.model)._meta.db_table)


def _args(*lists: tuple[str, ...]) -> str:
    return ", ".join(_literal(",".join(items)) for items in lists)


def trigger_sql(spec: Protected, quote: Any) -> list[str]:
    """The statements that (re)create ``spec``'s triggers (``quote``: the backend's)."""
    table = quote(_table(spec))
    moves = tuple(f"{c}:{a}>{b}" for c, a, b in spec.moves())
    tied = tuple(f"{c}:{driver}" for c, driver in spec.with_move)
    args = _args(spec.filled_once(), spec.bookkeeping, moves, tied)
    frozen = _args((), spec.bookkeeping, (), ())  # settled: only bookkeeping may change
    when = f" WHEN ({spec.when})" if spec.when else ""
    settled = " AND ".join(f"({c})" for c in (spec.when, spec.settled) if c)
    out = [f"DROP TRIGGER IF EXISTS {quote(name)} ON {table}" for name in ALL_TRIGGERS]
    for op in ("update", "delete"):
        out.append(
            f"CREATE TRIGGER {quote(f'{TRIGGER_PREFIX}_{op}')} BEFORE {op.upper()} ON {table} "
            f"FOR EACH ROW{when} EXECUTE FUNCTION {FUNCTION}({args})"
        )
    if spec.settled:
        out.append(
            f"CREATE TRIGGER {quote(f'{TRIGGER_PREFIX}_settled')} BEFORE UPDATE ON {table} "
            f"FOR EACH ROW WHEN ({settled}) EXECUTE FUNCTION {FUNCTION}({frozen})"
        )
    out.append(
        f"CREATE TRIGGER {quote(TRUNCATE_TRIGGER)} BEFORE TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {TRUNCATE_FUNCTION}()"
    )
    return out


def sync(connection: Any) -> int:
    """Install the functions and the triggers of :data:`PROTECTED` (PostgreSQL; else nothing).

    Idempotent; drops this module's triggers from tables no longer listed. Tables not yet
    created are skipped (the next ``migrate`` installs them). Returns the tables protected.
    """
    if connection.vendor != "postgresql":
        return 0
    quote = connection.ops.quote_name
    existing = set(connection.introspection.table_names())
    wanted = [spec for spec in PROTECTED if _table(spec) in existing]
    with connection.cursor() as cursor:
        cursor.execute(_FUNCTION_SQL)
        cursor.execute(_TRUNCATE_SQL)
        cursor.execute(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname LIKE %s AND pg_table_is_visible(c.oid)",
            [f"{TRIGGER_PREFIX}%"],
        )
        stale = {row[0] for row in cursor.fetchall()} - {_table(spec) for spec in wanted}
        for table in sorted(stale):
            for name in ALL_TRIGGERS:
                cursor.execute(f"DROP TRIGGER IF EXISTS {quote(name)} ON {quote(table)}")
        for spec in wanted:
            for statement in trigger_sql(spec, quote):
                cursor.execute(statement)
    return len(wanted)


def remove(connection: Any) -> None:
    """Drop every trigger of this module and the functions (reverse of the migration)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}() CASCADE")
        cursor.execute(f"DROP FUNCTION IF EXISTS {TRUNCATE_FUNCTION}() CASCADE")


def maintenance(connection: Any) -> None:
    """Say, for the rest of the current transaction, that a TRUNCATE is the owner's
    maintenance (the tests' ``flush``). Heard only from the tables' owner: see the module."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, 'on', true)", [MAINTENANCE_SETTING])


@contextmanager
def suspended(connection: Any, model: str) -> Iterator[None]:
    """The row triggers of ``model`` disabled inside the block (a data migration that must).

    ``ALTER TABLE ... DISABLE TRIGGER`` takes the table's exclusive lock to the end of the
    transaction: nobody else writes the table meanwhile.
    """
    if connection.vendor != "postgresql":
        yield
        return
    db_table = str(global_apps.get_model(model)._meta.db_table)
    table = connection.ops.quote_name(db_table)
    spec = spec_of(model)
    ops = ROW_TRIGGERS if spec is not None and spec.settled else ("update", "delete")
    with connection.cursor() as cursor:
        # a table made earlier in the same migrate has none yet (installed after it)
        cursor.execute(
            "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relname = %s AND pg_table_is_visible(c.oid)",
            [db_table],
        )
        present = {row[0] for row in cursor.fetchall()}
    names = [
        connection.ops.quote_name(f"{TRIGGER_PREFIX}_{op}")
        for op in ops
        if f"{TRIGGER_PREFIX}_{op}" in present
    ]
    with connection.cursor() as cursor:
        # ALTER TABLE refuses while foreign-key checks of this transaction wait (Django's are
        # deferred): run them now, and defer them again after.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for name in names:
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {name}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for name in names:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {name}")


def on_post_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """``post_migrate`` receiver: :func:`sync` on the database just migrated."""
    sync(connections[using])
