"""Headless Chromium: the whole chain a town runs, clicked as its staff click it.

A laboratory result below the pH minimum is imported; the Superintendent finds it in the
Results list, opens a violation from it (the form filled from the finding), and issues the
notice; the clerk, from the dashboard's notices to serve, records its mailing by certified
mail and then its delivery (the deadline appears). The office's clock moves past the deadline
(``django.utils.timezone.now``, which the live server reads too) and the daily run
(``sewer-use flag-overdue``) starts the fines; the owner reports its correction late and the
Superintendent verifies it. The clerk records the Town's cost, bills it, follows the invoice,
records its payment, sees it paid and the statement; the Superintendent refers the fine for
the days late to the Town Attorney (the referral answers a PDF); the clerk records the court's
judgment. Last, an industrial user signs its overdue report and its home shows it "submitted,
in review".

After signing in, every page is reached by clicking from the dashboard (its queues, the
header's menu); ``goto`` only opens the sign-in page.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.accounts import roles
from sewer_office.accounts.services import create_user
from sewer_office.enforcement.models import Violation
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import LabResult
from sewer_office.pretreatment import report_dues
from sewer_office.registry.choices import EstablishmentKind, PersonKind
from sewer_office.registry.models import Establishment, Person
from sewer_office.reports import services as reports

from .browser_support import BROWSER_MARKS
from .factories import PASSWORD, Town, make_town
from .monitoring_factories import facilities, sampling_point
from .smtp_support import Inbox
from .test_browser import _act, _sign_in, _succeeded

pytestmark = BROWSER_MARKS

DAYS_LATER = 25  # the period is 10 days from service (the next business day at most 4 more)
COURT_DAYS = 30  # from the referral to the court's judgment
HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"


def _prohibited_result(town: Town, sampled: datetime) -> LabResult:
    """A grab sample of the owner's diner below the pH minimum, imported as the laboratory's
    file is (the rules record the prohibited finding)."""
    facilities(town)
    row = f"CH-1,{timezone.localtime(sampled):%Y-%m-%dT%H:%M},grab,pH,4.8,SU,OWNER-CAFE,CM-1\n"
    imp = import_lab_file((HEADER + row).encode(), "lab.csv", town.u("superintendent"))
    assert imp.lab_import is not None
    result = LabResult.objects.get(lab_import=imp.lab_import)
    assert result.findings.filter(status="prohibited").exists()
    return result


def _acme(town: Town, due_on: date) -> Establishment:
    """An industrial user like the demo's: ``acme`` represents Acme Plating, which owes a
    periodic compliance report due ``due_on`` and has ``acme`` as its authorized signatory."""
    acme = create_user("acme", PASSWORD, (roles.APPLICANT,))
    acme.email = "acme@example.org"
    acme.save(update_fields=["email"])
    company = Person.objects.create(name="Acme Plating Corp.", kind=PersonKind.CORPORATION)
    company.representatives.add(acme)
    assert town.other_plant is not None
    plant = Establishment.objects.create(
        name="Acme Plating",
        code="ACME-PLATING",
        operator=company,
        building=town.other_plant.building,
        kind=EstablishmentKind.INDUSTRIAL,
    )
    sampling_point(plant, manhole="MH03")
    su = town.u("superintendent")
    report_dues.add_requirement(su, plant, kind="periodic", first_due=due_on, every_months=6)
    reports.record_signatory(
        su, plant, user=acme, kind="authorized", title="Plant manager",
        authorization="Letter of the president", valid_from=due_on - timedelta(days=200),
    )  # fmt: skip
    return plant


def _open(page: Any, selector: str, text: str) -> None:
    """Click the link ``text`` inside ``selector`` and wait for the page it leads to."""
    with page.expect_navigation():
        page.locator(selector).get_by_role("link", name=text).first.click()


def _menu(page: Any, label: str) -> None:
    """Follow the header's menu to ``label``'s list."""
    with page.expect_navigation():
        page.locator("nav.site").get_by_role("link", name=label, exact=True).click()


def _in_box(page: Any, action: str) -> Any:
    box = page.locator(f"#action-{action}")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    return box


def test_a_prohibited_result_to_the_money_the_court_and_a_signed_report(
    live_server: Any, browser: Any, monkeypatch: pytest.MonkeyPatch, settings: Any, smtp: Inbox
) -> None:
    settings.SEWER_USE_JURISDICTION = "demo"  # the demo's labelled EXAMPLE daily amounts
    town = make_town()
    base = live_server.url
    start = timezone.now()
    today0 = timezone.localdate(start)
    result = _prohibited_result(town, start - timedelta(days=1))
    report_due = today0 + timedelta(days=5)  # overdue once the clock has moved on
    plant = _acme(town, report_due)

    # 1. The Superintendent, from the Results list: the result, "Open a violation", the form
    su = _sign_in(browser, base, "superintendent")
    _menu(su, "Results")
    with su.expect_navigation():
        su.locator("tr.result", has_text="CH-1").locator("a").first.click()
    assert su.url == f"{base}/monitoring/results/{result.pk}/"
    with su.expect_navigation():
        su.get_by_role("link", name="Open a violation").click()
    su.wait_for_selector("#id_description")
    nature = su.locator("#id_description").input_value()
    assert nature.startswith("pH 4.8 below the minimum of 5.5 on "), nature
    assert not re.search(r"_|mg/l|\d{2}:\d{2}", nature), nature  # words, not the rules' keys
    assert su.locator("#id_section").input_value() == "§ 196-19 C(3)"
    with su.expect_navigation():
        su.get_by_role("button", name="Open the violation").click()
    _succeeded(su)
    violation = Violation.objects.get(finding__result=result)
    url = f"{base}/enforcement/{violation.pk}/"
    assert su.url == url and "§ 196-19 C(3)" in su.locator("h1").inner_text()
    assert violation.description == nature and violation.person == town.owner_person

    # 2. The notice, its service by certified mail and delivery, the deadline
    _act(su, "issue_notice")
    assert "Notice issued" in su.locator("h1").inner_text()

    clerk = _sign_in(browser, base, "clerk")
    _open(clerk, "#notices-to-serve", violation.number)
    box = _in_box(clerk, "serve")
    box.locator("[name=service_method]").select_option("certified_mail")
    served = f"{today0:%Y-%m-%d}"
    _act(clerk, "serve", {"served_on": served, "receipt_number": "7022 0410 77"})
    assert "not yet delivered" in clerk.locator("h1").inner_text()
    box = _in_box(clerk, "record_delivery")
    box.locator("[name=delivery_proof]").select_option("return_receipt")
    _act(clerk, "record_delivery", {"delivered_on": served})
    assert "correction period running" in clerk.locator("h1").inner_text()
    shown = re.search(r"deadline (\d{4}-\d{2}-\d{2})", clerk.locator("#notices").inner_text())
    assert shown, clerk.locator("#notices").inner_text()
    deadline = date.fromisoformat(shown.group(1))
    assert deadline > today0

    # The period passes: the office's clock moves on, the daily run records it.
    later = start + timedelta(days=DAYS_LATER)

    def moved() -> datetime:
        return later

    monkeypatch.setattr(timezone, "now", moved)
    today = timezone.localdate()
    assert today > deadline
    from sewer_cli.main import main

    assert main(["flag-overdue"]) == 0

    # the owner reports the correction, late; the Superintendent verifies it
    owner = _sign_in(browser, base, "owner")
    _open(owner, "#my-violations", "Report the correction")
    _act(owner, "report_correction", {"description": "pH adjustment unit repaired"})
    assert "Correction reported" in owner.locator("h1").inner_text()
    su = _sign_in(browser, base, "superintendent")
    _open(su, "#corrections-to-verify", violation.number)
    _act(su, "verify", {"note": "pH 7.2 SU at the control manhole on the follow-up visit"})
    assert "Correction verified" in su.locator("h1").inner_text()
    fines = su.locator("#fines").inner_text()
    assert "day(s) of continuing violation" in fines and "subject to conviction" in fines

    # 3. The Town's cost, billed; the invoice, paid; the statement
    clerk = _sign_in(browser, base, "clerk")
    _menu(clerk, "Enforcement")
    _open(clerk, "main", violation.number)
    assert clerk.url == url
    record = clerk.locator("details", has=clerk.locator("summary", has_text="Record a cost"))
    record.locator("summary").click()
    record.locator("[name=category]").select_option("laboratory")
    record.locator("[name=description]").fill("Follow-up pH analysis, sample CH-2")
    record.locator("[name=amount]").fill("85.00")
    record.locator("[name=incurred_on]").fill(f"{today:%Y-%m-%d}")
    with clerk.expect_navigation():
        record.locator("button[type=submit]").click()
    _succeeded(clerk)
    assert "Follow-up pH analysis" in clerk.locator("main").inner_text()
    with clerk.expect_navigation():
        clerk.locator("#bill-costs").get_by_role("button", name="Bill the Town's costs").click()
    _succeeded(clerk)
    issued = re.search(r"Invoice (\S+) issued", clerk.locator(".messages .success").inner_text())
    assert issued, clerk.locator(".messages").inner_text()
    number = issued.group(1)
    assert clerk.url.startswith(url), clerk.url  # back on the violation, which lists it
    with clerk.expect_navigation():
        clerk.locator("main").get_by_role("link", name=re.compile(re.escape(number))).first.click()
    assert number in clerk.locator("h1").inner_text()
    assert clerk.locator("#invoice-total").inner_text() == "USD 85.00"
    assert "Follow-up pH analysis" in clerk.locator("main table").first.inner_text()
    with clerk.expect_navigation():
        clerk.locator("#invoice-record-payment").click()
    pay = clerk.locator("#payment-form")
    pay.locator("label", has_text=number).locator("input[name=invoices]").check()
    pay.locator("[name=amount]").fill("85.00")
    pay.locator("[name=method]").select_option("check")
    pay.locator("[name=reference]").fill("2207")
    with clerk.expect_navigation():
        pay.locator("#save-payment").click()
    _succeeded(clerk)
    receipt = clerk.locator("h1").inner_text().split()[-1]
    assert clerk.locator("#payment-amount").inner_text() == "USD 85.00"
    with clerk.expect_navigation():
        clerk.locator("main table").get_by_role("link", name=number).click()
    assert clerk.locator("#invoice-status").inner_text().strip().lower() == "paid"
    assert clerk.locator("#invoice-balance").inner_text() == "USD 0.00"
    with clerk.expect_navigation():
        clerk.locator("#invoice-statement").click()
    rows = clerk.locator("#statement tr").all_inner_texts()
    assert any(number in r for r in rows) and any(receipt in r for r in rows), rows
    assert clerk.locator("#balance").inner_text() == "USD 0.00"

    # the Superintendent refers the fine for the days late to the Town Attorney (§ 196-22 B):
    # the violation is corrected, the liability for the days it continued is not
    su = _sign_in(browser, base, "superintendent")
    _menu(su, "Enforcement")
    _open(su, "main", violation.number)
    assert "Correction verified" in su.locator("h1").inner_text()
    _act(su, "refer_fine", {"referred_to": "Town Attorney of Wappinger"})
    assert "Correction verified" in su.locator("h1").inner_text()  # it stays corrected
    referral = su.locator("#referrals li").first
    assert "Town Attorney, for prosecution" in referral.inner_text()
    pdf = su.request.get(
        base + str(referral.get_by_role("link", name="referral (PDF)").get_attribute("href"))
    )
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    # 4. Weeks later the court decides: the clerk records its judgment on the violation's page
    court_day = later + timedelta(days=COURT_DAYS)

    def at_court() -> datetime:
        return court_day

    monkeypatch.setattr(timezone, "now", at_court)
    judged = timezone.localdate() - timedelta(days=2)
    clerk = _sign_in(browser, base, "clerk")
    _menu(clerk, "Enforcement")
    _open(clerk, "main", violation.number)
    assert clerk.url.startswith(url), clerk.url
    box = clerk.locator("#record-judgment")
    box.locator("summary").click()
    box.locator("[name=court]").fill("Town of Wappinger Justice Court")
    box.locator("[name=docket]").fill("CR-2026-0417")
    box.locator("[name=judgment_on]").fill(f"{judged:%Y-%m-%d}")
    box.locator("[name=fine_amount]").fill("250.00")
    with clerk.expect_navigation():
        box.get_by_role("button", name="Record the judgment").click()
    _succeeded(clerk)
    judgment = clerk.locator("main").inner_text()
    assert "Town of Wappinger Justice Court" in judgment and "CR-2026-0417" in judgment
    assert f"{judged:%Y-%m-%d}" in judgment and "USD 250.00" in judgment

    # 5. Acme's overdue report, signed: its home shows it submitted, in review
    acme = _sign_in(browser, base, "acme")
    due = acme.locator("#reports-next li.report-due", has_text=plant.name).filter(
        has_text=f"{report_due:%Y-%m-%d}"
    )
    assert due.get_attribute("data-status") == "overdue", due.inner_text()
    with acme.expect_navigation():
        due.get_by_role("link").first.click()
    with acme.expect_navigation():
        acme.get_by_role("button", name="Assemble and preview").click()
    _succeeded(acme)
    assert "I certify under penalty of law" in acme.locator("#certification").inner_text()
    with acme.expect_navigation():
        acme.get_by_role("button", name="E-mail me a code").click()
    _succeeded(acme)
    code = re.search(r"is (\d{6})\.", smtp.messages[-1].body)
    assert code, smtp.messages[-1].body
    acme.fill("input[name=password]", PASSWORD)
    acme.fill("input[name=code]", code.group(1))
    with acme.expect_navigation():
        acme.get_by_role("button", name=re.compile("^Sign this report")).click()
    _succeeded(acme)
    with acme.expect_navigation():
        acme.locator("header a.brand").click()
    due = acme.locator("#reports-next li.report-due", has_text=plant.name).filter(
        has_text=f"{report_due:%Y-%m-%d}"
    )
    assert due.get_attribute("data-status") == "in_review"
    assert "submitted, in review" in due.inner_text() and "overdue" not in due.inner_text()
