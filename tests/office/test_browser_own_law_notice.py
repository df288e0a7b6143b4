"""Headless Chromium: in an office of the demo town and the Town of Poughkeepsie, that town's
clerk signs in, finds its violation from the Enforcement menu, sees the answer due 10 calendar
days from the mailing under its own law, and opens the notice the Town mailed: it demands an
explanation and a plan, as its law says, and is signed by its Town Engineer."""

from __future__ import annotations

from datetime import date
from typing import Any

from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.core.services import perform
from sewer_office.enforcement import rules, services
from sewer_office.registry.models import Establishment
from sewer_office.registry.services import move_to_jurisdiction

from .browser_support import BROWSER_MARKS
from .enforcement_factories import at
from .factories import PASSWORD, make_town
from .jurisdiction_support import HOME, OTHER
from .test_browser_jurisdictions import _sign_in
from .test_letters import pdf_text

pytestmark = BROWSER_MARKS


def test_the_towns_clerk_finds_its_notice_under_its_own_law(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    town = make_town()
    coordinator = create_user("coordinator", PASSWORD, ("coordinator",))
    create_user("oclerk", PASSWORD, ("clerk",), jurisdictions=(OTHER,))
    for name in ("superintendent", "clerk"):
        grant_jurisdiction(town.u(name), OTHER)
    assert town.other_plant is not None
    move_to_jurisdiction(
        coordinator, town.other_plant.building.property, OTHER, date(2026, 1, 1), "IMA 2026-1"
    )
    plant = Establishment.objects.get(pk=town.other_plant.pk)
    v = services.open_violation(
        town.u("superintendent"),
        kind=rules.kind_choices(date(2026, 10, 28))[0][0],
        section="T. Poughkeepsie Code [ecode360 6322550] A(1)",
        description="Explosion-hazard meter at 46 % of the LEL",
        person=plant.operator.current(),
        establishment=plant,
        at=at("2026-10-28"),
    )
    v = perform(
        v, "issue_notice", town.u("superintendent"), {"nature": "LEL 46 %"}, at=at("2026-10-30")
    )
    perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-11-01", "service_method": "certified_mail", "receipt_number": "9"},
        at=at("2026-11-02"),
    )
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    _sign_in(page, base, "oclerk")
    assert "for Town of Poughkeepsie" in page.locator("#site-who").inner_text()
    page.click("nav.site a:has-text('Enforcement')")
    assert "§ 196-22" not in page.locator("h1").inner_text()  # not its law
    page.click(f"main a:has-text('{v.number}')")
    main = page.locator("main").inner_text()
    assert "10 calendar days from mailing" in main and "2026-11-12" in main
    assert "§ 196-22 B" not in main  # the article's fine is not its law
    href = page.locator("a[href$='.pdf']").first.get_attribute("href")
    text = pdf_text(context.request.get(f"{base}{href}").body())
    assert (
        "within 10 calendar days of the date this notice is mailed"
        in " ".join(text.split()).lower()
    )
    assert "explanation of the violation and a plan" in " ".join(text.split())
    assert "Town Engineer" in text
