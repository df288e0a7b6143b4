"""Records of legal weight, unchangeable below the application: PostgreSQL triggers.

The models refuse to edit or delete these records (:class:`~sewer_office.core.models.
ImmutableRecord`); the triggers refuse it to anyone with a database connection too — a
``psql`` session, a script, a bug that bypasses ``save()``. On SQLite (a laptop) there are no
triggers; the hash chain of the audit events (``sewer-use verify-audit``) still shows changes.

:data:`PROTECTED` is the one list that drives it: one :class:`Protected` per model, naming
which of its rows are issued records (``when``, a condition on ``OLD``; empty = every row) and
what may still change on them, so that the legitimate transitions keep working:

- ``fill_once``: columns set once, from empty (NULL, ``''``, ``false``, ``[]`` or ``{}``) to a
  value — the service of a notice (its served date, method, deadline) is recorded after
  issue, once; ``fill_once_from`` names a class attribute of the model listing them, where
  the model keeps the same list for its own ``save()`` (a notice's ``SERVICE_FIELDS``, a
  correction's ``DECISION_FIELDS``): one list for both guards;
- ``transitions``: ``(column, from, to)`` moves allowed — an approved result becomes
  ``superseded`` when a correction replaces it;
- ``workflow``: the column a :class:`~sewer_office.core.workflow.Workflow` drives (the
  model's ``WORKFLOW``): its moves are read from the workflow's declaration
  (:meth:`~sewer_office.core.workflow.Workflow.moves`) when the triggers are installed, so
  that the database allows exactly what the pages, the API and ``perform`` allow;
- ``with_move``: ``(column, driver)`` — a column that may change only in the same UPDATE as an
  allowed move of ``driver`` (a grease trap's installation recorded again with the move that
  records it, after a refused one; a finding's review note with its review);
- ``settled``: a condition on ``OLD`` from which nothing changes any more, not even what
  ``fill_once`` would fill (a decided correction, a received report);
- ``bookkeeping``: columns that carry no legal content (``updated_at``, counts of rows kept
  elsewhere).

Every other change of such a row, and every DELETE of one, raises an error (SQLSTATE 23001,
``restrict_violation``: an :class:`django.db.IntegrityError` in Django). So does a TRUNCATE of
their tables, unless the transaction said it is the owner's maintenance (:func:`maintenance`:
the tests' ``flush``, which this project's ``flush`` command says); a role that does not own
the tables is refused even then, and is given no TRUNCATE privilege anyway. DROP is not
refused: ``sewer-use restore --force`` drops the tables, and a restore (``pg_restore``) only
INSERTs. The triggers are (re)installed after every ``migrate`` (the ``post_migrate`` signal,
:func:`sync`), and a restore runs ``migrate`` too. A data migration that really must rewrite
protected rows does so inside :func:`suspended`.

Every model of the office is placed (the inventory test holds it): in :data:`PROTECTED` —
*append-only* when nothing may change on its rows (:attr:`Protected.append_only`), *guarded*
otherwise — or in :data:`FREE`, with the reason it is not a record of legal weight. A new model
is placed before its tests pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.apps import apps as global_apps
from django.db import connections

FUNCTION = "sewer_use_protect"
TRUNCATE_FUNCTION = "sewer_use_no_truncate"
TRIGGER_PREFIX = "sewer_use_protect"
#: The transaction-local setting that says a TRUNCATE is the owner's maintenance.
MAINTENANCE_SETTING = "sewer_use.maintenance"
#: The row triggers of one table (``settled`` only where the table has a settled condition).
ROW_TRIGGERS = ("update", "delete", "settled")
TRUNCATE_TRIGGER = f"{TRIGGER_PREFIX}_truncate"
ALL_TRIGGERS = (*(f"{TRIGGER_PREFIX}_{op}" for op in ROW_TRIGGERS), TRUNCATE_TRIGGER)


@dataclass(frozen=True)
class Protected:
    """One model's issued records and what may still change on them (see the module)."""

    model: str  # "app_label.ModelName"
    when: str = ""
    fill_once: tuple[str, ...] = ()
    transitions: tuple[tuple[str, str, str], ...] = ()
    bookkeeping: tuple[str, ...] = ()
    workflow: str = ""
    with_move: tuple[tuple[str, str], ...] = ()
    settled: str = ""
    #: a class attribute of the model naming more ``fill_once`` columns, where the model keeps
    #: the same list for its own check (one list for ``save()`` and the trigger)
    fill_once_from: str = ""

    @property
    def append_only(self) -> bool:
        """Whether nothing of legal content may change on any of its rows once written."""
        return not (
            self.when
            or self.fill_once
            or self.fill_once_from
            or self.transitions
            or self.workflow
            or self.with_move
            or self.settled
        )

    def filled_once(self) -> tuple[str, ...]:
        """The ``fill_once`` columns and those the model names in ``fill_once_from`` (read
        now, from the model class: core imports no app)."""
        if not self.fill_once_from:
            return self.fill_once
        named = getattr(global_apps.get_model(self.model), self.fill_once_from)
        return self.fill_once + tuple(sorted(c for c in named if c not in self.fill_once))

    def moves(self) -> tuple[tuple[str, str, str], ...]:
        """The declared ``transitions`` and those of the model's workflow (read now: the
        models' ``WORKFLOW`` is bound when their apps are ready)."""
        if not self.workflow:
            return self.transitions
        model = global_apps.get_model(self.model)
        workflow = getattr(model, "WORKFLOW", None)
        if workflow is None:
            raise LookupError(f"{self.model} has no WORKFLOW to read its moves from")
        derived = tuple((self.workflow, a, b) for a, b in workflow.moves())
        return self.transitions + tuple(m for m in derived if m not in self.transitions)


