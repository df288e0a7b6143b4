"""Numbers as people read them: exact in the record, rounded on the page and in downloads
(amounts to the cent, measured values as reported, computed ones to four significant figures),
parameters in words; and an invoice's paid, balance and status, computed from its payments and
credit notes."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.template import Context, Template
from django.utils import timezone
from openpyxl import load_workbook

from sewer_office.billing.balances import with_balance
from sewer_office.billing.invoices import credit_note, void_invoice
from sewer_office.billing.models import Invoice
from sewer_office.billing.payments import Allocation, outstanding_of, record_payment
from sewer_office.core import reading
from sewer_office.core.exports import Amount, Column, xlsx_bytes
from sewer_office.registry.models import Person

from .billing_money_factories import invoice
from .factories import Town

D = Decimal
MEAN = "129.0384615384615384615384615"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (MEAN, "129.0"),
        ("909.6694615384615384615384611", "909.7"),
        ("51660.920139", "51,661"),
        ("0.0123456789", "0.01235"),
        ("95", "95"),  # rounding never adds digits
        ("0.322", "0.322"),
        ("-12.34567", "−12.35"),
        ("0", "0"),
        ("ND", "ND"),
    ],
)
def test_a_computed_quantity_has_four_significant_figures(value: str, shown: str) -> None:
    assert reading.quantity(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("234.3096055384615384615384616", "USD 234.31"),
        ("1234.565", "USD 1,234.57"),  # half-up, not banker's
        ("-5", "USD −5.00"),
        (D("0"), "USD 0.00"),
    ],
)
def test_an_amount_is_shown_to_the_cent(value: Any, shown: str) -> None:
    assert reading.amount(value) == shown


def test_a_measured_value_keeps_the_digits_reported() -> None:
    assert reading.measured("0.050") == "0.050"
    assert reading.measured("12500") == "12,500"
    assert reading.measured("<0.5") == "<0.5"
    # more digits than any laboratory reports: computed, shown as a quantity
    assert reading.measured("80.84615384615384615384615385") == "80.85"


def test_software_text_has_its_long_numbers_rounded_and_keys_in_words() -> None:
    step = (
        "2026-07-01–2026-09-30 (92 d, 1.38 MG): grease_oil excess 79.0384615384615384615384615"
        " mg/l × 1.38 MG × 8.34 = 909.6694615384615384615384611 lb × USD 0.55/lb"
        " = USD 500.3182038461538461538461536"
    )
    assert reading.readable(step) == (
        "2026-07-01–2026-09-30 (92 d, 1.38 MG): grease or oil excess 79.04 mg/l × 1.38 MG"
        " × 8.34 = 909.7 lb × USD 0.55/lb = USD 500.32"
    )
    # short numbers, rates, dates and codes are left as written
    kept = "BOD: 245.25 mg/l; 15000 gpd = 0.015 MGD; R2026-0001; USD 0.4500/lb"
    assert reading.readable(kept) == kept


def test_a_parameter_in_words_with_its_authority() -> None:
    factor = {
        "name": "surcharge.pounds_factor",
        "value": "8.34",
        "unit": "1",
        "effective": "1992-09-28",
        "authority": "",
        "reference": "§ 196-19 E(1)(d)",
    }
    assert reading.parameter_words(factor) == (
        "Pounds factor: 8.34 since September 28, 1992 (§ 196-19 E(1)(d); no authority recorded)"
    )
    rate = {
        "name": "surcharge.rate.grease_oil",
        "value": "0.55",
        "unit": "USD/lb",
        "effective": "2020-01-01",
        "authority": "Resolution 2019-88",
        "reference": "§ 196-19 E(1)(d)",
    }
    assert reading.parameter_words(rate) == (
        "Surcharge rate grease or oil: USD 0.55 per lb since January 1, 2020"
        " (§ 196-19 E(1)(d); Resolution 2019-88)"
    )


def test_the_filters_round_and_keep_the_exact_value_on_hover(settings: Any) -> None:
    html = Template(
        "{% load office %}{{ a|amount }}|{{ q|quantity }}|{{ m|measured }}|{{ p|param }}"
    ).render(
        Context(
            {
                "a": D("234.3096055384615384615384616"),
                "q": MEAN,
                "m": "0.050",
                "p": {"name": "invoice.due_days", "value": "30", "unit": "1"},
            }
        )
    )
    amount, quantity, measured, param = html.split("|")
    assert ">USD 234.31<" in amount and 'title="234.3096055384615384615384616"' in amount
    assert ">129.0<" in quantity and f'title="{MEAN}"' in quantity
    assert measured == "0.050"
    assert "Days to pay an invoice: 30" in param and 'title="invoice.due_days' in param
    assert "invoice.due_days" not in param.split(">", 1)[1]


def test_a_download_types_its_cells() -> None:
    from openpyxl.cell import Cell

    rows = [{"on": date(2026, 3, 4), "mean": D(MEAN), "due": D("234.3096"), "n": 3}]
    columns = [
        Column("On", lambda r: r["on"]),
        Column("Mean", lambda r: r["mean"]),
        Amount("Due", lambda r: r["due"]),
        Column("Count", lambda r: r["n"]),
    ]
    sheet = load_workbook(io.BytesIO(xlsx_bytes(rows, columns, "t"))).active
    assert sheet is not None
    on, mean, due, count = (sheet.cell(row=2, column=i) for i in range(1, 5))
    assert isinstance(on, Cell) and on.is_date
    assert mean.value == 129.0  # a number, rounded as the page rounds it (four figures)
    assert due.value == pytest.approx(234.31) and "USD" in str(due.number_format)
    assert count.value == 3


# --- an invoice's paid, balance and status -------------------------------------------------


def _owner(town: Town) -> Person:
    assert town.owner_person is not None
    return town.owner_person


def _invoice(town: Town, amount: str) -> Invoice:
    on = timezone.localdate() - timedelta(days=10)
    return invoice(town, _owner(town), amount, issued_on=on, due_on=on + timedelta(days=30))


def _pay(town: Town, amount: str, inv: Invoice) -> None:
    record_payment(
        town.u("clerk"),
        person=_owner(town),
        amount=amount,
        method="cash",
        allocations=[Allocation(inv)],
    )


def _figures(inv: Invoice) -> tuple[Decimal, Decimal, str]:
    fresh = Invoice.objects.get(pk=inv.pk)  # the properties query for one invoice
    listed = with_balance(Invoice.objects.filter(pk=inv.pk)).get()  # the list's annotation
    assert (fresh.paid, fresh.balance, fresh.status) == (
        listed.paid,
        listed.balance,
        listed.status,
    )
    assert fresh.balance == outstanding_of([fresh])[fresh.pk]  # the payments module's rule
    return fresh.paid, fresh.balance, fresh.status


def test_an_invoice_goes_from_issued_to_part_paid_to_paid(town: Town) -> None:
    inv = _invoice(town, "300.00")
    assert _figures(inv) == (D("0.00"), D("300.00"), "issued")
    _pay(town, "120.00", inv)
    assert _figures(inv) == (D("120.00"), D("180.00"), "part_paid")
    _pay(town, "180.00", inv)
    assert _figures(inv) == (D("300.00"), D("0.00"), "paid")
    assert Invoice.objects.get(pk=inv.pk).status_label == "Paid"


def test_credited_void_and_credit_notes_have_their_own_status(town: Town) -> None:
    credited = _invoice(town, "200.00")
    note = credit_note(credited, town.u("clerk"), "billed twice")
    assert _figures(credited) == (D("0.00"), D("0.00"), "credited")
    assert _figures(note)[2] == "credit_note"
    voided = _invoice(town, "50.00")
    void_invoice(voided, town.u("clerk"), "wrong person")
    assert _figures(voided) == (D("0.00"), D("0.00"), "void")


def test_the_invoice_pages_show_paid_balance_status_and_link_to_pay(town: Town, login: Any) -> None:
    inv = _invoice(town, "300.00")
    _pay(town, "120.00", inv)
    other = _invoice(town, "80.00")
    client = login("clerk")
    page = client.get(f"/billing/invoices/{inv.pk}/").content.decode()
    assert "Part paid" in page
    assert "USD 120.00" in page and "USD 180.00" in page
    assert f"/billing/statements/{inv.person_id}/" in page
    assert f"/billing/payments/new/?person={inv.person_id}" in page
    listed = client.get("/billing/invoices/?status=part_paid").content.decode()
    assert inv.number in listed and other.number not in listed
    body = client.get("/billing/invoices/?status=part_paid&format=csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [(r["Number"], r["Paid"], r["Balance"], r["Status"]) for r in rows] == [
        (inv.number, "120.00", "180.00", "Part paid")
    ]
    api = client.get(f"/api/billing/invoices/{inv.pk}/").json()
    assert (api["paid"], api["balance"], api["status"]) == ("120.00", "180.00", "part_paid")
