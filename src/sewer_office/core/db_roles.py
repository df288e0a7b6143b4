"""The grants of the office's runtime PostgreSQL role: what it needs, and nothing that would let
it undo the guards of the records of legal weight.

The triggers of :mod:`sewer_office.core.protection` refuse every change of a record of legal
weight — to anyone but the tables' owner, who can ``ALTER TABLE ... DISABLE TRIGGER`` and
write what it likes. So the office runs as a role that owns nothing (docs/database-roles.md):
an *owner* role creates and migrates the tables, and the *runtime* role the server connects
with gets, on every table of the office's schema:

- ``SELECT`` and ``INSERT``;
- ``UPDATE`` — except on an append-only table: a :class:`~sewer_office.core.protection.
  Protected` on whose rows nothing may change, not even bookkeeping (:func:`never_updated`).
  There it may update only the primary key: PostgreSQL asks for UPDATE on one column before
  it takes a row lock (``SELECT ... FOR UPDATE``, which the services take on reports and
  judgments), and the triggers refuse any real change of the key. A table with bookkeeping
  columns keeps the table-level UPDATE, for Django's ``save()`` writes every column and
  ``LOCK TABLE ... IN EXCLUSIVE MODE`` (a laboratory import's, :mod:`.bulk`) asks for it: its
  triggers let only the bookkeeping change;
- ``DELETE`` — except on a table of :data:`~sewer_office.core.protection.PROTECTED` and on the
  audit events;
- never ``TRUNCATE``, ``REFERENCES`` or ``TRIGGER``, never ownership.

Django's own tables get what the office needs while it runs: ``django_migrations`` is read only
(``serve --production`` and ``/readyz`` look for pending migrations), content types and
permissions are written by ``migrate`` (a content type may be added on a miss), the sessions,
users, groups and tokens are the office's to change. Sequences: ``USAGE``, ``SELECT`` and
``UPDATE`` (a bulk import sets its table's sequence past the ids it wrote, :mod:`.bulk`); the
schema: ``USAGE``; the database: ``CONNECT``.

The list of protected tables is read from :data:`~sewer_office.core.protection.PROTECTED` each
time: a model added there loses ``DELETE`` at the next ``migrate``. :func:`grant` revokes every
privilege of the role first and grants the above in the same transaction, so it is idempotent
and nobody sees a half-granted role. It runs after every ``migrate`` when
``SEWER_USE_RUNTIME_ROLE`` names the role (:func:`on_post_migrate`) and from ``sewer-use
manage grant_runtime_role ROLE``; on SQLite there is nothing to grant.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps as global_apps
from django.conf import settings
from django.core.management.base import CommandError
from django.db import connections, transaction

from . import protection

#: The audit events: never deleted by the runtime role, whatever else changes.
AUDIT_TABLE = "core_auditevent"
#: Django's tables that ``migrate`` keeps: what the runtime role may do on each.
DJANGO_TABLES: dict[str, tuple[str, ...]] = {
    "django_migrations": ("SELECT",),
    "django_content_type": ("SELECT", "INSERT"),
    "auth_permission": ("SELECT",),
}
ALL_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE")


class RuntimeRoleError(CommandError):
    """The role cannot be the office's runtime role (missing, the owner, a superuser...)."""


@dataclass(frozen=True)
class TableGrant:
    """What the runtime role may do on one table."""

    table: str
    privileges: tuple[str, ...]
    #: Columns it may UPDATE when the table-level UPDATE is withheld (the key, for row locks).
    update_columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exposure:
    """How the connected role could undo the guards: it owns tables, or is a superuser."""

    role: str
    superuser: bool
    owned: tuple[str, ...]  # tables of the office's schema the role owns (or is a member of)


def ident(name: str) -> str:
    """``name`` as a quoted SQL identifier (a role or table name is never pasted raw)."""
    return '"' + name.replace('"', '""') + '"'


def never_updated(spec: protection.Protected) -> bool:
    """Whether nothing on ``spec``'s rows may ever change, bookkeeping included: no UPDATE."""
    return spec.append_only and not spec.bookkeeping


def _protected_tables() -> dict[str, tuple[bool, tuple[str, ...]]]:
    """Each protected table → (never updated?, the columns a row lock may name).

    Read from :data:`protection.PROTECTED` now, not copied: entries added later count."""
    out: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for spec in protection.PROTECTED:
        try:
            model = global_apps.get_model(spec.model)
        except LookupError:
            continue  # a model of an app not installed: nothing of it in the database
        out[str(model._meta.db_table)] = (never_updated(spec), (str(model._meta.pk.column),))
    return out


def table_grant(table: str, protected: dict[str, tuple[bool, tuple[str, ...]]]) -> TableGrant:
    """The privileges of the runtime role on ``table`` (see the module)."""
    if table in DJANGO_TABLES:
        return TableGrant(table, DJANGO_TABLES[table])
    privileges = list(ALL_PRIVILEGES)
    update_columns: tuple[str, ...] = ()
    if table in protected or table == AUDIT_TABLE:
        privileges.remove("DELETE")
    if table in protected and protected[table][0]:
        privileges.remove("UPDATE")
        update_columns = protected[table][1]
    return TableGrant(table, tuple(privileges), update_columns)


