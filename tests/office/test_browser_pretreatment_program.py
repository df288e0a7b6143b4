"""Headless Chromium: the pretreatment program a state auditor would check, walked from the menu
of the demo town.

The Superintendent opens the enforcement response plan from "Enforcement" (the plan in force,
each kind × severity with its time frame and official, the Town's adoption); the annual report
of the last completed year downloads as ICIS-NPDES XML listing the users that were SIUs in it
and no other; the yearly SNC list's newspaper text names Acme Plating and leaves out Tri-County
Laundry, found not significant (40 CFR 403.3(v)(2)) although its results were over its limit.
The engineer opens Acme's approval, every element of 40 CFR 403.8(f)(1)(iii)(B) recorded on
it. The clerk records a hazardous-waste notification (40 CFR 403.12(p)): refused naming the
missing EPA number, then recorded and listed on the facility's page.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_office.demo.enforcement import EXAMPLE_RESOLUTION
from sewer_office.demo.pretreatment import LAUNDRY, last_half
from sewer_office.enforcement import plan
from sewer_office.monitoring.models import DischargeLimit, LabResult
from sewer_office.permits.control_mechanism import ELEMENTS
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.pretreatment.annual import gather
from sewer_office.pretreatment.models import HazardousWasteNotification, SNCDetermination
from sewer_office.registry.models import Establishment
from sewer_rules.enforcement_plan import plan_rows

from .browser_support import BROWSER_MARKS
from .test_browser_day_one import _sign_in

pytestmark = BROWSER_MARKS

NS = "{http://www.exchangenetwork.net/schema/icis/5}"
ACME = "Acme Plating Corporation"


def _menu(page: Any, base: str, label: str, path: str) -> None:
    """From the dashboard, the menu's ``label``, landing on ``path``."""
    page.goto(f"{base}/")
    page.locator("nav.site a", has_text=label).first.click()
    page.wait_for_url(f"{base}{path}")


def _plan(su: Any, base: str) -> None:
    # Enforcement (menu) → the enforcement response plan
    _menu(su, base, "Enforcement", "/enforcement/")
    su.locator("main a", has_text="Enforcement response plan").click()
    su.wait_for_url(f"{base}/enforcement/plan/")
    today = timezone.localdate()
    version = plan.version_on(today)
    assert version.is_plan
    # in force today, adopted by the demo's EXAMPLE resolution
    adoption = su.locator("#adoption")
    assert adoption.locator(".plan-adopted").count() == 1
    text = adoption.inner_text()
    assert f"effective {version.effective:%Y-%m-%d}" in text
    assert EXAMPLE_RESOLUTION in text and "Town Board" in text, text
    assert EXAMPLE_RESOLUTION in su.locator("#adoptions").inner_text()
    # every kind × severity, its first response, time frame and official, in the file's order
    rows = plan_rows(version)
    cells = su.locator("#responses table").first.locator("tr")
    assert cells.count() == len(rows) + 1  # and the header
    for k, r in enumerate(rows, start=1):
        tds = cells.nth(k).locator("td").all_inner_texts()
        assert tds[1] == r.severity and tds[4] == r.official, tds
        assert tds[2].startswith(r.response.label), tds
        assert tds[3] == (f"{r.within_days} days" if r.within_days else "at once"), tds
    assert {r.severity for r in rows} == {"significant", "recurring", "isolated"}
    # the Superintendent may record the adoption of a version
    assert su.locator("#adopt form button", has_text="Record the adoption").count() == 1


