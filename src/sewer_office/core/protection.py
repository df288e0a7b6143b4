"""Records of legal weight, unchangeable below the application: PostgreSQL triggers.

The models refuse to edit or delete these records (:class:`~sewer_office.core.models.
ImmutableRecord`); the triggers refuse it to anyone with a database connection too — a
``psql`` session, a script, a bug that bypasses ``save()``. On SQLite (a laptop) there are no
triggers; the hash chain of the audit events (``sewer-use verify-audit``) still shows changes.

:data:`PROTECTED` is the one list that drives it: one :class:`Protected` per model, naming
which of its rows are issued records (``when``, a condition on ``OLD``; empty = every row) and
what may still change on them, so that the legitimate transitions keep working:

- ``fill_once``: columns set once, from empty (NULL, ``''`` or ``false``) to a value — the
  service of a notice (its served date, method, deadline) is recorded after issue, once;
- ``transitions``: ``(column, from, to)`` moves allowed — an approved result becomes
  ``superseded`` when a correction replaces it;
- ``bookkeeping``: columns that carry no legal content (``updated_at``).

Every other change of such a row, and every DELETE of one, raises an error (SQLSTATE 23001,
``restrict_violation``: an :class:`django.db.IntegrityError` in Django). A new app adds its
records with a line here; the triggers are (re)installed after every ``migrate`` (the
``post_migrate`` signal, :func:`sync`), and a restore runs ``migrate`` too. TRUNCATE and DROP
are not row changes: the tests' flushes and ``sewer-use restore --force`` keep working, and a
restore (``pg_restore``) only INSERTs. A data migration that really must rewrite protected
rows does so inside :func:`suspended`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.apps import apps as global_apps
from django.db import connections

FUNCTION = "sewer_use_protect"
TRIGGER_PREFIX = "sewer_use_protect"


@dataclass(frozen=True)
class Protected:
    """One model's issued records and what may still change on them (see the module)."""

    model: str  # "app_label.ModelName"
    when: str = ""
    fill_once: tuple[str, ...] = ()
    transitions: tuple[tuple[str, str, str], ...] = ()
    bookkeeping: tuple[str, ...] = ()


PROTECTED: tuple[Protected, ...] = (
    Protected("core.AuditEvent"),
    # approved (and superseded) results; a reported one is still the laboratory's draft
    Protected(
        "monitoring.LabResult",
        when="OLD.state <> 'reported'",
        transitions=(("state", "approved", "superseded"),),
    ),
    # issued notices: their service is recorded once, after issue (§ 196-22 A)
    Protected(
        "enforcement.Notice",
        fill_once=(
            "served_on",
            "mailed_on",
            "delivered_on",
            "delivery_proof",
            "served_by_id",
            "service_method",
            "receipt_number",
            "email_address",
            "email_consent",
            "nominal_deadline",
            "deadline",
            "deadline_basis",
        ),
        bookkeeping=("updated_at",),
    ),
    Protected("enforcement.Cost"),
    # the engineer's or Superintendent's § 196-19 D opinion that turns a review into a violation
    Protected("findings.HarmOpinion"),
    # § 196-21 A: a refusal of entry and the agencies' inspectors present, as recorded
    Protected("inspections.EntryRefusal"),
    Protected("inspections.AgencyInspector"),
    # a fixed baseline of a meter (§ 196-15 SLUG), from the approval or a recorded decision
    Protected("meters.MeterBaseline"),
    # signed reports' copies of record, their signatures and the office's reviews (CROMERR)
    Protected("reports.Report"),
    Protected("reports.Signature"),
    Protected("reports.Review"),
    Protected("enforcement.Referral"),
    # the court's judgment on a referral and the money collected on its fine (§ 196-22 B)
    Protected("enforcement.Judgment"),
    Protected("enforcement.Collection"),
    # a determination links the violation it opened once, right after it is recorded
    Protected("pretreatment.SNCDetermination", fill_once=("violation_id",)),
    # the Town's books: an issued invoice or credit note changes only by its void, once
    Protected(
        "billing.Invoice",
        fill_once=("voided_by_id", "voided_at", "void_reason"),
        transitions=(("state", "issued", "void"),),
    ),
    Protected("billing.InvoiceLine"),
    Protected("billing.Charge"),
    Protected("billing.Payment"),
    Protected("billing.PaymentApplication"),
    Protected("billing.Refund"),
    # what a billing run bills: the § 196-19 E(1)(d) decisions and § 196-19 J agreements
    Protected("billing.SurchargeDecision"),
    Protected("billing.SurchargeAgreement"),
    Protected("billing.SurchargeEnding"),
    # the letters: issued documents of record and the template/letterhead versions they used
    Protected("core.IssuedDocument"),
    Protected("core.LetterTemplate"),
    Protected("core.Letterhead"),
)

