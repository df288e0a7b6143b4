"""Workflow behaviour: every transition made at least once by the right role, with its audit
event; and the preconditions of the law that block a transition."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.utils import timezone

from sewer_office.billing.models import Invoice, Payment
from sewer_office.billing.permit_fees import issue_permit_fee_invoice
from sewer_office.core import protection
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.permits.kinds import KINDS
from sewer_office.permits.models import ApprovalCondition, PrivateDisposalSystem
from sewer_office.permits.services.minor import file_flushing_notice, require_interceptor
from sewer_office.permits.services.private_system import file_private_system
from sewer_office.registry.services import declare_public_sewer_available

from .billing_money_factories import pay_fee
from .factories import BAD_DESIGN, Town, new_record
from .jurisdiction_support import all_of_town
from .paths import bsp_to, run_all


def test_every_declared_transition_is_exercised_with_an_audit_event(town: Town) -> None:
    run_all(town)
    for kind in KINDS.values():
        ct = ContentType.objects.get_for_model(kind.model)
        done = set(AuditEvent.objects.filter(content_type=ct).values_list("action", flat=True))
        declared = {t.name for t in kind.model.WORKFLOW.transitions}
        assert declared <= done, f"{kind.slug}: never made: {sorted(declared - done)}"


def test_transition_writes_audit_event_with_actor_citation_and_values(town: Town) -> None:
    p = new_record("building-sewer", town)
    p = pay_fee(town, p)
    receipt = Payment.objects.get().receipt_number
    e = AuditEvent.objects.filter(action="record_fee_payment").get()
    assert e.actor == town.u("clerk") and e.actor_name == "clerk"
    assert (e.state_from, e.state_to) == ("submitted", "plan_review")
    assert e.citation == "§ 196-18 B" and receipt in e.reason
    assert e.before["fee_receipt"] == "" and e.after["fee_receipt"] == receipt
    assert e.after["fee_paid_on"] == timezone.localdate().isoformat()
    with pytest.raises(ImmutableRecord):
        e.save()
    with pytest.raises(ImmutableRecord):
        e.delete()


def test_fee_step_is_not_a_manual_step(town: Town) -> None:
    """The clerk cannot tick the fee as paid: only the payment of its invoice makes it."""
    p = new_record("building-sewer", town)
    assert "record_fee_payment" not in {t.name for t in p.WORKFLOW.available(town.u("clerk"), p)}
    with pytest.raises(Forbidden, match="settles the permit's fee invoice"):
        perform(p, "record_fee_payment", town.u("clerk"), {"receipt_number": "R-1"})
    p.refresh_from_db()
    assert p.state == "submitted" and p.fee_receipt == ""


def test_fee_in_force_on_the_application_date_is_assessed(town: Town) -> None:
    p = new_record("building-sewer", town)
    assert p.fee_amount == Decimal("200.00")  # demo: 200.00 from 2024-01-01
    assert p.fee_parameter == "fee.building_sewer.class_1"
    assert "EXAMPLE" in p.fee_authority


def test_fee_not_configured_blocks_payment_with_a_clear_message(town: Town, settings: Any) -> None:
    all_of_town(town, settings, "wappinger")
    p = new_record("building-sewer", town)
    assert p.fee_amount is None
    with pytest.raises(Blocked) as info:
        issue_permit_fee_invoice(town.u("clerk"), p)
    assert "not configured" in info.value.message and "§ 196-18 B(1)" in info.value.message
    p.refresh_from_db()
    assert p.state == "submitted"
    assert not AuditEvent.objects.filter(action="record_fee_payment").exists()
    assert not Invoice.objects.exists()


def test_failed_design_checks_block_plan_approval(town: Town) -> None:
    p = new_record("building-sewer", town, design=BAD_DESIGN)
    p = pay_fee(town, p)
    with pytest.raises(Blocked) as info:
        perform(p, "approve_plans", town.u("engineer"))
    assert "§ 196-18 F" in info.value.message and "§ 196-18 H" in info.value.message
    perform(p, "reject", town.u("engineer"), reason="3-inch pipe; sump pump")


def test_old_sewer_needs_superintendents_examination(town: Town) -> None:
    p = new_record("building-sewer", town, reuse=True)
    p = pay_fee(town, p)
    with pytest.raises(Blocked, match="§ 196-18 E"):
        perform(p, "approve_plans", town.u("engineer"))
    p = perform(p, "examine_old_sewer", town.u("superintendent"), {"result": "fails"})
    with pytest.raises(Blocked):
        perform(p, "approve_plans", town.u("engineer"))
    with pytest.raises(Forbidden):
        perform(p, "examine_old_sewer", town.u("engineer"), {"result": "meets"})
    p = perform(p, "examine_old_sewer", town.u("superintendent"), {"result": "meets"})
    p = perform(p, "approve_plans", town.u("engineer"))
    assert p.plan_checks and all(c["passed"] is not False for c in p.plan_checks)


def test_examination_only_when_an_old_sewer_is_reused(town: Town) -> None:
    p = new_record("building-sewer", town)
    with pytest.raises(Blocked):
        perform(p, "examine_old_sewer", town.u("superintendent"), {"result": "meets"})


def test_road_opening_permit_requires_insurance_and_bond(town: Town) -> None:
    p = bsp_to(town, "plans_approved")
    with pytest.raises(InvalidInput) as info:
        perform(p, "record_road_opening_permit", town.u("highway"), {"road_opening_number": "RO-1"})
    assert set(info.value.errors) == {"insurance_confirmed", "bond_confirmed"}


def test_notify_ready_only_after_road_opening_permit(town: Town) -> None:
    p = bsp_to(town, "plans_approved")
    from sewer_office.core.errors import TransitionNotAllowed

    with pytest.raises(TransitionNotAllowed):
        perform(p, "notify_ready", town.u("owner"), {})


def test_completion_connects_the_property(town: Town) -> None:
    p = bsp_to(town, "completed")
    home = p.property
    home.refresh_from_db()
    assert home.wastewater_service == "public_sewer"
    assert home.service_since == timezone.localdate()
    ev = AuditEvent.objects.get(action="set_wastewater_service", object_id=str(home.pk))
    assert ev.citation == "§ 196-18 J" and p.number in ev.reason


def test_reason_required_for_rejection(town: Town) -> None:
    p = new_record("building-sewer", town)
    with pytest.raises(InvalidInput) as info:
        perform(p, "reject", town.u("engineer"), reason="  ")
    assert "reason" in info.value.errors


def test_other_applicant_cannot_act_on_my_record(town: Town) -> None:
    p = bsp_to(town, "road_opening_permitted")
    with pytest.raises(Forbidden):
        perform(p, "notify_ready", town.u("other"), {})
    perform(p, "notify_ready", town.u("owner"), {})


# --- industrial discharge approvals ------------------------------------------------------------


def test_declared_discharge_is_evaluated_by_the_rules(town: Town) -> None:
    a = new_record("industrial", town, concentrations={"bod5": "400", "ph": "5.0"})
    statuses = {(f["parameter"], f["status"], f["citation"]) for f in a.evaluation["findings"]}
    assert ("ph", "prohibited", "§ 196-19 C(3)") in statuses
    assert ("bod5", "abnormal_strength", "§ 196-15 NORMAL SEWAGE") in statuses
    assert a.evaluation["prohibited"] is True
    assert a.evaluation["plant_influent"]["computed"] is True


def test_prohibited_discharge_cannot_be_approved_without_pretreatment(town: Town) -> None:
    a = new_record("industrial", town, concentrations={"cyanide_total": "3"})
    a = perform(a, "begin_review", town.u("engineer"))
    with pytest.raises(Blocked, match="§ 196-19 C"):
        perform(a, "approve", town.u("engineer"))
    with pytest.raises(Blocked, match="pretreatment"):
        perform(a, "approve_with_conditions", town.u("engineer"), {"sampling": "weekly"})
    a = perform(
        a, "approve_with_conditions", town.u("engineer"), {"pretreatment": "alkaline chlorination"}
    )
    assert a.state == "approved_with_conditions"
    assert list(
        ApprovalCondition.objects.filter(approval=a).values_list("citation", flat=True)
    ) == ["§ 196-19 E(1)(b)"]


def test_special_agreement_never_circumvents_categorical_standards(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    with pytest.raises(InvalidInput) as info:
        perform(
            a,
            "approve_with_conditions",
            town.u("engineer"),
            {"special_agreement": "unusual strength accepted"},
        )
    assert "categorical_standards_unaffected" in info.value.errors
    data = {
        "special_agreement": "unusual strength accepted",
        "categorical_standards_unaffected": True,
    }
    perform(a, "approve_with_conditions", town.u("engineer"), data)


def test_conditions_required_for_conditional_approval(town: Town) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    with pytest.raises(InvalidInput):
        perform(a, "approve_with_conditions", town.u("engineer"), {})


def test_cooling_water_has_its_own_basis_and_classification(town: Town) -> None:
    a = new_record(
        "industrial",
        town,
        discharge_kind="cooling_water",
        concentrations={"bod5": "4", "tss": "3", "oil_grease": "<5"},
    )
    assert a.legal_basis == "§ 196-16 F"
    assert a.evaluation["classification"]["cooling_water"] is True


def test_cooling_water_without_oil_and_grease_is_unknown_never_yes(town: Town) -> None:
    a = new_record(
        "industrial", town, discharge_kind="cooling_water", concentrations={"bod5": "4", "tss": "3"}
    )
    assert a.evaluation["classification"]["cooling_water"] is None


def test_a_process_discharge_is_not_cooling_water_however_clean(town: Town) -> None:
    a = new_record(
        "industrial",
        town,
        discharge_kind="new",
        concentrations={"bod5": "4", "tss": "3", "oil_grease": "<5"},
    )
    assert a.evaluation["classification"]["cooling_water"] is False


def test_approval_letter_pdf(town: Town, login: Any) -> None:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    perform(a, "approve_with_conditions", town.u("engineer"), {"control_manhole": "within 90 days"})
    r = login("owner").get(f"/permits/industrial/{a.pk}/letter.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")
    assert login("other").get(f"/permits/industrial/{a.pk}/letter.pdf").status_code == 404


# --- private systems, availability, subdivisions ------------------------------------------------


def test_private_system_refused_where_public_sewer_is_available(town: Town) -> None:
    with pytest.raises(Blocked, match="§ 196-17 A"):
        file_private_system(
            town.u("clerk"), applicant=town.owner_person, prop=town.owner_home, system_type="septic"
        )


def test_declaring_public_sewer_available_requires_connections(town: Town) -> None:
    s = new_record("private-system", town)
    s = perform(s, "record_health_approval", town.u("clerk"), {"health_approval_ref": "D-1"})
    s = perform(s, "record_completion", town.u("inspector"), {"completion_ref": "C-1"})
    proposed = new_record("private-system", town, mine=False)
    with pytest.raises(Forbidden):
        declare_public_sewer_available(
            town.phase3, timezone.localdate(), "res. 1", town.u("engineer")
        )
    declare_public_sewer_available(
        town.phase3, timezone.localdate(), "res. 2026-3", town.u("clerk")
    )
    s.refresh_from_db()
    proposed.refresh_from_db()
    assert s.state == "connection_required" and s.connection_required_on == timezone.localdate()
    assert proposed.state == "proposed"
    ev = AuditEvent.objects.get(action="require_connection", object_id=str(s.pk))
    assert ev.citation == "§ 196-17 E" and "res. 2026-3" in ev.reason
    with pytest.raises(Blocked, match="connected"):
        perform(s, "record_abandonment", town.u("inspector"), {"filled_with": "sand"})
    with pytest.raises(Blocked, match="already"):
        declare_public_sewer_available(town.phase3, timezone.localdate(), "again", town.u("clerk"))


def test_certificate_of_occupancy_only_after_completion(town: Town) -> None:
    from sewer_office.core.errors import TransitionNotAllowed

    s = new_record("private-system", town)
    s = perform(s, "record_health_approval", town.u("clerk"), {"health_approval_ref": "D-1"})
    with pytest.raises(TransitionNotAllowed):
        perform(s, "note_certificate_of_occupancy", town.u("inspector"), {"co_number": "CO-1"})
    s = perform(s, "record_completion", town.u("inspector"), {"completion_ref": "C-1"})
    s.property.refresh_from_db()
    assert s.property.wastewater_service == "private_system"
    s = perform(s, "note_certificate_of_occupancy", town.u("inspector"), {"co_number": "CO-1"})
    with pytest.raises(Blocked):
        perform(s, "note_certificate_of_occupancy", town.u("inspector"), {"co_number": "CO-2"})


def test_require_connection_needs_availability(town: Town) -> None:
    s = new_record("private-system", town)
    with protection.suspended(connection, "permits.PrivateDisposalSystem"):  # set up directly
        PrivateDisposalSystem.objects.filter(pk=s.pk).update(state="in_service")
    s.refresh_from_db()
    with pytest.raises(Blocked, match="not available"):
        perform(s, "require_connection", town.u("superintendent"))


def test_subdivision_provision_and_fee_follow_area_and_date(town: Town, settings: Any) -> None:
    served = new_record("subdivision", town)
    assert served.provision == "public_sewer" and served.fee_amount == Decimal(
        "2000.00"
    )  # 2% demo rate
    from sewer_office.permits.services.subdivision import file_subdivision

    p3 = file_subdivision(
        town.u("clerk"),
        applicant=town.owner_person,
        prop=town.phase3_lot,
        name="Hilltop",
        lots=4,
        smallest_lot_acres=Decimal("2"),
        estimated_cost=Decimal("12345.67"),
    )
    assert p3.provision == "private_systems" and p3.fee_amount == Decimal("246.91")
    all_of_town(town, settings, "wappinger")
    blocked = new_record("subdivision", town)
    with pytest.raises(Blocked, match="not configured"):
        issue_permit_fee_invoice(town.u("clerk"), blocked)


# --- grinders, interceptors, flushing ------------------------------------------------------------


def test_small_grinder_needs_no_approval(town: Town) -> None:
    small = new_record("grinder", town, hp="0.5")
    assert small.state == "not_required"
    assert (
        AuditEvent.objects.get(
            action="file", object_id=str(small.pk), content_type__model="grinderapproval"
        ).citation
        == "§ 196-19 D(3)"
    )
    assert new_record("grinder", town, hp="0.75").state == "submitted"


def test_interceptor_rules(town: Town) -> None:
    with pytest.raises(Blocked, match="F\\(2\\)"):
        require_interceptor(town.u("clerk"), establishment=town.other_plant, kind="grease_trap")
    with pytest.raises(Forbidden):
        require_interceptor(
            town.u("clerk"), establishment=town.other_plant, kind="oil_sand_interceptor", basis="x"
        )
    from sewer_office.registry.models import Establishment

    home_business = Establishment.objects.create(
        name="Home bakery",
        operator=town.owner_person,
        building=town.owner_home.buildings.get(),
        kind="commercial",
    )
    with pytest.raises(Blocked, match="dwelling"):
        require_interceptor(
            town.u("superintendent"),
            establishment=home_business,
            kind="oil_sand_interceptor",
            basis="x",
        )
    g = new_record("interceptor", town)
    with pytest.raises(Blocked, match="already"):
        require_interceptor(
            town.u("clerk"), establishment=town.owner_restaurant, kind="grease_trap"
        )
    g = perform(
        g,
        "record_installation",
        town.u("inspector"),
        {"unit_type": "h", "capacity": "50 gpm", "location": "k", "accessible": True},
    )
    with pytest.raises(Blocked, match="Health"):
        perform(g, "approve", town.u("superintendent"), {})


def test_interceptor_must_be_accessible(town: Town) -> None:
    g = new_record("interceptor", town)
    with pytest.raises(InvalidInput) as info:
        perform(
            g,
            "record_installation",
            town.u("inspector"),
            {"unit_type": "h", "capacity": "1", "location": "k"},
        )
    assert "accessible" in info.value.errors


def test_flushing_notice_rules(town: Town) -> None:
    today = timezone.localdate()
    args = {"applicant": town.owner_person, "water_source": "w", "tri_municipal_notified_on": today}
    with pytest.raises(InvalidInput) as info:
        file_flushing_notice(
            town.u("clerk"),
            building=town.owner_home.buildings.get(),
            planned_on=today,
            water_unpolluted=False,
            **args,
        )
    assert {"building", "water_unpolluted"} <= set(info.value.errors)
    with pytest.raises(InvalidInput) as info:
        file_flushing_notice(
            town.u("clerk"),
            building=town.owner_shop_building,
            planned_on=today.replace(year=today.year - 1),
            water_unpolluted=True,
            **args,
        )
    assert "planned_on" in info.value.errors