def _annual_xml(su: Any, base: str, year: int) -> None:
    # Pretreatment (menu) → the annual report of the year, prepared → its ICIS-NPDES XML
    _menu(su, base, "Pretreatment", "/pretreatment/")
    su.locator(f"main a[href='/pretreatment/annual/{year}/']").click()
    su.wait_for_url(f"{base}/pretreatment/annual/{year}/")
    assert su.locator("#edition-draft").count() == 1  # not yet prepared
    su.locator("main button", has_text="Prepare the report").click()  # kept as filed
    su.wait_for_url(f"{base}/pretreatment/annual/{year}/")
    assert "Prepared on" in su.locator("#edition").inner_text()
    assert su.locator("#icis-missing").count() == 0
    with su.expect_download() as download:
        su.locator("main a", has_text="ICIS-NPDES XML (for EPA)").click()
    root = ET.fromstring(download.value.path().read_bytes())
    assert root.tag == f"{NS}Document"
    payload = root.find(f"{NS}Payload")
    assert payload is not None
    assert payload.get("Operation") == "PretreatmentProgramReportSubmission"
    report = payload.find(f"{NS}PretreatmentProgramReportData/{NS}PretreatmentProgramReport")
    assert report is not None
    listed = {
        u.findtext(f"{NS}PermitIdentifier") for u in report.iter(f"{NS}IndustrialUserInformation")
    }
    # Acme, keyed by its approval's ICIS-NPDES identifier
    acme = Establishment.objects.get(name=ACME)
    ids = set(
        IndustrialDischargeApproval.objects.filter(establishment=acme)
        .exclude(icis_permit_id="")
        .values_list("icis_permit_id", flat=True)
    )
    assert ids & listed, (ids, listed)
    # exactly the users that were SIUs on a day of the year
    facilities = gather(date(year, 1, 1), date(year, 12, 31)).facilities
    siu = {f.icis_permit_id for f in facilities if f.siu_in_period}
    not_siu = {f.icis_permit_id for f in facilities if not f.siu_in_period and f.icis_permit_id}
    assert listed == siu and not (listed & not_siu), (listed, siu, not_siu)
    assert any(not f.siu_in_period for f in facilities)  # the year had users that were not


def _snc_list(su: Any, base: str, year: int) -> None:
    # Pretreatment (menu) → the yearly list of the users in SNC
    _menu(su, base, "Pretreatment", "/pretreatment/")
    su.locator(f"main a[href='/pretreatment/snc-list/{year}/']").click()
    su.wait_for_url(f"{base}/pretreatment/snc-list/{year}/")
    text = su.locator("pre.notice").inner_text()
    assert ACME in text, text
    assert LAUNDRY not in text, text
    assert LAUNDRY not in su.locator("main table").first.inner_text()
    # Tri-County was determined, over its zinc limit, and found in no SNC: not an SIU
    laundry = SNCDetermination.objects.filter(establishment__name=LAUNDRY, period_start__year=year)
    assert laundry.exists() and not laundry.filter(snc=True).exists()
    # its determination (Pretreatment → determinations in force) says why: zinc over its
    # limit, not counted as it was no SIU (40 CFR 403.3(v)(2))
    _menu(su, base, "Pretreatment", "/pretreatment/")
    su.locator("#results tr", has_text=LAUNDRY).filter(has_text=f"{year}").first.locator(
        "a[href*='/pretreatment/snc/']"
    ).click()
    su.wait_for_url("**/pretreatment/snc/*/")
    assert "not in significant noncompliance" in su.locator("h1").inner_text()
    limits = su.locator("main table").first.inner_text()
    assert "zinc" in limits and "Not counted:" in limits, limits
    assert "found not significant" in limits and "403.3(v)(2)" in limits, limits
    zinc = LabResult.objects.filter(
        establishment__name=LAUNDRY, parameter="zinc", sampled_at__year=year
    ).values_list("value_text", flat=True)
    limit = DischargeLimit.objects.get(establishment__name=LAUNDRY, parameter="zinc")
    assert any(Decimal(v) > Decimal(limit.value) for v in zinc), list(zinc)  # over its limit


