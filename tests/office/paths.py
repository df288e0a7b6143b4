"""Happy paths through every workflow, each transition made by a user the law names.

Used by the workflow tests and by the completeness test that checks every declared transition
is exercised here.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.core.services import perform
from sewer_office.registry.services import declare_public_sewer_available

from .billing_money_factories import pay_fee
from .factories import Town, new_record


def bsp_to(t: Town, state: str, **kw: Any) -> Any:
    """A building sewer permit taken to ``state`` along the law's path."""
    p = new_record("building-sewer", t, **kw)
    steps: list[tuple[str, str, dict[str, Any]]] = [
        ("record_fee_payment", "clerk", {}),  # the fee invoice paid in billing
        ("approve_plans", "engineer", {}),
        (
            "record_road_opening_permit",
            "highway",
            {"road_opening_number": "RO-1", "insurance_confirmed": True, "bond_confirmed": True},
        ),
        ("notify_ready", "owner", {}),
        ("complete_connection", "superintendent", {"supervised_by": "S. Ortiz"}),
    ]
    order = [
        "submitted",
        "plan_review",
        "plans_approved",
        "road_opening_permitted",
        "ready_for_inspection",
        "completed",
    ]
    for name, who, data in steps[: order.index(state)]:
        if name == "approve_plans" and p.reuses_old_sewer:
            p = perform(p, "examine_old_sewer", t.u("superintendent"), {"result": "meets"})
        p = pay_fee(t, p) if name == "record_fee_payment" else perform(p, name, t.u(who), data)
    return p


def run_all(t: Town) -> None:
    """Make every transition of every workflow at least once."""
    su, eng, clerk, insp = (t.u(n) for n in ("superintendent", "engineer", "clerk", "inspector"))
    owner = t.u("owner")
    # Building sewer: full path, with an old sewer examined, corrections, rejection, withdrawal.
    p = bsp_to(t, "ready_for_inspection", reuse=True)
    p = perform(p, "require_corrections", su, reason="bedding")
    p = perform(p, "notify_ready", owner, {})
    perform(p, "complete_connection", su, {"supervised_by": "S. Ortiz"})
    r = new_record("building-sewer", t)
    perform(r, "reject", eng, reason="incomplete")
    w = new_record("building-sewer", t)
    perform(w, "withdraw", owner, reason="postponed")
    v = new_record("building-sewer", t)
    perform(v, "waive_fee", clerk, {"authority": "Town Board res. 2026-9"}, reason="Town's own")
    # Industrial: conditions, plain approval, rejection, withdrawal.
    a = perform(new_record("industrial", t), "begin_review", eng)
    perform(a, "approve_with_conditions", eng, {"sampling": "monthly composite"})
    b = perform(new_record("industrial", t), "begin_review", eng)
    perform(b, "approve", eng)
    c = perform(new_record("industrial", t), "begin_review", eng)
    perform(c, "reject", eng, reason="too strong")
    perform(new_record("industrial", t), "withdraw", clerk, reason="request")
    # Private system: to service, CO, connection required, abandonment; and a withdrawal.
    s = new_record("private-system", t)
    s = perform(s, "record_health_approval", clerk, {"health_approval_ref": "D-1"})
    s = perform(s, "record_completion", insp, {"completion_ref": "C-1"})
    s = perform(s, "note_certificate_of_occupancy", insp, {"co_number": "CO-1"})
    declare_public_sewer_available(t.phase3, timezone.localdate(), "res. 2026-1", clerk)  # type: ignore[arg-type]
    s.refresh_from_db()
    t.phase3_lot.refresh_from_db()  # type: ignore[union-attr]
    t.phase3_lot.wastewater_service = "public_sewer"  # type: ignore[union-attr]
    t.phase3_lot.save()  # type: ignore[union-attr]
    perform(s, "record_abandonment", insp, {"filled_with": "sand"})
    s2 = new_record("private-system", t, mine=False)
    s2 = perform(s2, "record_health_approval", insp, {"health_approval_ref": "D-2"})
    s2 = perform(s2, "record_completion", insp, {"completion_ref": "C-2"})
    perform(s2, "require_connection", su)
    s3 = file_private_system_in_new_area(t)
    perform(s3, "withdraw", clerk, reason="sold")
    # Subdivision: to filing; a rejection and a withdrawal.
    d = new_record("subdivision", t)
    d = pay_fee(t, d)  # record_fee_payment, made by the payment
    d = perform(d, "record_health_approval", clerk, {"health_approval_ref": "H-1"})
    d = perform(d, "approve_plans", eng)
    perform(d, "record_filing", clerk, {})
    perform(new_record("subdivision", t), "reject", eng, reason="no trunk line connection")
    perform(new_record("subdivision", t), "withdraw", owner, reason="changed plans")
    # Grinders.
    perform(new_record("grinder", t), "approve", su)
    perform(new_record("grinder", t), "reject", su, reason="too big")
    perform(new_record("grinder", t), "withdraw", owner, reason="not needed")
    # Grease trap: installed, refused, reinstalled, approved.
    g = new_record("interceptor", t)
    install = {
        "unit_type": "hydromechanical",
        "capacity": "50 gpm",
        "location": "kitchen",
        "accessible": True,
    }
    g = perform(g, "record_installation", owner, install)
    g = perform(g, "refuse_installation", su, reason="not accessible")
    g = perform(g, "record_installation", insp, install)
    perform(g, "approve", su, {"health_approval_ref": "GT-1"})
    # Flushing notices.
    f = perform(new_record("flushing", t), "acknowledge", su)
    perform(f, "record_flushing", owner, {"flushed_on": timezone.localdate() + timedelta(days=5)})
    perform(new_record("flushing", t), "object", su, reason="process water")
    perform(new_record("flushing", t), "withdraw", owner, reason="rescheduled")


def file_private_system_in_new_area(t: Town) -> Any:
    """A proposed private system on a lot in an area without public sewer."""
    from sewer_office.permits.services.private_system import file_private_system
    from sewer_office.registry.models import Property, ServiceArea

    area = ServiceArea.objects.create(code="phase-3c", name="Phase III-C", kind="phase")
    lot = Property.objects.create(
        parcel_id="301-01", address="1 Ridge Rd", owner=t.owner_person, service_area=area
    )  # type: ignore[misc]
    return file_private_system(
        t.u("clerk"), applicant=t.owner_person, prop=lot, system_type="septic"
    )  # type: ignore[arg-type]