_FUNCTION_SQL = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
    fill_once text[] := string_to_array(TG_ARGV[0], ',');
    bookkeeping text[] := string_to_array(TG_ARGV[1], ',');
    moves text[] := string_to_array(TG_ARGV[2], ',');
    old_row jsonb := to_jsonb(OLD);
    new_row jsonb;
    k text;
    old_value jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'sewer-use: % #% is a record of legal weight: it is never deleted',
            TG_TABLE_NAME, old_row->>'id' USING ERRCODE = 'restrict_violation';
    END IF;
    new_row := to_jsonb(NEW);
    FOR k, old_value IN SELECT key, value FROM jsonb_each(old_row) LOOP
        CONTINUE WHEN (new_row -> k) IS NOT DISTINCT FROM old_value;
        CONTINUE WHEN k = ANY(bookkeeping);
        CONTINUE WHEN k = ANY(fill_once)
            AND old_value IN ('null'::jsonb, '""'::jsonb, 'false'::jsonb);
        CONTINUE WHEN (k || ':' || coalesce(old_row->>k, '') || '>'
            || coalesce(new_row->>k, '')) = ANY(moves);
        RAISE EXCEPTION 'sewer-use: % #% is a record of legal weight: % cannot change',
            TG_TABLE_NAME, old_row->>'id', k USING ERRCODE = 'restrict_violation';
    END LOOP;
    RETURN NEW;
END
$body$;
"""


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _table(spec: Protected) -> str:
    return str(global_apps.get_model(spec.model)._meta.db_table)


def trigger_sql(spec: Protected, quote: Any) -> list[str]:
    """The statements that (re)create ``spec``'s two triggers (``quote``: the backend's)."""
    table = quote(_table(spec))
    args = ", ".join(
        _literal(",".join(items))
        for items in (
            spec.fill_once,
            spec.bookkeeping,
            tuple(f"{c}:{a}>{b}" for c, a, b in spec.transitions),
        )
    )
    when = f" WHEN ({spec.when})" if spec.when else ""
    out = []
    for op in ("update", "delete"):
        name = quote(f"{TRIGGER_PREFIX}_{op}")
        out.append(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        out.append(
            f"CREATE TRIGGER {name} BEFORE {op.upper()} ON {table} FOR EACH ROW{when} "
            f"EXECUTE FUNCTION {FUNCTION}({args})"
        )
    return out


def sync(connection: Any) -> int:
    """Install the function and the triggers of :data:`PROTECTED` (PostgreSQL; else nothing).

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
        cursor.execute(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname LIKE %s AND pg_table_is_visible(c.oid)",
            [f"{TRIGGER_PREFIX}%"],
        )
        stale = {row[0] for row in cursor.fetchall()} - {_table(spec) for spec in wanted}
        for table in sorted(stale):
            for op in ("update", "delete"):
                cursor.execute(
                    f"DROP TRIGGER IF EXISTS {quote(f'{TRIGGER_PREFIX}_{op}')} ON {quote(table)}"
                )
        for spec in wanted:
            for statement in trigger_sql(spec, quote):
                cursor.execute(statement)
    return len(wanted)


def remove(connection: Any) -> None:
    """Drop every trigger of this module and the function (reverse of the migration)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}() CASCADE")


@contextmanager
def suspended(connection: Any, model: str) -> Iterator[None]:
    """The triggers of ``model`` disabled inside the block (a data migration that must).

    ``ALTER TABLE ... DISABLE TRIGGER`` takes the table's exclusive lock to the end of the
    transaction: nobody else writes the table meanwhile.
    """
    if connection.vendor != "postgresql":
        yield
        return
    table = connection.ops.quote_name(str(global_apps.get_model(model)._meta.db_table))
    names = [connection.ops.quote_name(f"{TRIGGER_PREFIX}_{op}") for op in ("update", "delete")]
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