def _control_mechanism(base: str, browser: Any) -> None:
    # the engineer: Establishments (menu) → Acme → its approved industrial discharge approval
    eng = _sign_in(browser, base, "engineer")
    _menu(eng, base, "Establishments", "/registry/establishments/")
    eng.locator("main a", has_text=ACME).first.click()
    eng.wait_for_selector("#approvals")
    approval = (
        IndustrialDischargeApproval.objects.filter(
            establishment__name=ACME, state__in=("approved", "approved_with_conditions")
        )
        .order_by("id")
        .first()
    )
    assert approval is not None
    eng.locator("#approvals a", has_text=approval.number).first.click()
    eng.wait_for_selector("#control-mechanism")
    # Acme is an SIU: the approval is its control mechanism, each of the six elements recorded
    assert "pass" in (eng.locator("#control-siu").get_attribute("class") or "")
    items = eng.locator("#control-elements > li")
    assert items.count() == len(ELEMENTS) == 6
    for e in ELEMENTS:
        item = eng.locator(f"#element-{e.number}")
        assert "pass" in (item.get_attribute("class") or ""), item.inner_text()
        assert f"40 CFR 403.8(f)(1)(iii)(B)({e.number})" in item.inner_text()
        assert item.locator(".missing").count() == 0
    # the self-monitoring requirements, in element (4)'s table
    assert eng.locator("#element-4 table.self-monitoring tr").count() >= 2
    eng.context.close()


def _hazardous_waste(base: str, browser: Any) -> None:
    # the clerk: Pretreatment (menu) → Acme's pretreatment page → record a notification
    clerk = _sign_in(browser, base, "clerk")
    _menu(clerk, base, "Pretreatment", "/pretreatment/")
    clerk.locator("main a", has_text=ACME).first.click()
    clerk.wait_for_url("**/pretreatment/facilities/*/")
    facility = clerk.url
    clerk.locator("main a", has_text="Record a notification received").click()
    clerk.wait_for_url("**/hazardous-waste/")
    today = timezone.localdate()
    clerk.get_by_label("Name of the hazardous waste").fill(
        "Wastewater treatment sludges from electroplating operations"
    )
    clerk.get_by_label("Type of discharge").select_option("batch")
    clerk.get_by_label("Mass of the waste discharged in a calendar month (kg)").fill("40")
    clerk.get_by_label("The user certifies a program").check()
    clerk.get_by_label("Day the discharge began").fill(f"{today - timedelta(days=20)}")
    clerk.get_by_label("Day of the written notice").fill(f"{today - timedelta(days=5)}")
    clerk.get_by_label("Day sent to the EPA Regional").fill(f"{today - timedelta(days=5)}")
    clerk.get_by_label("Day sent to the State").fill(f"{today - timedelta(days=5)}")
    before = HazardousWasteNotification.objects.count()
    # no EPA hazardous waste number: refused, the field named, nothing recorded
    clerk.locator("main form button[type=submit]").click()
    error = clerk.locator("#id_waste_number_error")
    error.wait_for()
    assert "EPA hazardous waste number" in error.inner_text()
    assert clerk.get_by_label("EPA hazardous waste number").get_attribute("aria-invalid") == "true"
    assert HazardousWasteNotification.objects.count() == before
    # completed: recorded, and listed on the facility's page
    clerk.get_by_label("EPA hazardous waste number").fill("F006")
    clerk.locator("main form button[type=submit]").click()
    clerk.wait_for_url(facility)
    clerk.wait_for_selector(".messages .success")
    row = clerk.locator("table.hazardous-notices tr", has_text="F006")
    assert row.count() == 1
    assert "Batch" in row.inner_text() and "40" in row.inner_text()
    made = HazardousWasteNotification.objects.get(waste_number="F006")
    assert made.establishment.name == ACME and made.notified_on == today - timedelta(days=5)
    clerk.context.close()


def test_the_pretreatment_program_walked_from_the_menu(
    live_server: Any, browser: Any, demo_walk: Any
) -> None:
    base = live_server.url
    today = timezone.localdate()
    su = _sign_in(browser, base, "superintendent")
    _plan(su, base)
    _annual_xml(su, base, today.year - 1)  # the last completed year
    _snc_list(su, base, last_half(today)[2].year)  # the year of the demo's SNC
    su.context.close()
    _control_mechanism(base, browser)
    _hazardous_waste(base, browser)
