"""Headless Chromium, as the people the article governs meet the portal:

- a newcomer registers, confirms the e-mail address from the message that arrived at a real
  SMTP server on 127.0.0.1, asks to be linked with a document; the clerk checks and confirms;
  the newcomer applies for a building sewer permit with plans and sees it move when the fee is
  paid at the desk;
- an industrial user uploads its self-monitoring results, assembles its periodic compliance
  report, signs it with the password and the e-mailed code, gets the acknowledgment; the clerk
  accepts it; the verification page proves the copy of record.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

from sewer_office.pretreatment import report_dues
from sewer_office.reports import services as reports
from sewer_office.reports.models import Report

from .browser_support import BROWSER_MARKS
from .factories import PASSWORD, make_town
from .monitoring_factories import facilities
from .pretreatment_factories import at, sup
from .smtp_support import Inbox
from .test_browser import _pay_fee_at_the_desk, _sign_in, _succeeded

pytestmark = BROWSER_MARKS

NEW_PASSWORD = "Dutchess-County-1"


def _link_in(smtp: Inbox, pattern: str) -> str:
    found = re.search(pattern, smtp.messages[-1].body)
    assert found, smtp.messages[-1].body
    return found.group(1)


def test_newcomer_registers_is_linked_and_applies(
    live_server: Any, browser: Any, smtp: Inbox, tmp_path: Path
) -> None:
    town = make_town()
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.click("a:has-text('Register')")
    page.fill("input[name=name]", "Nico Alvarez")
    page.fill("input[name=email]", "nico@example.org")
    page.fill("input[name=username]", "nico")
    page.fill("input[name=password]", NEW_PASSWORD)
    page.fill("input[name=password_again]", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/portal/register/sent/")
    verify = _link_in(smtp, r"http://[^/]+(/portal/verify/\S+/)")
    page.goto(base + verify)
    assert "Your e-mail address is confirmed" in page.content()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "nico")
    page.fill("input[name=password]", NEW_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
    assert "not yet linked to any person" in page.content()
    # until linked, the owner's property does not exist for this account
    page.goto(f"{base}/registry/properties/{town.owner_home.pk}/")
    assert "Not found" in page.content()
    letter = tmp_path / "authorization.pdf"
    letter.write_bytes(b"%PDF-1.4 signed authorization of Olive Owner")
    page.goto(f"{base}/portal/links/new/")
    page.select_option("select[name=relation]", "representative")
    page.fill("input[name=person_name]", "Olive Owner")
    page.fill("input[name=place]", "100-01 Main St")
    page.set_input_files("input[name=document]", str(letter))
    page.click("main button[type=submit]")
    _succeeded(page)
    link_url = page.url

    clerk = _sign_in(browser, base, "clerk")
    assert clerk.locator("#portal-links").count() == 1  # the dashboard's queue
    clerk.goto(link_url)
    # the person is chosen by search: the match says what each owns
    clerk.fill("#id_person", "Olive")
    clerk.locator(".picker-list li[role=option]", has_text="100-01 Main St").click()
    assert clerk.locator("input[type=hidden][name=person]").input_value() == str(
        town.owner_person.pk
    )
    clerk.select_option("select[name=document_kind]", "authorization")
    clerk.fill("input[name=document_reference]", "Letter of Olive Owner, NY license 123 456 789")
    clerk.click("button:has-text('Record the check and link')")
    _succeeded(clerk)
    assert "Linked" in clerk.content()

    plans = tmp_path / "site-plan.pdf"
    plans.write_bytes(b"%PDF-1.4 site plan")
    page.goto(f"{base}/registry/properties/{town.owner_home.pk}/")
    assert "Not found" not in page.content()
    page.goto(f"{base}/permits/building-sewer/new/")
    page.select_option("select[name=applicant]", str(town.owner_person.pk))
    page.select_option("select[name=property]", str(town.owner_home.pk))
    page.select_option("select[name=permit_class]", "1")
    page.fill("input[name=diameter]", "4 in")
    page.fill("input[name=slope]", "1/4 in/ft")
    page.fill("input[name=length_ft]", "55")
    page.fill("input[name=building_drain_elevation_ft]", "101")
    page.fill("input[name=public_sewer_elevation_ft]", "96.5")
    page.check("input[name=connected_sources][value=sanitary_fixtures]")
    page.set_input_files("input[name=files]", str(plans))
    page.click("main button[type=submit]")
    _succeeded(page)
    permit_url = page.url
    number = page.locator("h1").inner_text().split(" ")[0]
    assert "Awaiting the filing fee — not yet filed" in page.locator("h1").inner_text()
    _pay_fee_at_the_desk(clerk, base, number, "200.00")
    page.goto(permit_url)
    assert "Plan review" in page.locator("h1").inner_text()


def test_industrial_user_signs_its_report_and_the_office_accepts_it(
    live_server: Any, browser: Any, smtp: Inbox, tmp_path: Path
) -> None:
    town = make_town()
    base = live_server.url
    f = facilities(town)
    owner = town.u("owner")
    owner.email = "olive@example.org"
    owner.save(update_fields=["email"])
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="periodic", first_due=date(2026, 7, 31), every_months=6,
        at=at("2026-01-02"),
    )  # fmt: skip
    due = req.dues.order_by("due_on").first()
    assert due is not None
    reports.record_signatory(
        town.u("superintendent"), f.mine, user=owner, kind="authorized", title="Manager",
        authorization="Letter of the owner", valid_from=date(2026, 1, 1),
    )  # fmt: skip

    user = _sign_in(browser, base, "owner")
    results = tmp_path / "cafe-2026-03.csv"
    results.write_text(
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
        "C-301,2026-03-02T07:00,composite,Copper,0.4,mg/l,OWNER-CAFE,CM-1\n"
        "G-301,2026-03-02T10:00,grab,pH,7.1,SU,OWNER-CAFE,CM-1\n",
        encoding="utf-8",
    )
    user.goto(f"{base}/monitoring/import/")
    user.set_input_files("input[name=file]", str(results))
    user.click("main button[type=submit]")
    _succeeded(user)

    user.goto(f"{base}/reports/")
    user.click("button:has-text('Assemble and preview')")
    _succeeded(user)
    report = Report.objects.get()
    assert "I certify under penalty of law" in user.locator("#certification").inner_text()
    assert "0.4" in user.content()  # the uploaded result is in the report
    user.click("button:has-text('E-mail me a code')")
    _succeeded(user)
    code = _link_in(smtp, r"is (\d{6})\.")
    user.fill("input[name=password]", PASSWORD)
    user.fill("input[name=code]", "000000" if code != "000000" else "111111")
    user.click("button:has-text('Sign this report')")
    user.wait_for_selector(".messages .error")
    user.fill("input[name=password]", PASSWORD)
    user.fill("input[name=code]", code)
    user.click("button:has-text('Sign this report')")
    _succeeded(user)
    ack = smtp.messages[-1]
    assert ack.subject == f"Sewer office: acknowledgment of report RPT-{report.pk}"
    assert report.digest in ack.body

    clerk = _sign_in(browser, base, "clerk")
    clerk.goto(f"{base}/reports/{report.pk}/")
    clerk.select_option("select[name=decision]", "accept")
    clerk.click("button:has-text('Record the review')")
    _succeeded(clerk)
    due.refresh_from_db()
    assert due.received_on is not None
    clerk.goto(f"{base}/reports/{report.pk}/verify/")
    verdict = clerk.locator("#verdict").inner_text()
    assert verdict == "The stored copy matches what was signed."
    assert report.digest in clerk.content()
