"""Headless Chromium: in an office of two member towns, a clerk of both records that a parcel
passed to the other town, from the parcel's page, and switches between the towns'
letterheads; a clerk of one town then finds the parcel gone from their list."""

from __future__ import annotations

import re
from typing import Any

from sewer_office.accounts.services import create_user, grant_jurisdiction

from .browser_support import BROWSER_MARKS
from .factories import PASSWORD, make_town
from .jurisdiction_support import HOME, OTHER

pytestmark = BROWSER_MARKS


def _sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_a_clerk_moves_a_parcel_and_keeps_each_towns_letterhead(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    town = make_town()
    for code in (HOME, OTHER):
        grant_jurisdiction(town.u("clerk"), code)
    create_user("hclerk", PASSWORD, ("clerk",), jurisdictions=(HOME,))
    home = town.owner_home
    assert home is not None
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()

    _sign_in(page, base, "clerk")
    page.goto(f"{base}/registry/properties/")
    page.click(f"main a:has-text('{home.parcel_id}')")
    assert HOME in page.locator("#jurisdiction").inner_text()
    page.click("#jurisdiction a:has-text('Record a change')")
    page.locator("[name=jurisdiction]").select_option(OTHER)
    page.fill("input[name=since]", "2026-04-01")
    page.fill("input[name=reason]", "Intermunicipal agreement, res. 2026-41")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(rf"/registry/properties/{home.pk}/$"))
    assert "since 2026-04-01" in page.locator("#jurisdiction").inner_text()
    assert OTHER in page.locator("#jurisdiction").inner_text()

    page.goto(f"{base}/letters/")
    page.click("#letterhead a:has-text('Edit the letterhead')")
    assert HOME in page.locator("h1").inner_text()
    page.click(f"#letterhead-towns a:has-text('{OTHER}')")
    assert OTHER in page.locator("h1").inner_text()

    other = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _sign_in(other, base, "hclerk")
    other.goto(f"{base}/registry/properties/")
    assert home.parcel_id not in other.locator("main").inner_text()
