"""Headless Chromium: the owner applies for a building sewer permit, and the clerk, the
engineer, the Highway Superintendent and the Superintendent take it to completion.

Uses the Debian ``chromium`` package (``apt-get install -y chromium``) through playwright's
``executable_path`` — never a downloaded browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_support import BROWSER_MARKS
from .factories import PASSWORD, make_town

pytestmark = BROWSER_MARKS


def _sign_in(browser: Any, base: str, username: str) -> Any:
    page = browser.new_context(viewport={"width": 1024, "height": 1366}).new_page()  # a tablet
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def _act(
    page: Any, action: str, fields: dict[str, str] | None = None, checks: tuple[str, ...] = ()
) -> None:
    box = page.locator(f"#action-{action}")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    for name, value in (fields or {}).items():
        box.locator(f"[name={name}]").fill(value)
    for name in checks:
        box.locator(f"[name={name}]").check()
    box.locator("button[type=submit]").click()
    _succeeded(page)


def _succeeded(page: Any) -> None:
    """Wait for the next page; fail with the errors it shows if it is not a success."""
    page.wait_for_selector(".messages li, .errorlist")
    if page.locator(".messages .success").count() == 0:
        errors = page.locator(".errorlist, .messages .error").all_inner_texts()
        raise AssertionError(f"{page.url}: {errors}")


def _pay_fee_at_the_desk(page: Any, base: str, number: str, amount: str) -> str:
    """The clerk issues the permit's fee invoice and records its payment in billing; the
    receipt number."""
    page.goto(f"{base}/billing/permit-fees/")
    page.locator(f"#fee-{number} button[type=submit]").click()
    _succeeded(page)
    invoice = page.locator(f"#fee-{number} td.invoice").inner_text().strip()
    page.locator(f"#fee-{number} a", has_text="Record payment").click()
    form = page.locator("#payment-form")
    form.locator("label", has_text=invoice).locator("input[name=invoices]").check()
    form.locator("[name=amount]").fill(amount)
    form.locator("[name=method]").select_option("check")
    form.locator("[name=reference]").fill("1044")
    form.locator("#save-payment").click()
    _succeeded(page)
    return str(page.locator("h1").inner_text()).split()[-1]


def test_owner_applies_and_the_office_completes_the_connection(
    live_server: Any, browser: Any, tmp_path: Path, settings: Any
) -> None:
    town = make_town()
    base = live_server.url
    plans = tmp_path / "site-plan.pdf"
    plans.write_bytes(b"%PDF-1.4 site plan")

    owner = _sign_in(browser, base, "owner")
    owner.goto(f"{base}/permits/building-sewer/new/")
    owner.select_option("select[name=applicant]", str(town.owner_person.pk))
    owner.select_option("select[name=property]", str(town.owner_home.pk))
    owner.select_option("select[name=permit_class]", "1")
    owner.fill("input[name=diameter]", "4 in")
    owner.fill("input[name=slope]", "1/4 in/ft")
    owner.fill("input[name=length_ft]", "55")
    owner.fill("input[name=building_drain_elevation_ft]", "101")
    owner.fill("input[name=public_sewer_elevation_ft]", "96.5")
    owner.check("input[name=connected_sources][value=sanitary_fixtures]")
    owner.set_input_files("input[name=files]", str(plans))
    owner.click("main button[type=submit]")
    _succeeded(owner)
    url = owner.url
    number = owner.locator("h1").inner_text().split(" ")[0]
    # § 196-18 B: the fee is paid "at the time the application is filed" — until then a draft
    heading = owner.locator("h1").inner_text()
    assert number.startswith("BSP-") and "Awaiting the filing fee — not yet filed" in heading
    assert owner.locator("a", has_text="site-plan.pdf").count() == 1

    clerk = _sign_in(browser, base, "clerk")
    assert clerk.locator("a", has_text=number).count() == 1  # on the clerk's dashboard
    clerk.goto(url)
    assert clerk.locator("#automatic-record_fee_payment").count() == 1  # not a checkbox
    _pay_fee_at_the_desk(clerk, base, number, "200.00")
    clerk.goto(url)
    assert "Plan review" in clerk.locator("h1").inner_text()

    engineer = _sign_in(browser, base, "engineer")
    engineer.goto(url)
    assert engineer.locator("#plan-checks td.pass").count() >= 3
    _act(engineer, "approve_plans")

    highway = _sign_in(browser, base, "highway")
    highway.goto(url)
    _act(
        highway,
        "record_road_opening_permit",
        {"road_opening_number": "RO-88"},
        ("insurance_confirmed", "bond_confirmed"),
    )

    owner.goto(url)
    _act(owner, "notify_ready")

    su = _sign_in(browser, base, "superintendent")
    su.goto(url)
    _act(su, "complete_connection", {"supervised_by": "Sam Ortiz"})
    assert "Completed" in su.locator("h1").inner_text()
    timeline = su.locator("ol.timeline").inner_text()
    for cite in ("§ 196-18 B", "§ 196-18 K", "§ 196-18 J"):
        assert cite in timeline

    owner.goto(f"{base}/registry/properties/{town.owner_home.pk}/")
    assert "Public sewer connection" in owner.content()
