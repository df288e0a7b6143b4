"""The office's runtime PostgreSQL role cannot lift the guards of the records of legal weight
(sewer_office.core.db_roles, docs/database-roles.md).

A throwaway role (a unique name: roles are the cluster's, not the test database's) is granted
the runtime's privileges; connected as it, the test shows what it cannot do — disable a
trigger, silence them all, truncate, delete an audit event, update an append-only table — and
that the triggers still refuse it the guarded changes, while the office's own work (a town, a
notice served, a payment, audit events) goes through. The test database is created by
pytest-django as a superuser that owns every table: the deploy check and ``/readyz`` warn
about exactly that. PostgreSQL only (``DATABASE_URL=postgresql://...``).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core import checks
from django.core.management import call_command
from django.db import IntegrityError, ProgrammingError, connection, connections, transaction

from sewer_office.core import db_roles, protection
from sewer_office.core.checks import OWNS_TABLES, SUPERUSER, check_runtime_role
from sewer_office.core.db_roles import RuntimeRoleError, ident

ROOT = Path(__file__).resolve().parents[2]

needs_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")


def _admin(sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    """``sql`` as the test database's owner (the superuser pytest-django connects as)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall()) if cursor.description else []


@pytest.fixture
def runtime_role(transactional_db: Any) -> Iterator[str]:
    """A new LOGIN role with the runtime's grants; dropped (with its grants) afterwards."""
    role = f"sewer_rt_{uuid.uuid4().hex[:12]}"
    _admin(f"CREATE ROLE {ident(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS")
    try:
        db_roles.grant(connection, role)
        yield role
    finally:
        _admin(f"DROP OWNED BY {ident(role)}")  # its privileges, here and on the database
        _admin(f"DROP ROLE {ident(role)}")


def _raw(role: str) -> Any:
    """A plain psycopg connection as ``role`` to the test database (autocommit)."""
    import psycopg

    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=role,
        dbname=s["NAME"],
        autocommit=True,
    )


@contextmanager
def as_role(role: str) -> Iterator[None]:
    """Django's default connection replaced by one as ``role``: the office's code runs as it."""
    owner = connections["default"]
    runtime = owner.__class__({**owner.settings_dict, "USER": role, "PASSWORD": ""}, "default")
    connections["default"] = runtime
    try:
        yield
    finally:
        runtime.close()
        connections["default"] = owner


def _has(role: str, table: str, privilege: str) -> bool:
    return bool(_admin("SELECT has_table_privilege(%s, %s, %s)", [role, table, privilege])[0][0])


# --- what the runtime role cannot do ------------------------------------------------------


@needs_postgres
def test_runtime_role_cannot_lift_the_guards(runtime_role: str) -> None:
    from psycopg import errors

    refused = {
        # the owner's power: triggers off, table gone, a trigger of its own
        "ALTER TABLE core_auditevent DISABLE TRIGGER ALL": "must be owner",
        "ALTER TABLE enforcement_notice DISABLE TRIGGER sewer_use_protect_update": "owner",
        "DROP TABLE core_auditevent": "must be owner",
        "CREATE TRIGGER t BEFORE UPDATE ON core_auditevent FOR EACH ROW "
        "EXECUTE FUNCTION sewer_use_protect()": "",
        # a superuser's: every trigger silenced for the session
        "SET session_replication_role = replica": "permission denied",
        # no TRUNCATE anywhere, no DELETE of the audit events or of a record of legal weight
        "TRUNCATE core_auditevent": "permission denied",
        "TRUNCATE registry_person": "permission denied",
        "DELETE FROM core_auditevent": "permission denied",
        "DELETE FROM enforcement_notice": "permission denied",
        # no UPDATE of an append-only table (only its key, for row locks)
        "UPDATE billing_payment SET amount = amount": "permission denied",
        "UPDATE core_auditevent SET action = action": "permission denied",
    }
    with _raw(runtime_role) as conn:
        for sql, words in refused.items():
            with pytest.raises(errors.InsufficientPrivilege) as caught:
                conn.execute(sql)
            assert words in str(caught.value), (sql, str(caught.value))
        # what it may do: read, and lock an append-only row (UPDATE on the key alone)
        conn.execute("SELECT count(*) FROM core_auditevent").fetchone()
        with conn.transaction():
            conn.execute("SELECT id FROM billing_payment FOR UPDATE").fetchall()


