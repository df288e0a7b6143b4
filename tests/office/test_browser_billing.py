"""Headless Chromium, as the clerk: a billing period run, reviewed and issued; a permit's fee
invoiced and paid at the desk (the permit moves on by itself); the period's surcharge invoice
partly paid on the payment page, the receipt, and the owner's statement printed.

Uses the Debian ``chromium`` package through playwright's ``executable_path``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_office.billing.models import Invoice, Payment
from sewer_office.billing.payments import outstanding
from sewer_office.permits.models import BuildingSewerPermit

from .browser_support import BROWSER_MARKS
from .factories import make_town, new_record
from .test_billing_core_runs import decide, flow_meter, sample_day
from .test_browser import _pay_fee_at_the_desk, _sign_in, _succeeded

pytestmark = BROWSER_MARKS


def test_clerk_records_payments_and_prints_the_statement(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTION = "demo"  # the demo's EXAMPLE fee amounts
    town = make_town()
    base = live_server.url
    permit = new_record("building-sewer", town)
    diner = town.owner_restaurant
    assert diner is not None
    sample_day(diner, date(2026, 1, 10), "600", "250", "80")
    sample_day(diner, date(2026, 2, 10), "400", "250", "60")
    flow_meter(diner, date(2026, 1, 5), ["20000", "20000", "20000"])
    decide(town, diner, date(2025, 12, 1))  # the Superintendent's § 196-19 E(1)(d) decision

    clerk = _sign_in(browser, base, "clerk")
    # run the billing period, review its lines, issue
    clerk.goto(f"{base}/billing/runs/")
    clerk.fill("input[name=period]", "2026-Q1")
    clerk.locator("button", has_text="Compute the draft run").click()
    _succeeded(clerk)
    assert "Draft" in clerk.locator("h1").inner_text()
    row = clerk.locator("tr", has_text=diner.name)
    assert "Surcharge due" in row.inner_text() and "mg/l" in row.inner_text()
    clerk.locator("button", has_text="Issue").click()
    _succeeded(clerk)
    surcharge = Invoice.objects.get(run__period="2026-Q1", establishment=diner)
    assert surcharge.person == town.owner_person and surcharge.total > 0
    receipt = _pay_fee_at_the_desk(clerk, base, permit.number, "200.00")
    permit = BuildingSewerPermit.objects.get(pk=permit.pk)
    assert permit.state == "plan_review" and permit.fee_receipt == receipt

    # part of the surcharge, from the owner's statement
    clerk.goto(f"{base}/billing/statements/{town.owner_person.pk}/")  # type: ignore[union-attr]
    clerk.locator("a", has_text="Record a payment").click()
    form = clerk.locator("#payment-form")
    form.locator("label", has_text=surcharge.number).locator("input[name=invoices]").check()
    form.locator("[name=amount]").fill("100.00")
    form.locator("[name=method]").select_option("cash")
    form.locator("#save-payment").click()
    _succeeded(clerk)
    assert "USD 100.00" in clerk.locator("#payment-amount").inner_text()
    left = surcharge.total - 100
    assert outstanding(surcharge) == left
    pdf = clerk.request.get(base + str(clerk.locator("#receipt-pdf").get_attribute("href")))
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    clerk.goto(f"{base}/billing/statements/{town.owner_person.pk}/")  # type: ignore[union-attr]
    assert clerk.locator("#balance").inner_text() == f"USD {left}"
    rows = clerk.locator("#statement tr").all_inner_texts()
    assert any(surcharge.number in r for r in rows) and any(receipt in r for r in rows)
    printed = clerk.request.get(base + str(clerk.locator("#statement-pdf").get_attribute("href")))
    assert printed.ok and printed.headers["content-type"] == "application/pdf"
    assert Payment.objects.count() == 2

    clerk.goto(f"{base}/billing/aging/")
    assert f"USD {left:,}" in clerk.locator("#aging").inner_text()  # to the cent, grouped
