"""Headless Chromium: in an office of the demo town and the Town of Poughkeepsie, that town's
clerk signs in, finds its violation from the Enforcement menu, sees the answer due 10 calendar
days from the mailing under its own law, and opens the notice the Town mailed: it demands an
explanation and a plan, as its law says, and is signed by its Town Engineer."""

from __future__ import annotations

from typing import Any

from .browser_support import BROWSER_MARKS
from .factories import make_town
from .jurisdiction_support import HOME, OTHER, mailed_in_other_town
from .test_browser_jurisdictions import _sign_in
from .test_letters import pdf_text

pytestmark = BROWSER_MARKS


def test_the_towns_clerk_finds_its_notice_under_its_own_law(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    town = make_town()
    v = mailed_in_other_town(town)
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
