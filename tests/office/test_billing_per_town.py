"""Billing per town: in an office of several member towns each town keeps its own books.

A charge, an invoice, a payment and a refund are of one town (``jurisdiction``), written with
the record: a charge its values' town, an invoice its charges', a payment its invoices' (else
the town the clerk acts for), a refund its payment's. A clerk of one town sees their town's
books — lists, pages, the API, a person's statement, the aging report, the export — and the
other town's records do not exist for them (404); their money pays their town's invoices only.
The coordinator and a clerk of both towns see both. A billing run is seen and made by those
acting for every town of its lines.

Money in the member town needs amounts of its own: :func:`town_values_support.riverside`
(``demo`` and ``riverside.yaml``), whose fixture staff act for both towns; ``hclerk`` and
``oclerk`` are the clerks of one town each, ``bothclerk`` of both.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.utils.html import escape

from sewer_office.accounts.towns import values_of
from sewer_office.billing import charges, credit, invoices, runs
from sewer_office.billing.models import Charge, Invoice, Payment, Refund
from sewer_office.billing.payments import Allocation, apply_plan, record_payment
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.registry.models import Person

from . import town_values_support
from .enforcement_factories import at
from .factories import Town
from .jurisdiction_support import HOME
from .test_billing_core_runs import decide, flow_meter, sample_day
from .town_values_support import RIVERSIDE

riverside = town_values_support.riverside

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 2)


@dataclass
class Books:
    """The owner's invoice and part payment in each town's books."""

    person: Person
    mine: Invoice  # the primary town's (demo)
    theirs: Invoice  # the member town's (riverside)
    paid_mine: Payment
    paid_theirs: Payment


def _books(t: Town) -> Books:
    """One person billed copies of the article by each town, each invoice part paid by that
    town's clerk."""
    clerk, person = t.u("clerk"), t.owner_person
    assert person is not None
    mine = invoices.issue_invoice(
        person, [charges.article_copies(person, 1, DAY, clerk, town=HOME)], clerk, DAY
    )
    theirs = invoices.issue_invoice(
        person, [charges.article_copies(person, 2, DAY, clerk, town=RIVERSIDE)], clerk, DAY
    )
    paid_mine = record_payment(
        t.u("hclerk"), person=person, amount="1.00", method="cash",
        allocations=[Allocation(mine)], at=at("2026-03-03"),
    )  # fmt: skip
    paid_theirs = record_payment(
        t.u("oclerk"), person=person, amount="2.00", method="cash",
        allocations=[Allocation(theirs)], at=at("2026-03-04"),
    )  # fmt: skip
    return Books(person, mine, theirs, paid_mine, paid_theirs)


def _numbers(response: Any, key: str = "number") -> set[str]:
    return {row[key] for row in response.json()["results"]}


# --- what each clerk sees -----------------------------------------------------------------------


def test_each_record_is_in_its_towns_books(riverside: Town) -> None:
    b = _books(riverside)
    assert (b.mine.jurisdiction, b.theirs.jurisdiction) == (HOME, RIVERSIDE)
    assert {c.jurisdiction for c in Charge.objects.filter(invoice_lines__invoice=b.theirs)} == {
        RIVERSIDE
    }
    assert (b.paid_mine.jurisdiction, b.paid_theirs.jurisdiction) == (HOME, RIVERSIDE)
    note = invoices.credit_note(b.theirs, riverside.u("oclerk"), "copies not sent")
    assert note.jurisdiction == RIVERSIDE
    # the paid part of the credited invoice went back to the member town's credit, and is
    # refunded out of it: the refund is in that town's books
    back = credit.refund(
        riverside.u("oclerk"), person=b.person, amount="2.00", reason="credited", method="cash"
    )
    assert back.jurisdiction == RIVERSIDE
    # one sequence of numbers for the installation, whatever the town
    assert [b.mine.number, b.theirs.number, note.number] == ["2026-0001", "2026-0002", "2026-0003"]


