"""Every model of the office is placed, and the records of legal weight are guarded below it.

The inventory: each model of every ``sewer_office`` app is in :data:`~sewer_office.core.
protection.PROTECTED` (append-only, or guarded with what may still change) or in
:data:`~sewer_office.core.protection.FREE` with its reason, so that a new model is placed
before its tests pass. The lists name real models and columns, the records written once are
append-only, and the states the database lets move are those the workflows declare.

On PostgreSQL: a plain SQL UPDATE of the records the audit named (a violation's state, a
correction's verification, a report's received day, a sent message's body, a permit's state,
a completed inspection, who may sign a facility's reports) is refused, what the services fill
still goes through, TRUNCATE is refused unless the owner's maintenance says so, and ``flush``
still empties the database. Separation of duties: who reported a correction never verifies it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone

from sewer_office.core import audit, protection
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.models import AuditEvent, WrittenOnce
from sewer_office.core.services import perform
from sewer_office.enforcement import schedules
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.models import Correction, Violation
from sewer_office.findings.choices import ReviewState
from sewer_office.findings.services import FORWARD, review_finding
from sewer_office.inspections import services as inspections
from sewer_office.inspections.checklists import items
from sewer_office.inspections.choices import InspectionKind
from sewer_office.mail.choices import Topic
from sewer_office.mail.services import send_message
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import ReportDue
from sewer_office.reports import services as reports

from .enforcement_factories import at, finding, overdue, reported
from .factories import Town, new_record

POSTGRESQL = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the triggers exist on PostgreSQL only"
)


# --- the inventory ----------------------------------------------------------------------------


def _office_models() -> list[Any]:
    return [m for m in apps.get_models() if m.__module__.startswith("sewer_office.")]


def _unplaced(labels: Iterable[str]) -> list[str]:
    return sorted(label for label in labels if not protection.placement(label))


def test_every_model_of_the_office_is_placed() -> None:
    missing = _unplaced(m._meta.label for m in _office_models())
    assert not missing, (
        f"not placed: {', '.join(missing)} — add each to core.protection.PROTECTED (a record "
        "of legal weight, with what may still change) or to FREE (with the reason it is not)"
    )


def test_an_unplaced_model_is_named() -> None:
    assert _unplaced(["registry.Person", "enforcement.Violation", "newapp.Thing"]) == [
        "newapp.Thing"
    ]
    assert protection.placement("enforcement.Cost") == "append-only"
    assert protection.placement("enforcement.Violation") == "guarded"
    assert protection.placement("registry.Person") == "free"


def test_the_lists_name_real_models_and_columns_once() -> None:
    guarded = [p.model for p in protection.PROTECTED]
    assert len(guarded) == len(set(guarded)), "a model is listed twice in PROTECTED"
    assert not set(guarded) & set(protection.FREE), "a model is both guarded and free"
    for label, reason in protection.FREE.items():
        apps.get_model(label)  # a stale name raises
        assert reason.strip(), f"{label}: say why it is free"
    for spec in protection.PROTECTED:
        columns = {f.column for f in apps.get_model(spec.model)._meta.concrete_fields}
        named = {
            *spec.filled_once(),
            *spec.bookkeeping,
            *(c for c, _a, _b in spec.moves()),
            *(c for pair in spec.with_move for c in pair),
        }
        assert named <= columns, f"{spec.model}: no column {sorted(named - columns)}"


def test_the_doc_names_every_placed_model() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "record-guards.md").read_text()
    for label in [p.model for p in protection.PROTECTED] + list(protection.FREE):
        assert f"| `{label}` |" in doc, f"docs/record-guards.md does not list {label}"


def test_records_written_once_are_append_only() -> None:
    for model in _office_models():
        if issubclass(model, WrittenOnce):
            assert protection.placement(model._meta.label) == "append-only", model._meta.label


def test_the_states_move_below_as_the_workflows_declare() -> None:
    driven = [p for p in protection.PROTECTED if p.workflow]
    assert {p.model for p in driven} >= {
        "enforcement.Violation",
        "enforcement.Milestone",
        "permits.BuildingSewerPermit",
        "permits.IndustrialDischargeApproval",
    }
    for spec in driven:
        workflow = apps.get_model(spec.model).WORKFLOW
        moves = {(a, b) for c, a, b in spec.moves() if c == spec.workflow}
        assert moves == set(workflow.moves()), spec.model
    violation = protection.spec_of("enforcement.Violation")
    assert violation is not None
    states = {(a, b) for _c, a, b in violation.moves()}
    # declared by the outcomes of the transitions whose effect decides
    assert {("notice_issued", "mailed"), ("correction_reported", "served")} <= states
    assert ("corrected", "open") not in states and ("dismissed", "open") not in states


def test_a_finding_review_moves_below_as_the_service_moves_it() -> None:
    spec = protection.spec_of("findings.Finding")
    assert spec is not None
    assert {(a, b) for c, a, b in spec.transitions if c == "review"} == {
        (str(a), str(b)) for a, b in FORWARD
    }


# --- PostgreSQL: a plain SQL UPDATE of the records the audit named is refused -----------------


def _refused(sql: str, *params: Any) -> str:
    with pytest.raises(IntegrityError) as caught, transaction.atomic(), connection.cursor() as c:
        c.execute(sql, list(params))
    message = str(caught.value)
    assert "record of legal weight" in message or "never truncated" in message, message
    return message


def _update(sql: str, *params: Any) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, list(params))


def _verified(town: Town) -> Violation:
    v = reported(town)  # reported by the owner
    return perform(
        v,
        "verify",
        town.u("superintendent"),
        {"verified_on": "2026-01-21"},
        at=at("2026-01-21", 11),
    )


def _completed_inspection(town: Town) -> Any:
    i = inspections.schedule(
        town.u("inspector"),
        kind=InspectionKind.FOOD_SERVICE,
        establishment=town.owner_restaurant,
        scheduled_for=timezone.now() + timedelta(days=2),
    )
    start = timezone.now() - timedelta(hours=2)
    answers = {item.key: {"result": "pass", "note": ""} for item in items(i.kind)}
    return inspections.complete(
        i,
        town.u("inspector"),
        credentials_presented=True,
        credential="Badge 7",
        started_at=start,
        ended_at=start + timedelta(hours=1),
        answers=answers,
        observations="Trap clean.",
    )


@POSTGRESQL
def test_a_violation_moves_only_as_its_workflow_declares(town: Town) -> None:
    v = enforcement.open_from_finding(town.u("superintendent"), finding(town), at=at("2026-01-02"))
    assert "state cannot change" in _refused(
        "UPDATE enforcement_violation SET state = 'corrected' WHERE id = %s", v.pk
    )
    assert "description cannot change" in _refused(
        "UPDATE enforcement_violation SET description = 'x' WHERE id = %s", v.pk
    )
    _refused("DELETE FROM enforcement_violation WHERE id = %s", v.pk)
    _update("UPDATE enforcement_violation SET state = 'dismissed' WHERE id = %s", v.pk)  # declared
    assert "state cannot change" in _refused(
        "UPDATE enforcement_violation SET state = 'open' WHERE id = %s", v.pk
    )


@POSTGRESQL
def test_a_verified_correction_keeps_its_days(town: Town) -> None:
    v = _verified(town)
    c = Correction.objects.get(violation=v)
    assert c.verified_on == date(2026, 1, 21)
    for column in ("verified_on", "ceased_on"):
        message = _refused(
            f"UPDATE enforcement_correction SET {column} = {column} + 1 WHERE id = %s", c.pk
        )
        assert f"{column} cannot change" in message
    # decided: not even an empty field is filled any more
    assert "rejected_on cannot change" in _refused(
        "UPDATE enforcement_correction SET rejected_on = '2026-02-01' WHERE id = %s", c.pk
    )


@POSTGRESQL
def test_a_report_keeps_the_day_it_was_received(town: Town) -> None:
    su = town.u("superintendent")
    req = report_dues.add_requirement(
        su, town.owner_restaurant, kind="periodic", first_due=date(2026, 1, 31)
    )
    due = ReportDue.objects.filter(requirement=req).order_by("due_on").first()
    assert due is not None
    _update("UPDATE pretreatment_reportdue SET due_on = due_on WHERE id = %s", due.pk)  # no change
    assert "due_on cannot change" in _refused(
        "UPDATE pretreatment_reportdue SET due_on = due_on + 30 WHERE id = %s", due.pk
    )
    report_dues.record_received(town.u("clerk"), due, date(2026, 2, 3))  # filled once: allowed
    assert "received_on cannot change" in _refused(
        "UPDATE pretreatment_reportdue SET received_on = '2026-01-30' WHERE id = %s", due.pk
    )
    assert "received_note cannot change" in _refused(
        "UPDATE pretreatment_reportdue SET received_note = 'late' WHERE id = %s", due.pk
    )


@POSTGRESQL
def test_a_sent_message_is_never_rewritten(town: Town) -> None:
    message = send_message(
        to="olive@example.org",
        subject="Notice served",
        body="The notice was served today.",
        topic=Topic.NOTICE_SERVED,
    )
    for column, value in (("body", "x"), ("status", "failed"), ("sent_at", "2020-01-01")):
        assert f"{column} cannot change" in _refused(
            f"UPDATE mail_sentmessage SET {column} = %s WHERE id = %s", value, message.pk
        )


@POSTGRESQL
def test_a_permit_moves_only_as_its_workflow_declares(town: Town) -> None:
    permit = new_record("building-sewer", town)
    assert permit.state == "submitted" and permit.number  # numbered once, after filing
    assert "state cannot change" in _refused(
        "UPDATE permits_buildingsewerpermit SET state = 'completed' WHERE id = %s", permit.pk
    )
    assert "number cannot change" in _refused(
        "UPDATE permits_buildingsewerpermit SET number = 'BSP-X' WHERE id = %s", permit.pk
    )
    assert "fee_amount cannot change" in _refused(  # only with the step that files it
        "UPDATE permits_buildingsewerpermit SET fee_amount = 1 WHERE id = %s", permit.pk
    )


@POSTGRESQL
def test_a_completed_inspection_is_never_edited(town: Town) -> None:
    i = _completed_inspection(town)
    assert i.state == "completed"
    for column, value in (("observations", "x"), ("state", "scheduled"), ("credential", "-")):
        assert f"{column} cannot change" in _refused(
            f"UPDATE inspections_inspection SET {column} = %s WHERE id = %s", value, i.pk
        )
    answer = i.answers.first()
    assert "result cannot change" in _refused(
        "UPDATE inspections_inspectionanswer SET result = 'fail' WHERE id = %s", answer.pk
    )
    _refused("DELETE FROM inspections_inspectionanswer WHERE id = %s", answer.pk)


@POSTGRESQL
def test_who_may_sign_a_facility_reports_is_ended_never_rewritten(town: Town) -> None:
    signatory = reports.record_signatory(
        town.u("clerk"),
        town.owner_restaurant,
        user=town.u("owner"),
        kind="authorized",
        title="Manager",
        authorization="Letter of the owner",
        valid_from=date(2026, 1, 1),
    )
    assert "user_id cannot change" in _refused(
        "UPDATE reports_signatory SET user_id = %s WHERE id = %s", town.u("other").pk, signatory.pk
    )
    assert "valid_from cannot change" in _refused(
        "UPDATE reports_signatory SET valid_from = '2020-01-01' WHERE id = %s", signatory.pk
    )
    reports.end_signatory(town.u("clerk"), signatory, date(2026, 3, 1), "left the company")
    assert "ended_on cannot change" in _refused(
        "UPDATE reports_signatory SET ended_on = '2027-01-01' WHERE id = %s", signatory.pk
    )


# --- TRUNCATE -------------------------------------------------------------------------------


def _probe(town: Town) -> None:
    """An audit event in the table, its foreign keys checked now (PostgreSQL refuses to
    truncate a table with checks still deferred, before any trigger could answer)."""
    audit.record(actor=town.u("clerk"), action="probe", obj=town.u("clerk"))
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@POSTGRESQL
def test_truncate_of_the_audit_trail_is_refused(town: Town) -> None:
    _probe(town)
    message = _refused("TRUNCATE core_auditevent")
    assert "core_auditevent holds records of legal weight: it is never truncated" in message
    _refused("TRUNCATE enforcement_violation CASCADE")
    assert AuditEvent.objects.filter(action="probe").exists()


@POSTGRESQL
def test_a_role_that_does_not_own_the_tables_is_not_heard_saying_maintenance(
    town: Town,
) -> None:
    _probe(town)
    role = f"sewer_guards_probe_{uuid.uuid4().hex[:8]}"
    with transaction.atomic():  # the role exists inside this test's transaction only
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')
            # even given the privilege, which the office's runtime role never is
            cursor.execute(f'GRANT TRUNCATE ON core_auditevent TO "{role}"')
            cursor.execute(f'SET LOCAL ROLE "{role}"')
        protection.maintenance(connection)
        _refused("TRUNCATE core_auditevent")
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")
            cursor.execute(f'REVOKE ALL ON core_auditevent FROM "{role}"')
            cursor.execute(f'DROP ROLE "{role}"')
    assert AuditEvent.objects.filter(action="probe").exists()


@POSTGRESQL
def test_the_owners_maintenance_may_truncate(town: Town) -> None:
    _probe(town)
    with transaction.atomic():
        protection.maintenance(connection)
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE core_auditevent")
        assert not AuditEvent.objects.exists()
        transaction.set_rollback(True)  # this test's records stay for its own rollback
    assert AuditEvent.objects.filter(action="probe").exists()
    # said for that transaction only: refused again after it
    refused = pytest.raises((IntegrityError, ProgrammingError))
    with refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE core_auditevent")


@pytest.mark.django_db(transaction=True)
def test_flush_still_empties_the_database() -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create(username="flushed")
    audit.record(actor=user, action="probe", obj=user)
    call_command("flush", interactive=False, verbosity=0)
    assert not AuditEvent.objects.exists()
    if connection.vendor == "postgresql":  # guarded again once flushed
        _refused("TRUNCATE core_auditevent")


# --- the services keep within the guard -----------------------------------------------------


def test_who_reported_a_correction_does_not_verify_it(town: Town) -> None:
    su = town.u("superintendent")
    v = overdue(town)
    v = perform(
        v,
        "report_correction",
        su,
        {"reported_on": "2026-01-19", "description": "Unit repaired, seen on site"},
        at=at("2026-01-19", 16),
    )
    with pytest.raises(Blocked) as refused:
        perform(v, "verify", su, {"verified_on": "2026-01-20"}, at=at("2026-01-20", 11))
    assert "someone other than who reported it" in refused.value.message
    assert "separation of duties" in refused.value.message
    v.refresh_from_db()
    assert v.state == "correction_reported"
    assert Correction.objects.get(violation=v).verified_on is None
    v = perform(
        v, "verify", town.u("engineer"), {"verified_on": "2026-01-20"}, at=at("2026-01-20", 11)
    )
    assert v.state == "corrected"


def test_a_finding_review_moves_forward_once(town: Town) -> None:
    f = finding(town)
    engineer = town.u("engineer")
    review_finding(f, engineer, ReviewState.CLOSED, "measured again: within the limit")
    with pytest.raises(Blocked):
        review_finding(f, engineer, ReviewState.CLOSED, "another reason")
    with pytest.raises(Blocked):
        review_finding(f, engineer, ReviewState.ACKNOWLEDGED)
    f.refresh_from_db()
    assert f.review == ReviewState.CLOSED and f.review_note == "measured again: within the limit"


def test_a_schedule_keeps_the_requirement_it_was_imposed_for(town: Town) -> None:
    engineer = town.u("engineer")
    approval = perform(new_record("industrial", town), "begin_review", engineer)
    approval = perform(approval, "approve", engineer)
    s = schedules.create_schedule(
        engineer,
        establishment=approval.establishment,
        imposed_by="approval_condition",
        approval=approval,
        requirement="Install a copper pretreatment unit",
        citation="§ 196-19 E(1)(b)",
        milestones=[(date(2026, 3, 1), "Unit installed")],
        at=at("2026-01-02"),
    )
    with pytest.raises(InvalidInput) as refused:
        schedules.amend_schedule(
            engineer,
            s,
            reason="reworded",
            requirement="Install a grease removal unit",
            citation="§ 196-19 E(1)(b)",
        )
    assert "fixed when the schedule is imposed" in refused.value.errors["requirement"][0]
    schedules.amend_schedule(
        engineer,
        s,
        reason="unit back-ordered",
        requirement="Install a copper pretreatment unit",
        citation="§ 196-19 E(1)(b)",
        milestones=[(date(2026, 5, 1), "Unit installed (extended)")],
    )
    s.refresh_from_db()
    assert s.requirement == "Install a copper pretreatment unit" and s.milestones.count() == 2


def test_an_old_sewer_examination_is_recorded_once_unless_it_failed(town: Town) -> None:
    su = town.u("superintendent")
    permit = new_record("building-sewer", town, reuse=True)
    failing = {"result": "fails", "examined_on": "2026-01-05"}
    permit = perform(permit, "examine_old_sewer", su, failing)
    with pytest.raises(Blocked) as refused:
        perform(permit, "examine_old_sewer", su, {**failing, "examined_on": "2026-01-06"})
    assert "found not to meet the article" in refused.value.message
    permit = perform(
        permit, "examine_old_sewer", su, {"result": "meets", "examined_on": "2026-01-09"}
    )
    assert (permit.old_sewer_result, str(permit.old_sewer_examined_on)) == ("meets", "2026-01-09")
    with pytest.raises(Blocked):
        perform(permit, "examine_old_sewer", su, {"result": "fails", "examined_on": "2026-01-10"})
