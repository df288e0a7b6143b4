"""Headless Chromium over the demo town: the pages fit at 1280, 768 and 375 px
(``document.documentElement.scrollWidth <= innerWidth``, and no list scrolls inside its card at
1280 px), axe-core finds no serious or critical violation, and three walks:

- the inspector completes an inspection on a 768 px tablet whose connection drops: the form
  is kept in the browser and sent when the connection returns, and recorded once;
- the Superintendent clicks a manhole on the map and sees the upstream trace;
- the industrial user's home shows its sampling due and its open findings.

axe-core (the npm package, its ``axe.min.js`` under ``tests/office/static/``) is injected by the
test only. Screenshots go to ``$SEWER_USE_SCREENSHOTS`` when it is set (the README's come from
there: ``SEWER_USE_SCREENSHOTS=docs/screenshots``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .browser_support import BROWSER_MARKS

pytestmark = BROWSER_MARKS

AXE = Path(__file__).parent / "static" / "axe-core-4.10.2" / "axe.min.js"
WIDTHS = (1280, 768, 375)
PASSWORD = "demo"  # the demo town's password


def _sign_in(browser: Any, base: str, username: str, width: int) -> tuple[Any, Any]:
    # axe-core is injected as an inline script, which the office's CSP refuses: the test's
    # context bypasses it (test_browser_security.py walks the pages with the CSP enforced).
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return context, page


def _serious_violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))"""
    )
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found]


def _fits(page: Any) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _cards_that_scroll(page: Any) -> list[str]:
    return page.evaluate(
        """Array.from(document.querySelectorAll('main .card, main table'))
            .filter(e => e.scrollWidth > e.clientWidth + 1 && !e.closest('.leaflet-container'))
            .map(e => (e.id || e.tagName) + ' ' + e.scrollWidth + '>' + e.clientWidth)"""
    )


