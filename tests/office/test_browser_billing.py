"""Headless Chromium, as the clerk: a permit's fee invoiced and paid at the desk (the permit
moves on by itself), a surcharge invoice partly paid on the payment page, the receipt, and
the owner's statement printed.

Uses the Debian ``chromium`` package through playwright's ``executable_path``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.billing.models import Payment
from sewer_office.billing.payments import outstanding
from sewer_office.permits.models import BuildingSewerPermit

from .billing_money_factories import invoice
from .browser_support import BROWSER_MARKS
from .factories import make_town, new_record
from .test_browser import _pay_fee_at_the_desk, _sign_in, _succeeded

pytestmark = BROWSER_MARKS


def test_clerk_records_payments_and_prints_the_statement(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTION = "demo"  # the demo's EXAMPLE fee amounts
    town = make_town()
    base = live_server.url
    permit = new_record("building-sewer", town)
    today = timezone.localdate()
    surcharge = invoice(
        town,
        town.owner_person,  # type: ignore[arg-type]
        "480.00",
        issued_on=today - timedelta(days=45),
        due_on=today - timedelta(days=15),
    )

    clerk = _sign_in(browser, base, "clerk")
    assert clerk.locator("#overdue-invoices", has_text=surcharge.number).count() == 1
    receipt = _pay_fee_at_the_desk(clerk, base, permit.number, "200.00")
    permit = BuildingSewerPermit.objects.get(pk=permit.pk)
    assert permit.state == "plan_review" and permit.fee_receipt == receipt

    # part of the surcharge, from the owner's statement
    clerk.goto(f"{base}/billing/statements/{town.owner_person.pk}/")  # type: ignore[union-attr]
    clerk.locator("a", has_text="Record a payment").click()
    form = clerk.locator("#payment-form")
    form.locator("label", has_text=surcharge.number).locator("input[name=invoices]").check()
    form.locator("[name=amount]").fill("300.00")
    form.locator("[name=method]").select_option("cash")
    form.locator("#save-payment").click()
    _succeeded(clerk)
    assert "USD 300.00" in clerk.locator("#payment-amount").inner_text()
    assert outstanding(surcharge) == 180
    pdf = clerk.request.get(base + str(clerk.locator("#receipt-pdf").get_attribute("href")))
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    clerk.goto(f"{base}/billing/statements/{town.owner_person.pk}/")  # type: ignore[union-attr]
    assert clerk.locator("#balance").inner_text() == "USD 180.00"
    rows = clerk.locator("#statement tr").all_inner_texts()
    assert any(surcharge.number in r for r in rows) and any(receipt in r for r in rows)
    printed = clerk.request.get(base + str(clerk.locator("#statement-pdf").get_attribute("href")))
    assert printed.ok and printed.headers["content-type"] == "application/pdf"
    assert Payment.objects.count() == 2

    clerk.goto(f"{base}/billing/aging/")
    assert "180.00" in clerk.locator("#aging").inner_text()