@needs_postgres
def test_the_office_runs_as_the_runtime_role_and_the_triggers_still_refuse(
    runtime_role: str,
) -> None:
    from sewer_office.billing.payments import record_payment
    from sewer_office.core.models import AuditEvent
    from sewer_office.enforcement.models import Notice
    from sewer_office.registry.models import Person

    from .enforcement_factories import served
    from .factories import make_town

    with as_role(runtime_role):
        assert _runtime_user() == runtime_role
        # the office's work through its services: users, a town, a notice served, a payment
        town = make_town()
        violation = served(town)
        notice = Notice.objects.get(violation=violation)
        assert notice.served_on == date(2026, 1, 5)
        person = town.owner_person
        assert person is not None
        payment = record_payment(town.u("clerk"), person=person, amount="12.50", method="cash")
        events = AuditEvent.objects.count()
        assert events > 0  # each service wrote its audit event (INSERT, the chain's lock)
        # a free table is updated, a row of an append-only one locked
        Person.objects.filter(pk=person.pk).update(notes="moved to Beacon")
        with transaction.atomic():
            assert len(type(payment).objects.select_for_update().filter(pk=payment.pk)) == 1
        # the trigger refuses a guarded column set once; the grant refuses the append-only
        with pytest.raises(IntegrityError, match="served_on cannot change"), transaction.atomic():
            Notice.objects.filter(pk=notice.pk).update(served_on=date(2026, 1, 6))
        with pytest.raises(ProgrammingError, match="permission denied"), transaction.atomic():
            type(payment).objects.filter(pk=payment.pk).update(amount="0.01")
        with pytest.raises(ProgrammingError, match="permission denied"), transaction.atomic():
            AuditEvent.objects.filter(pk__gt=0).delete()
    notice.refresh_from_db()
    payment.refresh_from_db()
    assert notice.served_on == date(2026, 1, 5) and str(payment.amount) == "12.50"
    assert AuditEvent.objects.count() == events


def _runtime_user() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        return str(cursor.fetchone()[0])


# --- what is granted, from PROTECTED, idempotently -------------------------------------------


