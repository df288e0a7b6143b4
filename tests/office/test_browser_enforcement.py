"""Headless Chromium: one finding followed to its fine.

The Superintendent opens a violation from a finding and issues the notice; the clerk records
its mailing by certified mail, then its delivery from the return receipt (service is complete
only then, § 196-22 A); the correction period passes uncorrected (the office's clock
is moved on: ``django.utils.timezone.now``, which every date of the office reads, live server
included) and the daily run (``sewer-use flag-overdue``) moves the violation to fines
accruing; the owner reports its correction late on the violation's page; the Superintendent
verifies it, and the page shows the fine for the days late, subject to conviction.

Uses the Debian ``chromium`` package through playwright's ``executable_path``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.enforcement import liability, notices
from sewer_office.enforcement.models import Violation
from sewer_office.findings.services import record_finding

from .browser_support import BROWSER_MARKS
from .factories import make_town
from .test_browser import _act, _sign_in

pytestmark = BROWSER_MARKS

DAYS_LATER = 25  # the period is 10 days from service (the next business day at most 4 more)


def test_finding_to_notice_served_late_correction_and_the_fine(
    live_server: Any, browser: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTION = "demo"  # the demo's labelled EXAMPLE daily amounts
    town = make_town()
    base = live_server.url
    start = timezone.now()
    finding = record_finding(
        source=None,
        establishment=town.owner_restaurant,
        kind="lab_result",
        status="prohibited",
        citation="§ 196-19 C(3)",
        message="pH 5.1 SU, below 5.5 SU",
        observed_at=start - timedelta(days=1),
    )

    su = _sign_in(browser, base, "superintendent")
    su.goto(f"{base}/enforcement/open/?finding={finding.pk}")
    su.click("main button[type=submit]")
    su.wait_for_selector(".messages .success")
    violation = Violation.objects.get(finding=finding)
    url = f"{base}/enforcement/{violation.pk}/"
    assert su.url == url and "§ 196-19 C(3)" in su.locator("h1").inner_text()
    _act(su, "issue_notice", {"nature": "pH below 5.5 SU at the control manhole"})
    assert "Notice issued" in su.locator("h1").inner_text()

    clerk = _sign_in(browser, base, "clerk")
    assert clerk.locator("#notices-to-serve", has_text=f"VIOL-{violation.pk}").count() == 1
    clerk.goto(url)
    box = clerk.locator("#action-serve")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    box.locator("[name=service_method]").select_option("certified_mail")
    # the town's date (from midnight UTC to midnight in New York the UTC date is tomorrow)
    served = timezone.localtime(start)
    _act(clerk, "serve", {"served_on": f"{served:%Y-%m-%d}", "receipt_number": "7022 0410 77"})
    # certified mail: mailed, not yet served — no deadline until the return receipt's day
    assert "not yet delivered" in clerk.locator("h1").inner_text()
    assert notices.current_notice(violation).deadline is None  # type: ignore[union-attr]
    box = clerk.locator("#action-record_delivery")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    box.locator("[name=delivery_proof]").select_option("return_receipt")
    _act(clerk, "record_delivery", {"delivered_on": f"{served:%Y-%m-%d}"})
    assert "correction period running" in clerk.locator("h1").inner_text()
    notice = notices.current_notice(violation)
    assert notice is not None and notice.deadline is not None

    # The correction period passes: the office's clock moves on, the daily run records it.
    later = start + timedelta(days=DAYS_LATER)

    def moved() -> datetime:
        return later

    monkeypatch.setattr(timezone, "now", moved)
    today = timezone.localdate()
    assert today > notice.deadline
    from sewer_cli.main import main

    assert main(["flag-overdue"]) == 0
    owner = _sign_in(browser, base, "owner")  # a new day, a new session
    owner.goto(url)
    assert "fines accruing" in owner.locator("h1").inner_text()
    _act(owner, "report_correction", {"description": "pH adjustment unit repaired"})
    assert "Correction reported" in owner.locator("h1").inner_text()

    su = _sign_in(browser, base, "superintendent")
    su.goto(url)
    _act(su, "verify", {"note": "pH 7.2 SU at the control manhole on the follow-up visit"})
    assert "Correction verified" in su.locator("h1").inner_text()

    fines = liability.fines(Violation.objects.get(pk=violation.pk), today)
    assert fines.computation is not None and fines.total is not None
    days = (today - notice.deadline).days
    assert fines.computation.days == days > 0
    box = su.locator("#fines").inner_text()
    assert f"{days} day(s) of continuing violation" in box
    assert f"USD {fines.total}" in box and "subject to conviction" in box
    assert str(fines.computation.segments[-1].daily_amount.value) in box
    # the owner sees the same fine on the violation's page
    owner = _sign_in(browser, base, "owner")
    owner.goto(url)
    assert f"USD {fines.total}" in owner.locator("#fines").inner_text()