def test_a_clerk_of_one_town_sees_their_towns_invoices_and_payments(
    riverside: Town, login: Any
) -> None:
    b = _books(riverside)
    for user, town, shown, hidden, paid, unpaid in (
        ("hclerk", HOME, b.mine, b.theirs, b.paid_mine, b.paid_theirs),
        ("oclerk", RIVERSIDE, b.theirs, b.mine, b.paid_theirs, b.paid_mine),
    ):
        c = login(user)
        page = c.get("/billing/invoices/").content.decode()
        assert f">{shown.number}<" in page and f">{hidden.number}<" not in page, user
        detail = c.get(f"/billing/invoices/{shown.pk}/").content.decode()
        assert shown.number in detail and f'id="invoice-town">{town}<' in detail
        for url in (
            f"/billing/invoices/{hidden.pk}/",
            f"/billing/invoices/{hidden.pk}/pdf",
            f"/api/billing/invoices/{hidden.pk}/",
            f"/billing/payments/{unpaid.pk}/",
            f"/billing/payments/{unpaid.pk}/receipt.pdf",
            f"/api/billing/payments/{unpaid.pk}/",
            f"/api/billing/payments/{unpaid.pk}/receipt/",
        ):
            assert c.get(url).status_code == 404, (user, url)
        assert _numbers(c.get("/api/billing/invoices/")) == {shown.number}
        assert c.get(f"/api/billing/invoices/{shown.pk}/").json()["jurisdiction"] == town
        charged = c.get("/api/billing/charges/").json()["results"]
        assert {row["jurisdiction"] for row in charged} == {town}
        listed = c.get("/billing/payments/").content.decode()
        assert paid.receipt_number in listed and unpaid.receipt_number not in listed
        assert _numbers(c.get("/api/billing/payments/"), "receipt_number") == {paid.receipt_number}
        receipt = c.get(f"/billing/payments/{paid.pk}/").content.decode()
        assert f'id="payment-town">{town}<' in receipt
    both = {b.mine.number, b.theirs.number}
    for user in ("bothclerk", "coordinator"):
        c = login(user)
        page = c.get("/billing/invoices/").content.decode()
        assert all(f">{n}<" in page for n in both), user
        assert _numbers(c.get("/api/billing/invoices/")) == both
        receipts = _numbers(c.get("/api/billing/payments/"), "receipt_number")
        assert receipts == {b.paid_mine.receipt_number, b.paid_theirs.receipt_number}
        assert c.get(f"/billing/invoices/{b.theirs.pk}/").status_code == 200


def test_the_primary_towns_clerk_finds_their_payments(article_towns: Town, login: Any) -> None:
    """In an office of the demo town and Wappinger, the demo town's clerk opens Billing and
    finds the payment they recorded (no longer "No payment"); Wappinger's clerk does not."""
    person, hclerk = article_towns.owner_person, article_towns.u("hclerk")
    assert person is not None
    invoice = invoices.issue_invoice(
        person, [charges.article_copies(person, 1, DAY, hclerk, town=HOME)], hclerk, DAY
    )
    paid = record_payment(hclerk, person=person, amount=invoice.total, method="cash",
                          allocations=[Allocation(invoice)])  # fmt: skip
    page = login("hclerk").get("/billing/payments/").content.decode()
    assert paid.receipt_number in page and "No payment" not in page
    page = login("oclerk").get("/billing/payments/").content.decode()
    assert paid.receipt_number not in page


