"""Billing core: charges from their sources, invoices numbered without gaps, credit notes, voids."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from sewer_office.billing import charges, invoices, ledger
from sewer_office.billing.models import Charge, Invoice, NumberSequence
from sewer_office.billing.numbers import format_number
from sewer_office.core import protection
from sewer_office.core.errors import Blocked, Forbidden, TransitionNotAllowed
from sewer_office.core.models import AuditEvent

from .factories import Town, new_record
from .jurisdiction_support import all_of_town

pytestmark = pytest.mark.django_db


def test_building_sewer_fee_charge_cites_class_and_parameter(town: Town) -> None:
    permit = new_record("building-sewer", town)
    c = charges.building_sewer_fee(permit, town.u("clerk"))
    assert c.amount == Decimal("200.00")  # demo class 1 since 2024-01-01
    assert c.citation == "§ 196-18 B(1)"
    assert c.computation["parameters"][0]["name"] == "fee.building_sewer.class_1"
    assert c.computation["parameters"][0]["authority"].startswith("EXAMPLE")
    assert c.computation["steps"]
    assert AuditEvent.objects.filter(action="billing.charge_created", object_id=str(c.pk)).exists()
    with pytest.raises(Blocked, match="already charged"):
        charges.building_sewer_fee(permit, town.u("clerk"))


def test_wappinger_blocks_naming_the_parameter(town: Town, settings: Any) -> None:
    permit = new_record("industrial", town)
    all_of_town(town, settings, "wappinger")  # the approval's facility is Wappinger's
    permit.refresh_from_db()
    with pytest.raises(Blocked, match=r"fee\.industrial_discharge_approval is not configured"):
        charges.industrial_approval_fee(permit, town.u("clerk"))
    assert not Charge.objects.exists()


def test_only_billing_roles_charge(town: Town) -> None:
    with pytest.raises(Forbidden):
        charges.article_copies(town.owner_person, 2, date(2026, 3, 2), town.u("owner"))


def test_fees_of_each_source(town: Town) -> None:
    clerk = town.u("clerk")
    assert charges.article_copies(town.owner_person, 3, date(2026, 3, 2), clerk).amount == Decimal(
        "15.00"
    )
    sub = new_record("subdivision", town)
    assert charges.subdivision_fee(sub, clerk).amount == Decimal("2000.00")
    ida = new_record("industrial", town)
    assert charges.industrial_approval_fee(ida, clerk).amount == Decimal("750.00")
    re = charges.other_fee(town.owner_person, "fee.reinspection", date(2026, 3, 2), clerk)
    # the reinspection fee rests on the Town Board's resolution, not § 196-18 B (which sets
    # the permit and inspection fee only)
    assert re.amount == Decimal("75.00") and re.citation == "Town Board resolution"


def _invoice(town: Town, day: date = date(2026, 3, 2)) -> Invoice:
    clerk = town.u("clerk")
    c = charges.article_copies(town.owner_person, 1, day, clerk)
    return invoices.issue_invoice(town.owner_person, [c], clerk, day)


def test_invoices_are_numbered_per_year_without_gaps(town: Town) -> None:
    a, b = _invoice(town), _invoice(town)
    c = _invoice(town, date(2027, 1, 4))
    assert (a.number, b.number, c.number) == ("2026-0001", "2026-0002", "2027-0001")
    assert a.due_on == date(2026, 4, 1)
    assert a.due_basis["name"] == "invoice.due_days"
    assert NumberSequence.objects.get(series="invoice", year=2026).last == 2
    assert format_number("receipt", 2026, 1) == "R2026-0001"
    assert AuditEvent.objects.filter(action="billing.invoice_issued").count() == 3


def test_due_days_not_configured_blocks(town: Town, settings: Any) -> None:
    clerk = town.u("clerk")
    all_of_town(town, settings, "wappinger")
    # a charge of Wappinger's that rests on no fee of its (none is configured)
    c = ledger.create_charge(
        source="other_fee",
        source_key="test:wappinger",
        person=town.owner_person,  # type: ignore[arg-type]
        amount=Decimal("5.00"),
        description="a Wappinger charge",
        assessed_on=date(2026, 3, 2),
        parameters=[],
        steps=[],
        actor=clerk,
        town="wappinger",
    )
    with pytest.raises(Blocked, match=r"invoice\.due_days is not configured in wappinger"):
        invoices.issue_invoice(town.owner_person, [c], clerk, date(2026, 3, 2))
    assert not Invoice.objects.exists()


def test_a_charge_is_invoiced_once(town: Town) -> None:
    inv = _invoice(town)
    with pytest.raises(Blocked, match="already invoiced"):
        invoices.issue_invoice(town.owner_person, [inv.lines.get().charge], town.u("clerk"))


def test_credit_note_in_the_invoice_series(town: Town) -> None:
    inv = _invoice(town)
    note = invoices.credit_note(inv, town.u("clerk"), "copy not delivered", issued_on=inv.issued_on)
    assert note.number == "2026-0002" and note.kind == "credit_note"
    assert note.total == -inv.total and note.credits == inv
    assert note.lines.get().amount == -inv.lines.get().amount
    with pytest.raises(Blocked, match="already credited"):
        invoices.credit_note(inv, town.u("clerk"), "again")


def test_void_with_reason_only_when_unpaid(town: Town) -> None:
    inv = _invoice(town)
    voided = invoices.void_invoice(inv, town.u("clerk"), "issued to the wrong person")
    assert voided.state == "void" and voided.void_reason
    ev = AuditEvent.objects.get(action="billing.invoice_voided")
    assert ev.state_to == "void" and ev.reason == "issued to the wrong person"
    with pytest.raises(TransitionNotAllowed):
        invoices.void_invoice(voided, town.u("clerk"), "again")
    # the voided charge may be invoiced anew
    again = invoices.issue_invoice(
        town.owner_person, [inv.lines.get().charge], town.u("clerk"), date(2026, 3, 3)
    )
    assert again.number == "2026-0002"


def test_subdivision_fee_by_the_bracket_schedule_shows_each_bracket(town: Town) -> None:
    """Demo's EXAMPLE schedule from 2027-01-01: 3 % to 100,000, 2 % to 500,000 (marginal)."""
    sub = new_record("subdivision", town)
    with protection.suspended(connection, "permits.SubdivisionSewer"):  # filed then, directly
        type(sub).objects.filter(pk=sub.pk).update(
            filed_on=date(2027, 2, 1), estimated_cost=Decimal("150000.00")
        )
    sub.refresh_from_db()
    c = charges.subdivision_fee(sub, town.u("clerk"))
    assert c.amount == Decimal("4000.00")
    (param,) = c.computation["parameters"]
    assert param["name"] == "fee.subdivision_sewer.schedule"
    assert param["table"][0] == {"up_to": "100000.00", "rate": "0.03"}
    steps = c.computation["steps"]
    assert "above USD 0 up to USD 100,000.00: 0.03 × USD 100,000.00 = USD 3000" in steps
    assert "above USD 100,000.00 up to USD 500,000.00: 0.02 × USD 50,000.00 = USD 1000" in steps
