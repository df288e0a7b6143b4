"""Headless Chromium over the demo town on a phone (375 px) and a tablet (768 px).

On a phone the header is the brand, a menu button and the search (it was 285 px tall, a third
of the screen, before the page began); the button opens the nav and the user's links, from the
mouse and from the keyboard, and says so (``aria-expanded``); without script the links stay in
view. The pages a clerk and an industrial user open most — the dashboard, a violation, an
invoice, acme's home — never scroll sideways as a whole (a wide table scrolls in its own box).
The favicon (the Town's manhole cover) is linked and served.

The Content-Security-Policy is enforced here (the menu's script is a file, like every other).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from .browser_support import BROWSER_MARKS

pytestmark = BROWSER_MARKS

PASSWORD = "demo"  # the demo town's password
PHONE, TABLET = 375, 768
HEADER_MAX_PX = 120  # brand + menu button on one row, the search on the next


def _sign_in(
    browser: Any,
    base: str,
    username: str,
    width: int,
    script: bool = True,
    password: str = PASSWORD,
) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, java_script_enabled=script
    )
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


def _header_height(page: Any) -> float:
    return float(
        page.evaluate("document.querySelector('header.top').getBoundingClientRect().height")
    )


def _page_width(page: Any) -> tuple[int, int]:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return int(scroll), int(inner)


def _pages(acme: Any) -> dict[str, tuple[str, str]]:
    """The pages walked, each with who opens it: name -> (username, path)."""
    from sewer_office.billing.models import Invoice
    from sewer_office.enforcement.models import Violation

    violation = Violation.objects.order_by("pk").first()
    # the invoice with the most lines: the widest table of the demo's invoices
    invoice = Invoice.objects.annotate(n=Count("lines")).order_by("-n", "pk").first()
    assert violation is not None and invoice is not None, "the demo town has no violation/invoice"
    return {
        "dashboard": ("superintendent", "/"),
        "violation": ("superintendent", f"/enforcement/{violation.pk}/"),
        "invoice": ("clerk", f"/billing/invoices/{invoice.pk}/"),
        "acme's home": ("acme", "/"),
    }


def _check_menu(page: Any, where: str) -> None:
    """The closed header is short; the button opens and closes the nav and the user's links."""
    button = page.locator("header.top .menu-toggle")
    nav = page.locator("header.top nav.site")
    who = page.locator("header.top .who")
    height = _header_height(page)
    assert height < HEADER_MAX_PX, f"{where}: the header is {height:.0f} px tall"
    assert button.is_visible(), f"{where}: no menu button"
    assert page.locator("#site-search").is_visible(), f"{where}: the search is hidden"
    assert not nav.is_visible() and not who.is_visible(), f"{where}: the menu starts open"
    assert button.get_attribute("aria-expanded") == "false"
    for target in (button.get_attribute("aria-controls") or "").split():
        assert page.locator(f"#{target}").count() == 1, f"{where}: aria-controls {target}?"
    assert set((button.get_attribute("aria-controls") or "").split()) == {"site-nav", "site-who"}

    button.click()  # the mouse (a tap)
    assert button.get_attribute("aria-expanded") == "true"
    assert nav.is_visible() and who.is_visible(), f"{where}: the menu did not open"
    assert nav.get_by_role("link", name="Dashboard").is_visible()
    assert who.get_by_role("button", name="Sign out").is_visible()
    # every link of the open menu lies within the screen (nothing to scroll sideways for)
    right = page.evaluate(
        "Math.max(...Array.from(document.querySelectorAll('header.top nav.site a'))"
        ".map(a => a.getBoundingClientRect().right))"
    )
    assert right <= PHONE, f"{where}: a menu link ends at {right} px"
    scroll, inner = _page_width(page)
    assert scroll <= inner, f"{where}: the open menu makes the page {scroll} px wide"
    page.keyboard.press("Escape")  # Escape closes it and gives the focus back to the button
    assert not nav.is_visible() and button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('menu-toggle')")

    page.keyboard.press("Enter")  # the keyboard: the focused button opens it again
    assert nav.is_visible() and button.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Tab")  # and the next stop is the first link of the menu
    assert page.evaluate("document.activeElement.textContent.trim()") == "Dashboard"
    button.focus()
    page.keyboard.press("Space")
    assert not nav.is_visible(), f"{where}: Space did not close the menu"


def test_phone_header_menu_and_pages_that_fit(
    live_server: Any, browser: Any, demo_walk: tuple[Any, Any]
) -> None:
    acme, _ = demo_walk
    base = live_server.url
    pages = _pages(acme)
    for width in (PHONE, TABLET):
        signed_in: dict[str, Any] = {}
        for name, (username, path) in pages.items():
            page = signed_in.get(username) or _sign_in(browser, base, username, width)
            signed_in[username] = page
            answer = page.goto(base + path)
            assert answer is not None and answer.status == 200, (
                f"{path}: {answer and answer.status}"
            )
            scroll, inner = _page_width(page)
            assert scroll <= inner, f"{name} ({path}) at {width} px: the page is {scroll} px wide"
            if width == PHONE:
                _check_menu(page, f"{name} at {width} px")
                scroll, inner = _page_width(page)
                assert scroll <= inner, f"{name} at {width} px after the menu: {scroll} px wide"
            else:
                # a tablet: the same short header, on one row
                height = _header_height(page)
                assert height < HEADER_MAX_PX, f"{name} at {width} px: header {height:.0f} px"
        for page in signed_in.values():
            page.context.close()


def test_without_script_the_links_stay_in_view(live_server: Any, browser: Any, db: Any) -> None:
    from .factories import PASSWORD as TOWN_PASSWORD
    from .factories import make_town

    make_town()
    page = _sign_in(browser, live_server.url, "clerk", PHONE, script=False, password=TOWN_PASSWORD)
    assert page.locator("header.top nav.site").is_visible()
    assert page.locator("header.top .who").is_visible()
    assert not page.locator("header.top .menu-toggle").is_visible()  # a button that does nothing
    page.context.close()


def test_the_favicon_is_linked_and_served(live_server: Any, browser: Any, db: Any) -> None:
    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    icons = page.evaluate(
        "Array.from(document.querySelectorAll('link[rel=icon]')).map(l => [l.href, l.type])"
    )
    assert {kind for _, kind in icons} == {"image/svg+xml", "image/png"}, icons
    for href, kind in icons:
        answer = page.request.get(href)
        assert answer.status == 200, f"{href}: {answer.status}"
        assert answer.headers["content-type"].startswith(kind), answer.headers["content-type"]
        body = answer.body()
        if kind == "image/png":
            assert body.startswith(b"\x89PNG") and int.from_bytes(body[16:20], "big") == 32
        else:
            assert b"<svg" in body and b"viewBox" in body
    page.context.close()