def test_a_persons_statement_is_of_the_clerks_towns_books(riverside: Town, login: Any) -> None:
    b = _books(riverside)
    api = login("hclerk").get(f"/api/billing/statements/{b.person.pk}/").json()
    refs = [e["reference"] for e in api["entries"]]
    assert refs == [b.mine.number, b.paid_mine.receipt_number]
    assert Decimal(api["balance"]) == b.mine.total - Decimal("1.00") == Decimal(api["owed"])
    page = login("hclerk").get(f"/billing/statements/{b.person.pk}/").content.decode()
    assert b.mine.number in page and b.theirs.number not in page
    pdf = login("hclerk").get(f"/billing/statements/{b.person.pk}/statement.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    aging = login("hclerk").get("/billing/aging/?on=2026-06-30&format=csv").content.decode()
    (row,) = list(csv.DictReader(io.StringIO(aging.lstrip("\ufeff"))))
    assert Decimal(row["Total"]) == b.mine.total - Decimal("1.00")  # the demo town's only
    overdue = login("hclerk").get("/").content.decode()  # the dashboard's overdue invoices
    assert f"<td>{b.mine.number}</td>" in overdue and f"<td>{b.theirs.number}</td>" not in overdue
    export = login("hclerk").get("/billing/export/").content.decode()
    assert b.mine.number in export and b.theirs.number not in export
    assert b.paid_theirs.receipt_number not in export
    whole = login("bothclerk").get(f"/api/billing/statements/{b.person.pk}/").json()
    assert {e["reference"] for e in whole["entries"]} == {
        b.mine.number, b.theirs.number, b.paid_mine.receipt_number, b.paid_theirs.receipt_number
    }  # fmt: skip
    assert Decimal(whole["owed"]) == b.mine.total + b.theirs.total - Decimal("3.00")


# --- money of one town pays that town's invoices --------------------------------------------------


def test_a_clerk_of_one_town_cannot_pay_the_other_towns_invoice(
    riverside: Town, login: Any
) -> None:
    b = _books(riverside)
    before = Payment.objects.count()
    with pytest.raises(Forbidden, match=f"{RIVERSIDE}'s books, a town you do not act for"):
        record_payment(riverside.u("hclerk"), person=b.person, amount="1.00", method="cash",
                       allocations=[Allocation(b.theirs)])  # fmt: skip
    c = login("hclerk")
    form = {"person": b.person.pk, "amount": "1.00", "method": "cash", "invoices": [b.theirs.pk]}
    assert c.post("/billing/payments/new/", form).status_code == 400
    r = c.post("/api/billing/payments/", {**form, "invoices": [b.theirs.pk]},
               content_type="application/json")  # fmt: skip
    assert r.status_code == 400 and f"No invoice {b.theirs.pk}" in r.json()["detail"]
    assert Payment.objects.count() == before


def test_a_payment_spanning_two_towns_invoices_is_refused(riverside: Town, login: Any) -> None:
    b = _books(riverside)
    before = Payment.objects.count()
    with pytest.raises(Blocked, match=rf"several towns \({HOME}, riverside\.yaml\)"):
        record_payment(riverside.u("bothclerk"), person=b.person, amount="5.00", method="cash",
                       allocations=[Allocation(b.mine), Allocation(b.theirs)])  # fmt: skip
    c = login("bothclerk")
    form = {"person": b.person.pk, "amount": "5.00", "method": "cash",
            "invoices": [b.mine.pk, b.theirs.pk]}  # fmt: skip
    page = c.post("/billing/payments/new/", form)
    assert page.status_code == 400 and "record one payment per town" in page.content.decode()
    r = c.post("/api/billing/payments/", form, content_type="application/json")
    assert r.status_code == 409 and "several towns" in r.json()["detail"]
    assert Payment.objects.count() == before


def test_a_payment_applied_to_nothing_is_the_clerks_towns(riverside: Town) -> None:
    person = riverside.owner_person
    assert person is not None

    def pay(user: str, town: str = "") -> str:
        made = record_payment(riverside.u(user), person=person, amount="3.00", method="cash",
                              town=town)  # fmt: skip
        return made.jurisdiction

    assert (pay("hclerk"), pay("oclerk"), pay("bothclerk")) == (HOME, RIVERSIDE, HOME)
    assert pay("bothclerk", RIVERSIDE) == RIVERSIDE
    with pytest.raises(Forbidden):
        pay("hclerk", RIVERSIDE)
    with pytest.raises(InvalidInput):
        pay("bothclerk", "elsewhere")


def test_credit_pays_and_is_refunded_in_its_own_towns_books(riverside: Town) -> None:
    b = _books(riverside)
    both = riverside.u("bothclerk")
    held = record_payment(riverside.u("oclerk"), person=b.person, amount="4.00", method="cash")
    assert held.jurisdiction == RIVERSIDE
    with pytest.raises(Blocked, match=rf"held in {RIVERSIDE}'s books and invoice {b.mine.number} "
                       rf"is {HOME}'s"):  # fmt: skip
        credit.apply_credit(both, person=b.person, allocations=[Allocation(b.mine)])
    with pytest.raises(Blocked, match=rf"{held.receipt_number} is in {RIVERSIDE}'s books"):
        apply_plan(both, [held], [(b.mine, Decimal("1.00"))], at("2026-03-05"))
    done = credit.apply_credit(both, person=b.person, allocations=[Allocation(b.theirs)])
    assert [a.payment_id for a in done] == [held.pk]
    with pytest.raises(Blocked, match=f"credit in {HOME}'s books"):
        credit.refund(riverside.u("hclerk"), person=b.person, amount="1.00", reason="x",
                      method="cash")  # fmt: skip
    with pytest.raises(Forbidden):
        credit.refund(riverside.u("hclerk"), person=b.person, amount="1.00", reason="x",
                      method="cash", payment=held)  # fmt: skip
    assert not Refund.objects.exists()


# --- billing runs ----------------------------------------------------------------------------------


def test_a_run_of_two_towns_is_theirs_who_act_for_both(riverside: Town, login: Any) -> None:
    for est in (riverside.owner_restaurant, riverside.other_plant):
        assert est is not None
        sample_day(est, date(2026, 1, 10), "600", "250", "80")
        flow_meter(est, date(2026, 1, 5), ["20000", "20000", "20000"])
        decide(riverside, est, date(2025, 12, 1))
    with pytest.raises(Forbidden, match=f"you do not act for {RIVERSIDE}"):
        runs.create_run("2026-Q1", riverside.u("hclerk"))
    run = runs.create_run("2026-Q1", riverside.u("bothclerk"))
    for user, status in (("hclerk", 404), ("oclerk", 404), ("bothclerk", 200)):
        c = login(user)
        assert c.get(f"/billing/runs/{run.pk}/").status_code == status, user
        listed = f'href="/billing/runs/{run.pk}/"' in c.get("/billing/runs/").content.decode()
        assert listed == (status == 200), user
        assert len(c.get("/api/billing/runs/").json()["results"]) == (status == 200)
    assert login("hclerk").post(f"/billing/runs/{run.pk}/issue/").status_code == 404
    with pytest.raises(Forbidden):
        runs.issue_run(run, riverside.u("oclerk"), DAY)
    runs.issue_run(run, riverside.u("bothclerk"), DAY)
    towns = dict(Invoice.objects.filter(run=run).values_list("establishment_id", "jurisdiction"))
    assert towns == {
        riverside.owner_restaurant.pk: HOME,  # type: ignore[union-attr]
        riverside.other_plant.pk: RIVERSIDE,  # type: ignore[union-attr]
    }
    mine = _numbers(login("hclerk").get("/api/billing/invoices/"))
    assert mine == {Invoice.objects.get(run=run, jurisdiction=HOME).number}


# --- the payment page and the lists, for an account of several towns ----------------------------


def test_a_clerk_of_both_towns_chooses_the_books_of_an_advance(riverside: Town, login: Any) -> None:
    b = _books(riverside)
    river = escape(values_of(RIVERSIDE).name)  # as the page writes it
    page = login("bothclerk").get(f"/billing/payments/new/?person={b.person.pk}")
    body = page.content.decode()
    assert "Into the books of" in body and f'value="{RIVERSIDE}"' in body and river in body
    # a clerk of one town has their town's books only: nothing to choose
    one = login("hclerk").get(f"/billing/payments/new/?person={b.person.pk}").content.decode()
    assert "Into the books of" not in one
    # money paid ahead of any invoice, received into the member town's books
    c = login("bothclerk")
    form = {"person": b.person.pk, "amount": "7.00", "method": "cash", "town": RIVERSIDE}
    assert c.post("/billing/payments/new/", form).status_code == 302
    advance = Payment.objects.latest("id")
    assert (advance.amount, advance.jurisdiction) == (Decimal("7.00"), RIVERSIDE)
    # the money lists name each row's town to an account of both; not to a clerk of one
    for url, number in (("/billing/payments/", advance.receipt_number),
                        ("/billing/invoices/", b.theirs.number)):  # fmt: skip
        both = login("bothclerk").get(url).content.decode()
        assert "<th>Town</th>" in both and number in both and river in both
        assert "<th>Town</th>" not in login("hclerk").get(url).content.decode()
