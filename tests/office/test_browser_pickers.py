"""Headless Chromium, as the clerk: a property registered with its owner chosen by search (two
persons of the same name told apart by what they own), then the duplicate merged from the
likely duplicates page, and the merged entry gone from the picker.

Uses the Debian ``chromium`` package through playwright's ``executable_path``.
"""

from __future__ import annotations

from typing import Any

from sewer_office.registry.models import Person, Property

from .browser_support import BROWSER_MARKS
from .factories import make_town
from .test_browser import _sign_in, _succeeded

pytestmark = BROWSER_MARKS


def test_clerk_picks_an_owner_by_search_and_merges_a_duplicate(
    live_server: Any, browser: Any
) -> None:
    town = make_town()
    twin = Person.objects.create(name="Otto Other")  # entered again, owning nothing
    base = live_server.url
    clerk = _sign_in(browser, base, "clerk")

    clerk.goto(f"{base}/registry/properties/new/")
    clerk.fill("input[name=parcel_id]", "700-07")
    clerk.fill("input[name=address]", "7 Elm St")
    clerk.fill("#id_owner", "otto oth")
    options = clerk.locator(".picker-list li[role=option]")
    options.first.wait_for()
    assert options.count() == 2
    # the one that owns the plating shop's parcel, chosen with the keyboard
    texts = options.all_inner_texts()
    assert "100-04 Main St" in texts[0] and "owns" not in texts[1]
    for key in ("ArrowDown", "ArrowUp", "Enter"):
        clerk.keyboard.press(key)
    assert clerk.locator("input[type=hidden][name=owner]").input_value() == str(
        town.other_person.pk
    )
    assert "Otto Plating" in clerk.locator(".picker-chosen").inner_text()
    clerk.click("main button[type=submit]")
    _succeeded(clerk)
    assert Property.objects.get(parcel_id="700-07").owner == town.other_person

    # the duplicate, merged into the one that owns things
    clerk.goto(f"{base}/registry/persons/")
    clerk.click("text=Likely duplicates")
    clerk.click(f"a[href='/registry/persons/{twin.pk}/merge/?into={town.other_person.pk}']")
    assert "Otto Other" in clerk.locator(".picker-chosen").inner_text()
    clerk.click("main button[type=submit]")
    _succeeded(clerk)
    assert "Entries merged into this person" in clerk.content()
    twin.refresh_from_db()
    assert twin.merged_into == town.other_person

    clerk.goto(f"{base}/registry/properties/new/")
    clerk.fill("#id_owner", "otto oth")
    clerk.locator(".picker-list li[role=option]").first.wait_for()
    assert clerk.locator(".picker-list li[role=option]").count() == 1