def _application(
    model: str,
    *fill_once: str,
    with_move: tuple[tuple[str, str], ...] = (),
    transitions: tuple[tuple[str, str, str], ...] = (),
) -> Protected:
    """A permit or approval: its state moves as its kind's workflow declares; its number
    (assigned right after filing) and what its transitions record are filled once."""
    return Protected(
        model,
        fill_once=("number", *fill_once),
        transitions=transitions,
        workflow="state",
        with_move=with_move,
        bookkeeping=("updated_at",),
    )


def _tied(driver: str, *columns: str) -> tuple[tuple[str, str], ...]:
    return tuple((c, driver) for c in columns)


PROTECTED: tuple[Protected, ...] = (
    Protected("core.AuditEvent"),
    # what was filed with a record: its file and the SHA-256 that proves it
    Protected("core.Attachment", bookkeeping=("updated_at",)),
    # approved (and superseded) results; a reported one is still the laboratory's draft
    Protected(
        "monitoring.LabResult",
        when="OLD.state <> 'reported'",
        transitions=(("state", "approved", "superseded"),),
    ),
    # issued notices: their service is recorded once, after issue (§ 196-22 A)
    Protected(
        "enforcement.Notice",
        fill_once_from="SERVICE_FIELDS",  # the columns its save() also fills only once
        bookkeeping=("updated_at",),
    ),
    # a violation's state moves only as its workflow declares (§ 196-22); nothing else changes
    Protected("enforcement.Violation", workflow="state", bookkeeping=("updated_at",)),
    # a reported correction receives its verification (which ends the fine count, § 196-22 B)
    # or its rejection once; decided, nothing changes
    Protected(
        "enforcement.Correction",
        fill_once_from="DECISION_FIELDS",  # the columns its save() also fills only once
        settled="OLD.verified_on IS NOT NULL OR OLD.rejected_on IS NOT NULL",
    ),
    # a compliance schedule's requirement is fixed when imposed; amendments add milestones
    Protected("enforcement.ComplianceSchedule", bookkeeping=("updated_at",)),
    # a milestone's date never moves (a later date is a new milestone); completed once
    Protected(
        "enforcement.Milestone",
        workflow="state",
        fill_once=("completed_on", "completion_report", "recorded_by_id"),
        bookkeeping=("updated_at",),
    ),
    Protected("enforcement.Cost"),
    # the findings ledger: what the law as code concluded never changes; only its review
    # moves forward (with its note), and it stops being current when its result is replaced
    Protected(
        "findings.Finding",
        transitions=(
            ("review", "new", "acknowledged"),
            ("review", "new", "closed"),
            ("review", "acknowledged", "closed"),
            ("current", "true", "false"),
        ),
        with_move=_tied("review", "review_note", "reviewed_by_id", "reviewed_at"),
    ),
    # the engineer's or Superintendent's § 196-19 D opinion that turns a review into a violation
    Protected("findings.HarmOpinion"),
    # an inspection once completed or cancelled (§ 196-21): never edited, remarks are addenda
    Protected(
        "inspections.Inspection", when="OLD.state <> 'scheduled'", bookkeeping=("updated_at",)
    ),
    Protected("inspections.InspectionAnswer"),
    Protected("inspections.InspectionAddendum"),
    # § 196-21 A: a refusal of entry and the agencies' inspectors present, as recorded
    Protected("inspections.EntryRefusal"),
    Protected("inspections.AgencyInspector"),
    # a fixed baseline of a meter (§ 196-15 SLUG), from the approval or a recorded decision
    Protected("meters.MeterBaseline"),
    # what a meter recorded and what the rules found in it; a slug is flagged unreported once
    # and superseded once by a re-evaluation
    Protected("meters.ReadingUpload", bookkeeping=("slug_count", "excursion_count")),
    Protected("meters.Reading"),
    Protected("meters.SlugReevaluation"),
    Protected("meters.SlugEvent", fill_once=("flagged_unreported_at", "superseded_by_id")),
    Protected("meters.Excursion"),
    Protected("meters.SlugReport"),
    # monitoring: the approval's limits, the samples taken, the laboratory files imported
    Protected("monitoring.DischargeLimit", bookkeeping=("updated_at",)),
    Protected("monitoring.SamplingEvent", bookkeeping=("updated_at",)),
    Protected("monitoring.LabImport", bookkeeping=("result_count", "finding_count")),
    # grease traps: the cleaning interval is the pump-out clock; removed once; pump-outs are
    # voided once, never edited
    Protected(
        "grease.GreaseInterceptor",
        transitions=(("active", "true", "false"),),
        fill_once=("removed_on", "removal_reason"),
        bookkeeping=("updated_at",),
    ),
    Protected("grease.SizingCheck"),
    Protected(
        "grease.PumpOut",
        fill_once=("voided", "voided_at", "voided_by_id", "void_reason"),
        settled="OLD.voided",
    ),
    # signed reports' copies of record, their signatures and the office's reviews (CROMERR)
    Protected("reports.Report"),
    Protected("reports.Signature"),
    Protected("reports.Review"),
    # who may sign a facility's reports (40 CFR 403.12(l)): recorded, then ended once
    Protected("reports.Signatory", fill_once=("ended_on",), bookkeeping=("updated_at",)),
    Protected("enforcement.Referral"),
    # the court's judgment on a referral and the money collected on its fine (§ 196-22 B)
    Protected("enforcement.Judgment"),
    Protected("enforcement.Collection"),
    # pretreatment: designations are superseded, never edited; a requirement is ended once;
    # a due date receives its received date once (the 45-day SNC clock, 403.8(f)(2)(viii)(F))
    Protected("pretreatment.Designation"),
    Protected("pretreatment.ReportRequirement", fill_once=("ends_on",)),
    Protected(
        "pretreatment.ReportDue",
        fill_once=("received_on", "received_by_id", "received_note"),
        settled="OLD.received_on IS NOT NULL",
    ),
    # a determination links the violation it opened once, right after it is recorded
    Protected("pretreatment.SNCDetermination", fill_once=("violation_id",)),
    # permits and approvals: the state as the kind's workflow declares, the facts recorded once
    _application(
        "permits.BuildingSewerPermit",
        "fee_paid_on",
        "fee_receipt",
        "fee_waived_on",
        "fee_waiver_authority",
        "old_sewer_result",
        "old_sewer_examined_on",
        "plan_checks",
        "plan_checks_version",
        "plans_approved_on",
        "road_opening_number",
        "road_opening_issued_on",
        "inspected_on",
        "connected_on",
        "supervised_by",
        # the fee in force on the application date, stored again with the step that files it;
        # ready again after corrections (§ 196-18 J)
        with_move=_tied(
            "state", "fee_amount", "fee_parameter", "fee_effective", "fee_authority", "ready_on"
        )
        # an old sewer found failing may be examined again once repaired, and found to meet
        # the article (§ 196-18 E)
        + _tied("old_sewer_result", "old_sewer_examined_on"),
        transitions=(("old_sewer_result", "fails", "meets"),),
    ),
    _application(
        "permits.IndustrialDischargeApproval",
        "decided_on",
        "decided_by_id",
        "term_years",
        "expires_on",
        with_move=_tied("state", "evaluation"),  # evaluated again when review begins
    ),
    Protected("permits.ApprovalCondition"),
    _application("permits.GrinderApproval", "decided_on"),
    _application(
        "permits.InterceptorRequirement",
        "health_approval_ref",
        "approved_on",
        # a refused installation is recorded again with the move that records it
        with_move=_tied("state", "unit_type", "capacity", "location", "accessible", "installed_on"),
    ),
    _application("permits.FlushingNotice", "acknowledged_on", "flushed_on"),
    _application(
        "permits.PrivateDisposalSystem",
        "health_approval_ref",
        "health_approved_on",
        "completion_ref",
        "completed_on",
        "forms_filed_on",
        "co_number",
        "co_issued_on",
        "connection_required_on",
        "abandoned_on",
        "filled_with",
    ),
    _application(
        "permits.SubdivisionSewer",
        "fee_paid_on",
        "fee_receipt",
        "health_approval_ref",
        "health_approved_on",
        "plans_approved_on",
        "filed_with_planning_board_on",
        with_move=_tied("state", "fee_amount", "fee_rate", "fee_effective", "fee_authority"),
    ),
    # who may act for a person: a request decided once (confirmed, refused), a link ended once
    Protected(
        "portal.LinkRequest",
        transitions=(
            ("state", "pending", "confirmed"),
            ("state", "pending", "refused"),
            ("state", "confirmed", "ended"),
        ),
        fill_once=("person_id", "decided_by_id", "decided_at", "reason"),
        settled="OLD.state IN ('refused', 'ended')",
        bookkeeping=("updated_at",),
    ),
    Protected("portal.IdentityCheck"),
    # the messages the office sent: a retry is a new row, never an edit
    Protected("mail.SentMessage"),
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
    # a billing run is issued or discarded once; its lines are what it computed
    Protected(
        "billing.BillingRun",
        transitions=(("state", "draft", "issued"), ("state", "draft", "discarded")),
        fill_once=("issued_by_id", "issued_at", "discard_reason"),
        bookkeeping=("updated_at",),
    ),
    Protected("billing.RunLine"),
    # what a billing run bills: the § 196-19 E(1)(d) decisions and § 196-19 J agreements
    Protected("billing.SurchargeDecision"),
    Protected("billing.SurchargeAgreement"),
    Protected("billing.SurchargeEnding"),
    # the letters: issued documents of record and the template/letterhead versions they used
    Protected("core.IssuedDocument"),
    Protected("core.LetterTemplate"),
    Protected("core.Letterhead"),
)

