"""§ 196-18 B: the class of a building sewer permit is the rule's, from what the application
states (a declared class that disagrees is flagged for the clerk; the fee is the rule's class
fee), and the fee is due "at the time the application is filed": until it is paid or waived by
a recorded decision the application is a draft awaiting the filing fee.

Demo fees: class 1 USD 200.00 (since 2024), class 2 USD 500.00 (since 2015)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from sewer_office.billing.models import Invoice
from sewer_office.billing.permit_fees import issue_permit_fee_invoice
from sewer_office.core import protection
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput, TransitionNotAllowed
from sewer_office.core.models import AuditEvent
from sewer_office.core.services import perform
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.permits.services.building_sewer import (
    class_preview,
    file_building_sewer_permit,
    next_steps,
)
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import (
    classify_service,
    permit_class,
)

from .billing_money_factories import pay_fee
from .factories import GOOD_DESIGN, Town, new_record, plan_file

pytestmark = pytest.mark.django_db
PLATING = "nickel and chromium plating rinse water"


def plating_plant(town: Town, **kw: Any) -> BuildingSewerPermit:
    """A plating plant that declares class 1 (and the use and wastes of a class 2 service)."""
    return file_building_sewer_permit(
        town.u("clerk"),
        applicant=town.owner_person,
        prop=town.owner_home,
        permit_class=1,
        use=kw.get("use", "commercial"),
        industrial_wastes=kw.get("wastes", PLATING),
        design=GOOD_DESIGN,
        files=[plan_file()],
    )


def test_the_rule() -> None:
    assert permit_class(use="residential") == 1
    assert permit_class(use="commercial") == 1  # commercial service is class 1 by the law
    assert permit_class(use="industrial") == 2
    assert permit_class(use="commercial", wastes=PLATING) == 2
    assert permit_class(connected_sources=["sanitary_fixtures", "industrial_process_waste"]) == 2
    assert permit_class(True) == 2 and permit_class(False) == 1
    c = classify_service(use="commercial", wastes=PLATING)
    assert c.text == (
        "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2)"
    )
    with pytest.raises(ValueError, match="use 'farm'"):
        classify_service(use="farm")


def test_plating_plant_declaring_class_1_is_class_2_flagged_and_pays_the_class_2_fee(
    town: Town, login: Any
) -> None:
    p = plating_plant(town)
    assert (p.permit_class, p.rule_class, p.class_disagrees) == (1, 2, True)
    assert p.fee_amount == Decimal("500.00") and p.fee_parameter == "fee.building_sewer.class_2"
    invoice = issue_permit_fee_invoice(town.u("clerk"), p)
    assert invoice.total == Decimal("500.00")
    line = invoice.lines.get()
    assert line.citation == "§ 196-18 B(2)"
    assert any("declared class 1" in s for s in line.computation["steps"])
    # the clerk sees the flag on the permit page and in the list
    c = login("clerk")
    page = c.get(f"/permits/building-sewer/{p.pk}/").content.decode()
    assert 'id="class-flag"' in page and "declared class 1 disagrees" in page
    assert (
        "class 1 declared, class 2 by the rule"
        in c.get("/permits/building-sewer/").content.decode()
    )
    # the applicant saw the class and its fee before paying
    owner = login("owner")
    page = owner.get(f"/permits/building-sewer/{p.pk}/").content.decode()
    assert (
        "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2)" in page
    )
    api = owner.get(f"/api/permits/building-sewer/{p.pk}/").json()
    assert api["rule_class"] == 2 and api["class_disagrees"] is True
    assert api["fee_amount"] == "500.00" and api["fee_settled"] is False


def test_the_filing_form_shows_class_and_fee_before_filing(town: Town, login: Any) -> None:
    c = login("owner")
    r = c.post(
        "/permits/building-sewer/new/",
        {
            "applicant": town.owner_person.pk,
            "property": town.owner_home.pk,
            "permit_class": "1",
            "service_use": "industrial",
            "diameter": "4 in",
            "slope": "1/4 in/ft",
            "connected_sources": ["sanitary_fixtures"],
            "check": "1",
        },
    )
    page = r.content.decode()
    assert r.status_code == 200 and not BuildingSewerPermit.objects.exists()
    assert (
        "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2); "
        "fee USD 500.00" in page
    )
    assert "You declared class 1" in page
    preview = class_preview("demo", GOOD_DESIGN, "residential", "", 1)
    assert preview["text"] == (
        "class 1 — residential and commercial service, § 196-18 B(1); fee USD 200.00"
    )
    assert preview["disagrees"] is False


def test_not_filed_until_paid(town: Town, login: Any) -> None:
    p = new_record("building-sewer", town)
    assert p.state == "submitted" and not p.fee_settled
    assert p.WORKFLOW.label(p.state) == "Awaiting the filing fee — not yet filed"
    assert "not filed yet: it is awaiting the filing fee" in next_steps(p)["text"]
    assert (
        'id="awaiting-fee"'
        in login("owner").get(f"/permits/building-sewer/{p.pk}/").content.decode()
    )
    with pytest.raises(TransitionNotAllowed, match="awaiting the filing fee"):
        perform(p, "approve_plans", town.u("engineer"))
    with pytest.raises(Forbidden):  # only the payment files it, never a hand step
        perform(p, "record_fee_payment", town.u("clerk"), {"receipt_number": "R1"})
    p = pay_fee(town, p)
    assert p.state == "plan_review" and p.fee_settled and p.fee_paid_on is not None


def test_a_waiver_files_it_with_who_when_and_why(town: Town) -> None:
    p = plating_plant(town)
    with pytest.raises(InvalidInput) as e:
        perform(p, "waive_fee", town.u("clerk"), {"waived_on": "2026-03-02"}, reason="")
    assert {"authority", "reason"} <= set(e.value.errors)
    for name in ("engineer", "viewer", "owner"):
        with pytest.raises(Forbidden):
            perform(p, "waive_fee", town.u(name), {"authority": "x"}, reason="x")
    p = perform(
        p,
        "waive_fee",
        town.u("clerk"),
        {"waived_on": "2026-03-02", "authority": "Town Board resolution 2026-14"},
        reason="a not-for-profit's sewer, fee waived by the Board",
    )
    assert p.state == "plan_review" and p.fee_settled and p.fee_paid_on is None
    assert str(p.fee_waived_on) == "2026-03-02"
    assert p.fee_waiver_authority == "Town Board resolution 2026-14"
    assert p.fee_waiver_reason == "a not-for-profit's sewer, fee waived by the Board"
    ev = AuditEvent.objects.get(action="waive_fee", object_id=str(p.pk))
    assert ev.actor == town.u("clerk") and ev.citation == "§ 196-18 B"
    with pytest.raises(Blocked):  # no invoice after the waiver: the fee step is past
        issue_permit_fee_invoice(town.u("clerk"), p)
    assert not Invoice.objects.exists()


def test_a_paid_fee_cannot_be_waived_and_old_records_keep_their_class(town: Town) -> None:
    p = new_record("building-sewer", town)
    paid = pay_fee(town, new_record("building-sewer", town))
    with pytest.raises(TransitionNotAllowed):
        perform(paid, "waive_fee", town.u("clerk"), {"authority": "x"}, reason="x")
    assert p.rule_class == 1 and not p.class_disagrees
    # a record filed before the rule decided the class: its declared class stands
    with protection.suspended(connection, "permits.BuildingSewerPermit"):  # as then stored
        BuildingSewerPermit.objects.filter(pk=p.pk).update(rule_class=None, permit_class=2)
    old = BuildingSewerPermit.objects.get(pk=p.pk)
    assert old.charged_class == 2 and not old.class_disagrees