def office_tables(connection: Any) -> list[str]:
    """The tables and views of the office's schema (the connection's current schema)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_class c "
            "WHERE c.relnamespace = to_regnamespace(current_schema()) "
            "AND c.relkind IN ('r', 'p', 'v') ORDER BY c.relname"
        )
        return [row[0] for row in cursor.fetchall()]


def plan(connection: Any) -> list[TableGrant]:
    """The grant of every table of the office, as :func:`grant` would make it now."""
    protected = _protected_tables()
    return [table_grant(t, protected) for t in office_tables(connection)]


def statements(role: str, database: str, schema: str, grants: Iterable[TableGrant]) -> list[str]:
    """The SQL of :func:`grant`: every privilege revoked, then the runtime's granted."""
    r, s = ident(role), ident(schema)
    out = [
        f"REVOKE ALL ON DATABASE {ident(database)} FROM {r}",
        f"GRANT CONNECT ON DATABASE {ident(database)} TO {r}",
        f"REVOKE ALL ON SCHEMA {s} FROM {r}",
        f"GRANT USAGE ON SCHEMA {s} TO {r}",
        # table-level REVOKE also revokes the column privileges of the same tables
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {r}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {r}",
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {s} TO {r}",
    ]
    for g in grants:
        table = f"{s}.{ident(g.table)}"
        out.append(f"GRANT {', '.join(g.privileges)} ON TABLE {table} TO {r}")
        if g.update_columns:
            columns = ", ".join(ident(c) for c in g.update_columns)
            out.append(f"GRANT UPDATE ({columns}) ON TABLE {table} TO {r}")
    return out


def _check_role(cursor: Any, role: str) -> None:
    """Refuse a role that does not exist, is the connected role, or would own anyway."""
    cursor.execute("SELECT current_user")
    me = cursor.fetchone()[0]
    if role == me:
        raise RuntimeRoleError(
            f"runtime role {role!r} is the role connected: it owns the tables. Connect as the "
            "owner (SEWER_USE_OWNER_DATABASE_URL) and name the role the office runs as"
        )
    cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
    row = cursor.fetchone()
    if row is None:
        raise RuntimeRoleError(
            f"runtime role {role!r} does not exist: create it first (deploy/postgresql-roles.sql)"
        )
    if row[0]:
        raise RuntimeRoleError(
            f"runtime role {role!r} is a superuser: grants do not bind it (ALTER ROLE "
            f"{ident(role)} NOSUPERUSER)"
        )
    cursor.execute(
        "SELECT c.relname FROM pg_class c "
        "WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind IN ('r', 'p') "
        "AND pg_has_role(%s, c.relowner, 'MEMBER') ORDER BY c.relname LIMIT 1",
        [role],
    )
    owned = cursor.fetchone()
    if owned is not None:
        raise RuntimeRoleError(
            f"runtime role {role!r} owns table {owned[0]} (or is a member of its owner): it "
            "could disable the triggers. REASSIGN OWNED BY it TO the owner role, or REVOKE "
            "the owner role from it (docs/database-roles.md)"
        )


@dataclass(frozen=True)
class GrantResult:
    """What :func:`grant` did: the role and the grant of each table."""

    role: str
    grants: tuple[TableGrant, ...]

    def summary(self) -> str:
        n = len(self.grants)
        no_delete = sum(1 for g in self.grants if "DELETE" not in g.privileges)
        append_only = sum(1 for g in self.grants if g.update_columns)
        return (
            f"runtime role {self.role!r}: {n} table(s) granted; {no_delete} without DELETE, "
            f"{append_only} append-only (no UPDATE), none with TRUNCATE"
        )


def grant(connection: Any, role: str) -> GrantResult | None:
    """Revoke every privilege of ``role`` and grant the runtime's (module), in one transaction.

    Run as the owner of the tables. None on a database that is not PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    role = role.strip()
    if not role:
        raise RuntimeRoleError("no runtime role named (SEWER_USE_RUNTIME_ROLE or ROLE)")
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        _check_role(cursor, role)
        cursor.execute("SELECT current_database(), current_schema()")
        database, schema = cursor.fetchone()
        grants = plan(connection)
        for statement in statements(role, database, schema, grants):
            cursor.execute(statement)
    return GrantResult(role, tuple(grants))


def exposure(connection: Any) -> Exposure | None:
    """How the connected role could undo the guards, or None (it owns nothing, or SQLite)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        role, superuser = cursor.fetchone()
        cursor.execute(
            "SELECT c.relname FROM pg_class c "
            "WHERE c.relnamespace = to_regnamespace(current_schema()) "
            "AND c.relkind IN ('r', 'p') AND pg_has_role(current_user, c.relowner, 'MEMBER') "
            "ORDER BY c.relname <> %s, c.relname",
            [AUDIT_TABLE],
        )
        owned = tuple(row[0] for row in cursor.fetchall())
    if not superuser and not owned:
        return None
    return Exposure(str(role), bool(superuser), owned)


def exposure_message(found: Exposure) -> str:
    """One sentence naming the role and a table it owns (the deploy check, ``/readyz``)."""
    parts = []
    if found.owned:
        more = f" and {len(found.owned) - 1} other table(s)" if len(found.owned) > 1 else ""
        parts.append(f"owns {found.owned[0]}{more}")
    if found.superuser:
        parts.append("is a superuser")
    return (
        f"the office connects to PostgreSQL as {found.role!r}, which {' and '.join(parts)}: it "
        "can disable the triggers that guard the records of legal weight"
    )


def on_post_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """``post_migrate`` receiver: :func:`grant` to ``SEWER_USE_RUNTIME_ROLE`` when it is set."""
    role = str(getattr(settings, "SEWER_USE_RUNTIME_ROLE", "") or "").strip()
    if not role:
        return
    done = grant(connections[using], role)
    stdout = kwargs.get("stdout")
    if done is not None and stdout is not None and kwargs.get("verbosity", 1) >= 1:
        stdout.write(f"  Granted {done.summary()}\n")