def test_pages_fit_are_accessible_and_the_three_walks(
    live_server: Any, browser: Any, demo_walk: tuple[Any, Any]
) -> None:
    from sewer_office.inspections.models import InspectionAnswer

    acme, inspection = demo_walk
    base = live_server.url
    shots = os.environ.get("SEWER_USE_SCREENSHOTS", "")
    pages = {
        "dashboard": "/",
        "list": "/monitoring/findings/",
        "facility": f"/registry/establishments/{acme.pk}/",
        "inspection-form": f"/inspections/{inspection.pk}/complete/",
        "map": "/registry/network/",
    }

    # --- every page at three widths: nothing overflows; axe-core at each width -------------
    for width in WIDTHS:
        context, page = _sign_in(browser, base, "superintendent", width)
        for name, path in pages.items():
            page.goto(base + path)
            if name == "map":
                page.wait_for_function("window.sewerNetworkMap !== undefined")
            scroll, inner = _fits(page)
            assert scroll <= inner, f"{path} at {width} px: {scroll} px wide"
            if width == 1280 and name == "list":
                assert _cards_that_scroll(page) == [], f"{path} scrolls inside at 1280 px"
            problems = _serious_violations(page)
            assert problems == [], f"{path} at {width} px: {problems}"
            if shots and name != "map":
                Path(shots).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{shots}/{name}-{width}.png")
        context.close()

    # --- the inspector completes an inspection on a tablet whose connection drops -----------
    context, page = _sign_in(browser, base, "inspector", 768)
    page.goto(f"{base}/inspections/{inspection.pk}/complete/")
    page.check("input[name=credentials_presented]")
    page.fill("input[name=credential]", "Badge 4471")
    for group in page.locator(".check-item").all():
        group.locator(".toggle-pass").click()  # a big "Yes" toggle, tapped on its label
    page.locator(".check-item").first.locator(".toggle-fail").click()
    page.locator(".check-item").first.locator("input[name^=note_]").fill("Trap lid cracked")
    page.fill("textarea[name=observations]", "Visited with the manager.")
    assert page.locator("input[type=file][name=photos]").get_attribute("capture") == "environment"
    context.set_offline(True)
    page.click("button.big[type=submit]")
    page.wait_for_selector("#draft-status.offline")
    assert "kept on this tablet" in page.locator("#draft-status").inner_text()
    draft = page.evaluate(f"localStorage.getItem('sewer-use:inspection-draft:{inspection.pk}')")
    assert draft and "Badge 4471" in draft
    inspection.refresh_from_db()
    assert inspection.state == "scheduled"  # nothing reached the office
    context.set_offline(False)  # the connection returns: the draft is sent by itself
    page.wait_for_url(f"{base}/inspections/{inspection.pk}/", timeout=30000)
    assert "completed" in page.locator(".messages").inner_text()
    assert (
        page.evaluate(f"localStorage.getItem('sewer-use:inspection-draft:{inspection.pk}')") is None
    )
    inspection.refresh_from_db()
    assert inspection.state == "completed" and inspection.credential == "Badge 4471"
    answers = InspectionAnswer.objects.filter(inspection=inspection).count()
    # the same form arriving again (its answer lost on the way) is recorded once
    key = inspection.completion_key
    assert key
    status = page.evaluate(
        """([url, key]) => {
            const data = new FormData();
            data.append('csrfmiddlewaretoken', document.cookie.match(/csrftoken=([^;]+)/)[1]);
            data.append('submission_key', key);
            return fetch(url, {method: 'POST', body: data, credentials: 'same-origin'})
                .then(r => r.text().then(t => [r.status, r.redirected, t.includes('already recorded')]));
        }""",
        [f"{base}/inspections/{inspection.pk}/complete/", key],
    )
    assert status == [200, True, True]
    assert InspectionAnswer.objects.filter(inspection=inspection).count() == answers
    context.close()

    # --- the Superintendent clicks a manhole on the map and sees the trace ------------------
    context, page = _sign_in(browser, base, "superintendent", 1280)
    if shots:
        page.set_viewport_size({"width": 1280, "height": 1100})
    page.goto(f"{base}/registry/network/")
    page.wait_for_function("window.sewerNetworkMap !== undefined")
    outlet = page.evaluate(
        "fetch('/api/network/geojson/').then(r => r.json()).then(d => d.features"
        ".find(f => f.properties.kind === 'pipe').properties.to)"
    )
    page.evaluate(f"window.sewerNetworkMap.centre('{outlet}', 18)")
    box = page.locator("#network-map").bounding_box()
    point = page.evaluate(f"window.sewerNetworkMap.manholePoint('{outlet}')")
    page.mouse.click(box["x"] + point["x"], box["y"] + point["y"])
    page.wait_for_selector(f"#map-trace h2:has-text('Upstream of {outlet}')")
    assert page.evaluate("window.sewerNetworkMap.traced()") == outlet
    trace = page.locator("#map-trace").inner_text()
    assert "drain" in trace and "Network distance" in trace
    assert page.locator("#manhole").input_value() == outlet
    if shots:  # the whole town, the traced area highlighted
        page.evaluate(f"window.sewerNetworkMap.centre('{outlet}', 16)")
        page.screenshot(path=f"{shots}/map-trace-1280.png")
    context.close()

    # --- the industrial user's home: sampling due and open findings -------------------------
    context, page = _sign_in(browser, base, "acme", 1280)
    due = page.locator(f"#home-sampling-due-{acme.pk}").inner_text()
    assert "Sampling due" in due and "CM-1" in due
    found = page.locator(f"#home-open-findings-{acme.pk}").inner_text()
    assert "Open findings" in found and "Prohibited" in found  # the worst first, in words
    assert page.locator("#my-slugs").count() == 1
    assert _serious_violations(page) == []
    if shots:
        page.screenshot(path=f"{shots}/industrial-home-1280.png", full_page=False)
    context.close()