@needs_postgres
def test_grants_follow_the_protected_list_read_at_grant_time(
    runtime_role: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    grants = {g.table: g for g in db_roles.plan(connection)}
    protected = db_roles._protected_tables()
    assert protected and set(protected) <= set(grants)
    for table, (never_updated, _) in protected.items():
        assert not _has(runtime_role, table, "DELETE"), table
        assert _has(runtime_role, table, "UPDATE") is not never_updated, table
        assert _has(runtime_role, table, "INSERT") and _has(runtime_role, table, "SELECT")
    assert not _has(runtime_role, "core_auditevent", "DELETE")
    assert not _has(runtime_role, "core_auditevent", "UPDATE")
    assert not _has(runtime_role, "django_migrations", "INSERT")
    assert _has(runtime_role, "django_migrations", "SELECT")
    assert _has(runtime_role, "django_session", "DELETE")
    # nothing that lets it lock everyone out or hang triggers on a table
    kinds = {row[0] for row in _admin(
        "SELECT DISTINCT privilege_type FROM information_schema.role_table_grants "
        "WHERE grantee = %s", [runtime_role],
    )}  # fmt: skip
    assert kinds == {"SELECT", "INSERT", "UPDATE", "DELETE"}, kinds
    before = _admin(
        "SELECT table_name, privilege_type FROM information_schema.role_table_grants "
        "WHERE grantee = %s ORDER BY 1, 2",
        [runtime_role],
    )
    assert _has(runtime_role, "registry_person", "DELETE")
    # a model added to PROTECTED (as the list grows) loses DELETE at the next grant
    monkeypatch.setattr(
        protection, "PROTECTED", (*protection.PROTECTED, protection.Protected("registry.Person"))
    )
    db_roles.grant(connection, runtime_role)
    assert not _has(runtime_role, "registry_person", "DELETE")
    assert not _has(runtime_role, "registry_person", "UPDATE")
    monkeypatch.undo()
    db_roles.grant(connection, runtime_role)
    db_roles.grant(connection, runtime_role)  # idempotent: the same grants, twice
    after = _admin(
        "SELECT table_name, privilege_type FROM information_schema.role_table_grants "
        "WHERE grantee = %s ORDER BY 1, 2",
        [runtime_role],
    )
    assert after == before


@needs_postgres
def test_migrate_grants_the_runtime_role_named_in_the_settings(
    runtime_role: str, settings: Any
) -> None:
    _admin(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {ident(runtime_role)}")
    assert not _has(runtime_role, "registry_person", "SELECT")
    out = io.StringIO()
    settings.SEWER_USE_RUNTIME_ROLE = runtime_role
    try:
        call_command("migrate", verbosity=1, stdout=out)
    finally:  # now: the flush after the test migrates too, once the role is gone
        settings.SEWER_USE_RUNTIME_ROLE = ""
    assert f"Granted runtime role {runtime_role!r}" in out.getvalue()
    assert _has(runtime_role, "registry_person", "SELECT")
    assert not _has(runtime_role, "core_auditevent", "DELETE")


@needs_postgres
def test_grant_refuses_roles_that_cannot_be_the_runtime(runtime_role: str) -> None:
    me = _runtime_user()
    with pytest.raises(RuntimeRoleError, match="is the role connected"):
        db_roles.grant(connection, me)
    with pytest.raises(RuntimeRoleError, match="does not exist"):
        db_roles.grant(connection, f"no_such_role_{uuid.uuid4().hex[:8]}")
    # a role that is a member of the tables' owner would own them too
    _admin(f"GRANT {ident(me)} TO {ident(runtime_role)}")
    try:
        with pytest.raises(RuntimeRoleError, match="owns table"):
            db_roles.grant(connection, runtime_role)
    finally:
        _admin(f"REVOKE {ident(me)} FROM {ident(runtime_role)}")


@needs_postgres
def test_grant_command_grants_and_prints_its_statements(runtime_role: str) -> None:
    out = io.StringIO()
    call_command("grant_runtime_role", runtime_role, "--sql", stdout=out)
    text = out.getvalue()
    assert f'REVOKE ALL ON ALL TABLES IN SCHEMA "public" FROM "{runtime_role}";' in text
    assert 'GRANT SELECT, INSERT, UPDATE ON TABLE "public"."enforcement_notice"' in text
    assert "TRUNCATE" not in text and "REFERENCES" not in text
    out = io.StringIO()
    call_command("grant_runtime_role", runtime_role, stdout=out)
    assert f"Granted runtime role {runtime_role!r}" in out.getvalue()


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the SQLite answer")
def test_grant_command_has_nothing_to_do_on_sqlite(db: Any) -> None:
    out = io.StringIO()
    call_command("grant_runtime_role", "sewer_use", stdout=out)
    assert "Nothing to do" in out.getvalue()
    assert db_roles.grant(connection, "sewer_use") is None
    assert check_runtime_role(databases=["default"]) == []


# --- the deploy check and /readyz --------------------------------------------------------


@needs_postgres
def test_deploy_check_warns_when_the_office_owns_its_tables(runtime_role: str) -> None:
    # the test database's role (a superuser that created the tables) is what it warns about
    me = _runtime_user()
    found = {m.id: m for m in check_runtime_role(databases=["default"])}
    assert found[OWNS_TABLES].level == checks.WARNING
    assert repr(me) in found[OWNS_TABLES].msg and "core_auditevent" in found[OWNS_TABLES].msg
    assert SUPERUSER in found
    registered = checks.run_checks(include_deployment_checks=True, databases=["default"])
    assert OWNS_TABLES in {m.id for m in registered}
    # not a deploy check without --deploy
    assert OWNS_TABLES not in {m.id for m in checks.run_checks(databases=["default"])}
    with as_role(runtime_role):
        assert check_runtime_role(databases=["default"]) == []


@needs_postgres
def test_readyz_answers_200_with_a_warning_when_the_office_owns_its_tables(
    runtime_role: str, client: Any
) -> None:
    body = client.get("/readyz").json()
    assert body["status"] == "ok" and body["database"]["ok"]
    assert "core_auditevent" in body["database"]["warning"]
    with as_role(runtime_role):
        r = client.get("/readyz")
    assert r.status_code == 200 and "warning" not in r.json()["database"], r.json()


# --- deploy/postgresql-roles.sql ---------------------------------------------------------


@needs_postgres
@pytest.mark.skipif(shutil.which("psql") is None, reason="needs psql")
def test_deploy_script_creates_the_owner_and_a_runtime_role_that_owns_nothing(
    transactional_db: Any,
) -> None:
    suffix = uuid.uuid4().hex[:10]
    owner, runtime, database = f"sewer_own_{suffix}", f"sewer_rt_{suffix}", f"sewer_db_{suffix}"
    s = connection.settings_dict
    psql = ["psql", "-h", s["HOST"] or "127.0.0.1", "-p", str(s["PORT"] or 5432)]
    psql += ["-U", s["USER"] or "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q"]
    script = str(ROOT / "deploy" / "postgresql-roles.sql")
    names = ["-v", f"owner={owner}", "-v", f"runtime={runtime}", "-v", f"database={database}"]
    try:
        missing = subprocess.run([*psql, *names, "-f", script], capture_output=True, text=True)
        assert missing.returncode != 0 and "owner_password" in missing.stderr
        done = subprocess.run(
            [*psql, *names, "-v", "owner_password=o-pw", "-v", "runtime_password=r-pw",
             "-f", script],
            capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        rows = _admin(
            "SELECT rolname, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls, rolcanlogin "
            "FROM pg_roles WHERE rolname IN (%s, %s)",
            [owner, runtime],
        )
        roles = {row[0]: row[1:] for row in rows}
        assert roles[runtime] == (False, False, False, False, True)
        assert roles[owner] == (False, False, False, False, True)
        assert _admin("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s",
                      [database]) == [(owner,)]  # fmt: skip
    finally:
        cleanup = (
            f"DROP DATABASE IF EXISTS {ident(database)}",
            f"DROP ROLE IF EXISTS {ident(owner)}",
            f"DROP ROLE IF EXISTS {ident(runtime)}",
        )
        for sql in cleanup:
            subprocess.run([*psql, "-c", sql], capture_output=True, text=True)