#: The office's models that are not records of legal weight, each with the reason. Their
#: changes go through the services (audited where they matter); the records of legal weight
#: copy what they rest on when they are written (a notice names its person, a charge keeps its
#: amounts), so a later edit here never rewrites them.
FREE: dict[str, str] = {
    "accounts.SignInFailure": "a counter of failed sign-ins for the throttle, pruned by age",
    "accounts.SignInPace": "the throttle's pace for a name under attack, pruned by age",
    "accounts.RegistrationAttempt": "the throttle's count of registrations per address, "
    "pruned by age",
    "mail.Preference": "a person's choice of reminders, theirs to change",
    "registry.Person": "the register of persons: kept current (addresses, names), audited",
    "registry.Contact": "a person's contact details, kept current",
    "registry.ServiceArea": "the register of service areas; the declaration of public sewer "
    "available is audited and its consequences (the duty to connect) are recorded on the "
    "private systems, guarded",
    "registry.Property": "the register of properties, kept current; its wastewater service "
    "changes by audited service calls",
    "registry.Building": "the register of buildings, kept current",
    "registry.Establishment": "the register of facilities, kept current",
    "network.NetworkVersion": "versions of the sewer map, replaced by the next import",
    "network.Manhole": "the sewer map, replaced by the next import",
    "network.SewerPipe": "the sewer map, replaced by the next import",
    "network.BuildingConnection": "the sewer map, replaced by the next import",
    "network.SamplingPointOverride": "a correction of the map's sampling point, kept current",
    "portal.Registration": "a sign-up awaiting its e-mail check; who may act for a person is "
    "the link request, guarded",
    "monitoring.SamplingPoint": "the register of sampling points, kept current",
    "meters.Meter": "the register of meters, kept current; its baselines are guarded",
    "meters.MeterDay": "daily totals computed from the readings (guarded), rebuilt at will",
    "billing.NumberSequence": "the counter that numbers invoices; the numbers are on the "
    "invoices, guarded",
    "reports.SigningCode": "a one-time code, hashed, valid minutes; the signature is guarded",
    "reports.BaselineStatement": "the facility's draft for its baseline report, until the "
    "signed report (guarded) keeps its own copy",
}


def spec_of(model: str) -> Protected | None:
    """The :class:`Protected` of ``model`` ("app_label.ModelName"), if it is guarded."""
    return next((p for p in PROTECTED if p.model == model), None)


def placement(model: str) -> str:
    """Where ``model`` stands: "append-only", "guarded", "free" or "" (not placed)."""
    spec = spec_of(model)
    if spec is not None:
        return "append-only" if spec.append_only else "guarded"
    return "free" if model in FREE else ""


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
    table = connection.ops.quote_name(str(global_apps.get_model(model)._meta.db_table))
    spec = spec_of(model)
    ops = ROW_TRIGGERS if spec is not None and spec.settled else ("update", "delete")
    names = [connection.ops.quote_name(f"{TRIGGER_PREFIX}_{op}") for op in ops]
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
