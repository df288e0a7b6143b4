"""Headless Chromium: the Town of Poughkeepsie's notice went unanswered. Its Superintendent
opens the violation from the Enforcement menu and issues the next step of the town's ladder,
the administrative order, stating its period; the order is served; the town's clerk finds the
last day to petition on the violation's page and records the petition received, and the
Superintendent records the decision — each under the town's own citations."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.utils import timezone

from sewer_office.core.services import perform
from sewer_office.enforcement import petitions, services
from sewer_office.enforcement.models import Petition, Violation

from .browser_support import BROWSER_MARKS
from .factories import make_town
from .jurisdiction_support import HOME, OTHER, mailed_in_other_town
from .test_browser_jurisdictions import _sign_in

pytestmark = BROWSER_MARKS

ORDER = "T. Poughkeepsie Code [ecode360 6322621] B(1)"
PETITION = "T. Poughkeepsie Code [ecode360 6322621] B(2)"


def _unanswered(town: Any) -> Violation:
    """Its notice mailed on 2026-11-01, due 2026-11-12, unanswered."""
    v = mailed_in_other_town(town)
    services.advance_clocks(date(2026, 11, 13))
    return Violation.objects.get(pk=v.pk)


def _signed_in(browser: Any, base: str, username: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _sign_in(page, base, username)
    return page


def test_the_order_is_issued_and_its_petition_recorded_and_decided(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    town = make_town()
    v = _unanswered(town)
    base = live_server.url
    # the Superintendent: Enforcement → the violation → issue the next step of its ladder
    page = _signed_in(browser, base, "superintendent")
    page.click("nav.site a:has-text('Enforcement')")
    page.click(f"main a:has-text('{v.number}')")
    escalate = page.locator("#action-escalate")
    escalate.locator("summary").click()
    assert "Issue the next step: Administrative or compliance order" in escalate.inner_text()
    assert ORDER in escalate.inner_text()
    escalate.locator("textarea[name=nature]").fill("LEL over 40 % and no plan received")
    escalate.locator("input[name=period_days]").fill("30")
    escalate.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/enforcement/{v.pk}/")
    assert ORDER in page.locator("#notices").inner_text()
    # served on the day: its receipt starts the order's period and the petition's window
    today = timezone.localdate()
    perform(
        Violation.objects.get(pk=v.pk),
        "serve",
        town.u("clerk"),
        {"served_on": today.isoformat(), "service_method": "personal"},
    )
    window = petitions.window(Violation.objects.get(pk=v.pk))
    assert window is not None
    # the town's clerk: the window on the violation's page, then the petition received
    page = _signed_in(browser, base, "oclerk")
    page.goto(f"{base}/enforcement/{v.pk}/")
    assert (
        f"until {window.due:%A}, {window.due:%Y-%m-%d}"
        in page.locator("#petition-window").inner_text()
    )
    form = page.locator("#record-petition")
    form.locator("summary").click()
    form.locator("select[name=asks]").select_option("modify")
    form.locator("textarea[name=grounds]").fill("Asks 60 days to install a flame arrester")
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/enforcement/{v.pk}/#petitions")
    assert f"Petition recorded ({PETITION})" in page.locator("main").inner_text()
    assert "awaiting decision" in page.locator("#petitions").inner_text()
    # the Superintendent decides it
    page = _signed_in(browser, base, "superintendent")
    page.goto(f"{base}/enforcement/{v.pk}/#petitions")
    decide = page.locator("#petitions details.action")
    decide.locator("summary").click()
    decide.locator("select[name=decision]").select_option("denied")
    decide.locator("textarea[name=note]").fill("No plan came with it")
    decide.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/enforcement/{v.pk}/#petitions")
    assert "Denied: the order stands" in page.locator("#petitions").inner_text()
    assert Petition.objects.get(violation=v).decided_by == town.u("superintendent")
