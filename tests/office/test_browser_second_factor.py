"""Headless Chromium: the Superintendent's second factor, clicked as the Superintendent clicks it.

In ``required`` mode (production's), the Superintendent signs in with the password and is
sent to set up an authenticator: the page shows the QR code and the key; the code the app
would show (computed here from the key on the page, as the app computes it) confirms it, and
the ten recovery codes are shown once. Signed out and back in, the office asks for the code
and takes a recovery code once. From the header, "Second factor" shows the account's status,
and the list of every account's second factor downloads. No page is opened by address after
the sign-in page.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from .browser_support import BROWSER_MARKS
from .factories import PASSWORD, make_town

pytestmark = BROWSER_MARKS


def _password(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")


def _code_from_the_page(page: Any) -> str:
    """What the authenticator app shows for the key the page gives (RFC 6238, 30 s steps)."""
    key = page.locator("main code").first.inner_text().replace(" ", "")
    return f"{totp(base64.b32decode(key + '=' * (-len(key) % 8))):06d}"


def test_the_superintendent_enrols_signs_in_with_a_recovery_code_and_sees_the_list(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SEWER_USE_SECOND_FACTOR = "required"
    town = make_town()
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()

    _password(page, base, "superintendent")
    page.wait_for_url(re.compile(r"/accounts/second-factor/enrol/"))
    assert "Set up your second factor" in page.locator("h1").inner_text()
    assert page.locator("main .qr svg").count() == 1  # the QR code, drawn inline
    page.fill("input[name=code]", _code_from_the_page(page))
    page.click("main form.form button[type=submit]")
    page.wait_for_selector("ul.recovery-codes")
    codes = page.locator("ul.recovery-codes code").all_inner_texts()
    assert len(codes) == 10
    page.click("main a:has-text('Continue')")
    page.wait_for_url(f"{base}/")
    assert TOTPDevice.objects.filter(user=town.u("superintendent"), confirmed=True).count() == 1

    page.click("#site-who button:has-text('Sign out')")
    _password(page, base, "superintendent")
    page.wait_for_url(re.compile(r"/accounts/second-factor/code/"))
    assert page.locator("h1").inner_text() == "Your code"
    page.fill("input[name=code]", codes[0])
    page.click("main form.form button[type=submit]")
    page.wait_for_url(f"{base}/")

    page.click("#site-who a:has-text('Second factor')")
    page.wait_for_url(f"{base}/accounts/second-factor/")
    assert "Recovery codes left: 9." in page.locator("main").inner_text()  # one was used
    page.click("main a[href$='/second-factor/accounts/']")
    page.wait_for_url(f"{base}/accounts/second-factor/accounts/")
    rows = page.locator("tbody tr").all_inner_texts()
    row = next(r for r in rows if r.split("\t")[0].split(" (")[0] == "superintendent")
    assert "set up" in row and "yes" in row
    with page.expect_download() as download:
        page.click("main a:has-text('CSV')")
    text = download.value.path().read_text(encoding="utf-8")
    assert text.startswith("Account,") and "superintendent" in text
