"""Money in billing: payments and their receipts, partial payments, credit, refunds, the
permit fee step made by the payment of its invoice, statements, aging, the overdue panel and
the accounting export."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.billing import exports, statements
from sewer_office.billing.choices import InvoiceKind
from sewer_office.billing.credit import apply_credit, refund
from sewer_office.billing.invoices import credit_note
from sewer_office.billing.models import BillingRun, Invoice, Payment, PaymentApplication, Refund
from sewer_office.billing.payments import (
    Allocation,
    credit_of,
    outstanding,
    outstanding_of,
    record_payment,
)
from sewer_office.billing.permit_fees import issue_permit_fee_invoice
from sewer_office.billing.receipts import receipt_pdf
from sewer_office.billing.statement_letter import statement_pdf
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.registry.models import Person

from .billing_money_factories import invoice, pay_fee
from .factories import Town, new_record

D = Decimal


def _today() -> Any:
    return timezone.localdate()


def _inv(town: Town, amount: str, days_ago: int = 40, due_days: int = 30, **kw: Any) -> Any:
    person = kw.pop("person", town.owner_person)
    on = _today() - timedelta(days=days_ago)
    return invoice(town, person, amount, issued_on=on, due_on=on + timedelta(days=due_days), **kw)


def _pay(town: Town, amount: str, *invoices: Any, **kw: Any) -> Payment:
    kw.setdefault("person", town.owner_person)
    kw.setdefault("method", "cash")
    return record_payment(
        town.u("clerk"), amount=amount, allocations=[Allocation(i) for i in invoices], **kw
    )


def test_a_partial_payment_leaves_the_rest_outstanding_with_gapless_receipts(town: Town) -> None:
    a = _inv(town, "300.00")
    p1 = _pay(town, "120.00", a)
    assert outstanding(a) == D("180.00")
    p2 = _pay(town, "180.00", a, method="check", reference="1044")
    assert outstanding(a) == D("0.00")
    year = _today().year
    assert [p1.receipt_number, p2.receipt_number] == [f"R{year}-0001", f"R{year}-0002"]
    assert list(PaymentApplication.objects.values_list("amount", flat=True)) == [
        D("120.00"),
        D("180.00"),
    ]
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert actions.count("record_payment") == 2 and actions.count("apply_payment") == 2
    with pytest.raises(ImmutableRecord):
        p1.save()
    with pytest.raises(ImmutableRecord):
        p1.delete()


@pytest.mark.parametrize("method", ["check", "card", "transfer"])
def test_check_card_and_transfer_need_their_reference(town: Town, method: str) -> None:
    with pytest.raises(InvalidInput) as info:
        _pay(town, "10.00", method=method, reference="  ")
    assert "reference" in info.value.errors
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("amount", "field"), [("0", "amount"), ("-5", "amount"), ("1.005", "amount"), ("ten", "amount")]
)
def test_bad_amounts_are_refused_naming_the_field(town: Town, amount: str, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        _pay(town, amount)
    assert field in info.value.errors


def test_only_the_clerk_records_money(town: Town) -> None:
    a = _inv(town, "50.00")
    for name in ("superintendent", "engineer", "viewer", "owner"):
        with pytest.raises(Forbidden):
            record_payment(town.u(name), person=town.owner_person, amount="5", method="cash")
        with pytest.raises(Forbidden):
            refund(town.u(name), person=town.owner_person, amount="1", reason="x", method="cash")
        with pytest.raises(Forbidden):
            apply_credit(town.u(name), person=town.owner_person, allocations=[Allocation(a)])
    assert not Payment.objects.exists()


def test_overpayment_is_credit_then_applied_to_a_new_invoice(town: Town) -> None:
    a = _inv(town, "100.00")
    p = _pay(town, "150.00", a)
    assert outstanding(a) == D("0") and credit_of(town.owner_person) == D("50.00")
    b = _inv(town, "80.00", days_ago=5)
    done = apply_credit(town.u("clerk"), person=town.owner_person, allocations=[Allocation(b)])
    assert [(x.payment_id, x.amount) for x in done] == [(p.pk, D("50.00"))]
    assert outstanding(b) == D("30.00") and credit_of(town.owner_person) == D("0.00")
    with pytest.raises(Blocked, match="no credit"):
        apply_credit(town.u("clerk"), person=town.owner_person, allocations=[Allocation(b)])


def test_an_invoice_is_never_paid_beyond_what_it_owes(town: Town) -> None:
    a = _inv(town, "100.00")
    with pytest.raises(InvalidInput, match=r"more than the USD 100\.00 outstanding"):
        record_payment(
            town.u("clerk"),
            person=town.owner_person,
            amount="150.00",
            method="cash",
            allocations=[Allocation(a, D("120.00"))],
        )
    assert not Payment.objects.exists()  # all or nothing: no receipt taken either
    _pay(town, "100.00", a)
    with pytest.raises(Blocked, match="paid in full"):
        _pay(town, "1.00", a)


def test_a_payment_applies_only_to_the_payers_invoices(town: Town) -> None:
    theirs = _inv(town, "10.00", person=town.other_person)
    with pytest.raises(InvalidInput, match="another person"):
        _pay(town, "10.00", theirs)


def test_refunds_come_out_of_credit_with_a_reason(town: Town) -> None:
    _pay(town, "40.00")
    with pytest.raises(InvalidInput):
        refund(town.u("clerk"), person=town.owner_person, amount="10", reason=" ", method="cash")
    with pytest.raises(Blocked, match="only credit is refunded"):
        refund(town.u("clerk"), person=town.owner_person, amount="41", reason="x", method="cash")
    r = refund(
        town.u("clerk"),
        person=town.owner_person,
        amount="25.00",
        reason="paid twice",
        method="check",
        reference="88",
    )
    assert credit_of(town.owner_person) == D("15.00") and r.reason == "paid twice"
    assert AuditEvent.objects.filter(action="refund").count() == 1
    assert Refund.objects.get().amount == D("25.00")


def test_the_permit_fee_step_is_made_by_the_payment_that_settles_its_invoice(
    town: Town,
) -> None:
    permit = new_record("building-sewer", town)
    inv = issue_permit_fee_invoice(town.u("clerk"), permit)
    assert inv.total == D("200.00") and inv.due_basis["name"] == "invoice.due_days"
    line = inv.lines.get()
    assert line.citation == "§ 196-18 B(1)"
    assert line.computation["parameters"][0]["name"] == "fee.building_sewer.class_1"
    with pytest.raises(Blocked, match="already invoiced"):
        issue_permit_fee_invoice(town.u("clerk"), permit)
    _pay(town, "50.00", inv)
    permit.refresh_from_db()
    assert permit.state == "submitted" and permit.fee_receipt == ""
    last = _pay(town, "150.00", inv, method="card", reference="AUTH 7731")
    permit.refresh_from_db()
    assert permit.state == "plan_review"
    assert permit.fee_receipt == last.receipt_number and permit.fee_paid_on == last.received_on
    e = AuditEvent.objects.get(action="record_fee_payment")
    assert e.actor == town.u("clerk") and last.receipt_number in e.reason
    with pytest.raises(Blocked, match="past"):
        issue_permit_fee_invoice(town.u("clerk"), permit)


def test_subdivision_fee_by_estimated_cost_paid_through_billing(town: Town) -> None:
    sub = new_record("subdivision", town)
    sub = pay_fee(town, sub, method="transfer", reference="ACH 5521")
    assert sub.state == "fee_paid" and sub.fee_receipt.startswith("R")
    charge = sub_charge = Payment.objects.get().applications.get().invoice.lines.get().charge
    assert charge.citation.startswith("§ 196-23 C") and sub_charge.amount == sub.fee_amount


def test_statement_runs_the_balance_and_it_equals_owed_less_credit(town: Town) -> None:
    a = _inv(town, "300.00", days_ago=90)
    b = _inv(town, "120.00", days_ago=60)
    invoice(
        town,
        town.owner_person,
        "-20.00",
        issued_on=_today() - timedelta(days=50),
        due_on=None,
        kind=InvoiceKind.CREDIT_NOTE,
        credits=b,
    )
    _pay(town, "420.00", a, b, received_on=_today() - timedelta(days=10))
    refund(town.u("clerk"), person=town.owner_person, amount="10", reason="goodwill", method="cash")
    st = statements.statement(town.owner_person)
    assert [e.kind for e in st.entries] == [
        "invoice",
        "invoice",
        "credit_note",
        "payment",
        "refund",
    ]
    assert [e.balance for e in st.entries] == [
        D("300.00"),
        D("420.00"),
        D("400.00"),
        D("-20.00"),
        D("-10.00"),
    ]
    assert st.balance == st.owed - st.credit == D("-10.00")
    assert outstanding(b) == D("0.00") and st.credit == D("10.00")
    later = statements.statement(town.owner_person, start=_today() - timedelta(days=30))
    assert later.opening == D("400.00") and [e.kind for e in later.entries] == ["payment", "refund"]
    assert statement_pdf(st).startswith(b"%PDF")


@pytest.mark.parametrize(
    ("days_past_due", "bucket"),
    [(-3, "current"), (0, "current"), (1, "1-30"), (30, "1-30"), (31, "31-60"),
     (60, "31-60"), (61, "61-90"), (90, "61-90"), (91, "90+"), (400, "90+")],
)  # fmt: skip
def test_aging_buckets_at_their_boundaries(town: Town, days_past_due: int, bucket: str) -> None:
    on = _today()
    due = on - timedelta(days=days_past_due)
    inv = invoice(town, town.owner_person, "70.00", issued_on=min(due, on), due_on=due)
    _pay(town, "20.00", inv)
    report = statements.aging(on, town.u("clerk"))
    assert report.totals[bucket] == D("50.00") and report.total == D("50.00")
    assert [r.person for r in report.rows] == [town.owner_person]


def test_aging_and_overdue_show_an_outside_user_only_its_own(town: Town) -> None:
    _inv(town, "10.00", days_ago=100)
    _inv(town, "20.00", days_ago=100, person=town.other_person)
    assert statements.aging(_today(), town.u("clerk")).total == D("30.00")
    assert statements.aging(_today(), town.u("owner")).total == D("10.00")
    assert [a.invoice.person for a in statements.overdue(_today(), town.u("owner"))] == [
        town.owner_person
    ]


def test_overdue_invoices_on_the_dashboard(town: Town, login: Any) -> None:
    late = _inv(town, "75.00", days_ago=100)
    _inv(town, "5.00", days_ago=1)  # not yet due
    page = login("clerk").get("/").content.decode()
    assert 'id="overdue-invoices"' in page and late.number in page and "USD 75.00" in page
    mine = login("owner").get("/").content.decode()
    assert "My overdue invoices" in mine and late.number in mine
    assert 'id="overdue-invoices"' not in login("other").get("/").content.decode()


def test_receipt_pdf(town: Town) -> None:
    a = _inv(town, "30.00")
    p = _pay(town, "45.00", a, method="check", reference="1201")
    assert receipt_pdf(p).startswith(b"%PDF")


def test_accounting_export_one_row_per_line_and_payment_escaped(town: Town) -> None:
    evil = Person.objects.create(name="=HYPERLINK(1)")
    a = _inv(town, "300.00", person=evil)
    _pay(town, "100.00", a, person=evil, method="check", reference="-55")
    rows = list(exports.rows())
    assert [r["record_type"] for r in rows] == ["invoice_line", "payment"]
    assert rows[1]["amount"] == D("-100.00") and rows[1]["applied_to"] == f"{a.number}=100.00"
    r = (
        __import__("django.test", fromlist=["RequestFactory"])
        .RequestFactory()
        .get("/billing/export/", {"format": "csv"})
    )
    from sewer_office.core.exports import export

    response = export(r, rows, exports.COLUMNS, "accounting")
    assert response is not None
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(exports.HEADERS)
    assert table[1][6] == "'=HYPERLINK(1)" and table[2][13] == "'-55"
    assert table[1][11] == "300.00" and table[2][11] == "-100.00"


def test_money_pages_record_a_payment_and_print(town: Town, login: Any) -> None:
    a = _inv(town, "300.00")
    c = login("clerk")
    page = c.get(f"/billing/payments/new/?person={town.owner_person.pk}").content.decode()
    assert a.number in page
    r = c.post(
        "/billing/payments/new/",
        {"person": town.owner_person.pk, "method": "check", "reference": "", "amount": "100"},
    )
    assert r.status_code == 400 and "check number" in r.content.decode()
    r = c.post(
        "/billing/payments/new/",
        {"person": town.owner_person.pk, "method": "cash", "amount": "100", "invoices": [a.pk]},
    )
    assert r.status_code == 302
    p = Payment.objects.get()
    assert outstanding(a) == D("200.00")
    assert c.get(f"/billing/payments/{p.pk}/receipt.pdf").content.startswith(b"%PDF")
    st = c.get(f"/billing/statements/{town.owner_person.pk}/").content.decode()
    assert "USD 200.00" in st and p.receipt_number in st
    pdf = c.get(f"/billing/statements/{town.owner_person.pk}/statement.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    listing = c.get("/billing/payments/?format=csv").content.decode()
    assert p.receipt_number in listing
    assert "Olive Owner" in c.get("/billing/aging/").content.decode()
    assert c.get("/billing/aging/?format=xlsx").status_code == 200
    assert "invoice_line" in c.get("/billing/export/").content.decode()


def test_permit_fee_page_issues_the_invoice(town: Town, login: Any) -> None:
    permit = new_record("building-sewer", town)
    c = login("clerk")
    assert permit.number in c.get("/billing/permit-fees/").content.decode()
    r = c.post(f"/billing/permit-fees/building-sewer/{permit.pk}/invoice/")
    assert r.status_code == 302
    inv = Invoice.objects.get()
    assert inv.person == permit.applicant and inv.total == D("200.00")
    page = c.get(f"/permits/building-sewer/{permit.pk}/").content.decode()
    assert (
        'id="automatic-record_fee_payment"' in page and "/actions/record_fee_payment/" not in page
    )


def test_demo_town_billing(demo_town: Any) -> None:
    town = demo_town()
    today = town.anchor
    paid = BuildingSewerPermit.objects.exclude(state__in=("submitted", "withdrawn")).exclude(
        fee_receipt=""
    )
    assert paid.exists() and all(p.fee_receipt.startswith("R") for p in paid)
    assert Payment.objects.filter(receipt_number__in=paid.values("fee_receipt")).count() == (
        paid.count()
    )
    late = statements.overdue(today, town.users["clerk"])
    assert len(late) >= 2
    assert any(a.outstanding < a.invoice.total for a in late)  # partly paid
    assert Invoice.objects.filter(kind=InvoiceKind.CREDIT_NOTE).exists()
    assert town.owner_person is not None and credit_of(town.owner_person) == D("50.00")
    st = statements.statement(town.owner_person)
    assert st.balance == st.owed - st.credit
    # the plating shop that declared class 1: class 2 by § 196-18 B's rule, flagged, the
    # class 2 fee (demo USD 500.00), a draft awaiting its filing fee
    plating = BuildingSewerPermit.objects.get(industrial_wastes__startswith="electroplating")
    assert (plating.permit_class, plating.rule_class, plating.class_disagrees) == (1, 2, True)
    assert plating.fee_amount == D("500.00") and plating.state == "submitted"
    run = BillingRun.objects.get(state="issued")  # the last quarter's surcharges
    lines = {ln.establishment.name: ln for ln in run.lines.select_related("establishment")}
    # billed only under a decision (the creamery) or an agreement (the machining company);
    # Acme Plating, of abnormal strength without either, is listed, never billed
    assert lines["Hudson Creamery"].status == "charged"
    assert lines["Dutchess Precision Machining"].status == "charged"
    assert lines["Acme Plating Corporation"].status == "no_decision"
    assert {i.establishment.name for i in Invoice.objects.filter(run=run)} == {
        "Hudson Creamery",
        "Dutchess Precision Machining",
    }
    issued = list(Invoice.objects.filter(run=run))
    assert issued and sum(i.total for i in issued) == run.total
    left = outstanding_of(issued)
    assert any(left[i.pk] == 0 for i in issued)
    assert len(issued) < 2 or any(0 < left[i.pk] < i.total for i in issued)


def test_a_credit_note_on_a_paid_invoice_gives_the_paid_excess_back_as_credit(
    town: Town,
) -> None:
    """A correction after payment (credit note plus a new invoice): what was paid on the
    credited invoice becomes the person's credit again, and can be applied to the new one."""
    a = _inv(town, "300.00")
    _pay(town, "200.00", a)
    assert outstanding(a) == D("100.00") and credit_of(town.owner_person) == D("0.00")
    credit_note(a, town.u("clerk"), "wrong flow: rebilled")
    assert outstanding(a) == D("0.00")
    assert credit_of(town.owner_person) == D("200.00")
    st = statements.statement(town.owner_person)
    assert st.balance == st.owed - st.credit == D("-200.00")
    b = _inv(town, "250.00", days_ago=1)
    apply_credit(town.u("clerk"), person=town.owner_person, allocations=[Allocation(b)])
    assert outstanding(b) == D("50.00") and credit_of(town.owner_person) == D("0.00")
    assert AuditEvent.objects.filter(action="billing.payment_released").count() == 1


def test_a_credit_note_on_an_unpaid_invoice_releases_no_payment(town: Town) -> None:
    a = _inv(town, "300.00")
    credit_note(a, town.u("clerk"), "billed in error")
    assert outstanding(a) == D("0.00") and credit_of(town.owner_person) == D("0.00")
    assert not PaymentApplication.objects.filter(invoice=a).exists()
