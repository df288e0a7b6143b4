"""Each member town's letters carry its own letterhead.

In an office of several towns each keeps its own versions of the letterhead, kept by the staff
who act for it; a notice of violation is printed with the letterhead of the town its facility's
parcel belongs to, and its document of record names that version.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from sewer_office.core import letter_edits
from sewer_office.core.models import IssuedDocument

from . import enforcement_factories as ef
from .factories import Town
from .jurisdiction_support import HOME, OTHER

FIELDS = {
    "office_name": "Office of the Superintendent of the Sewer Districts",
    "address": "1 Town Hall Road\nSomewhere, NY 12601",
    "phone": "(845) 555-0100",
    "email": "sewer@example.org",
    "hours": "Monday to Friday, 8:30 to 4:00",
    "note": "The office's address",
}


def _save(town: Town, user: str, name: str, jurisdiction: str) -> Any:
    return letter_edits.save_letterhead(
        FIELDS | {"town_name": name}, actor=town.u(user), jurisdiction=jurisdiction
    )


def test_each_town_numbers_its_own_versions_and_prints_its_own(two_towns: Town) -> None:
    home = _save(two_towns, "bothclerk", "Home Town", HOME)
    other = _save(two_towns, "bothclerk", "Other Town", OTHER)
    again = _save(two_towns, "oclerk", "Other Town (new address)", OTHER)
    assert (home.version, other.version, again.version) == (1, 1, 2)
    ef.issued(two_towns, mine=False)  # the other's plant: a parcel of the other town
    ef.issued(two_towns, mine=True)
    docs = IssuedDocument.objects.filter(kind="enforcement.notice").order_by("id")
    assert [d.letterhead.jurisdiction for d in docs] == [OTHER, HOME]
    assert [d.letterhead.version for d in docs] == [2, 1]


def test_a_clerk_keeps_only_their_towns_letterhead(two_towns: Town, login: Any) -> None:
    with pytest.raises(PermissionDenied):
        _save(two_towns, "hclerk", "Other Town", OTHER)
    c = login("hclerk")
    assert c.get(f"/letters/letterhead/?jurisdiction={OTHER}").status_code == 404
    assert c.get(f"/letters/letterhead/preview.pdf?jurisdiction={OTHER}").status_code == 404
    page = c.get("/letters/letterhead/").content.decode()
    assert f"Letterhead of {HOME}" in page and 'id="letterhead-towns"' not in page
    c = login("bothclerk")
    page = c.get(f"/letters/letterhead/?jurisdiction={OTHER}").content.decode()
    assert f"Letterhead of {OTHER}" in page and 'id="letterhead-towns"' in page
    r = c.post(f"/letters/letterhead/?jurisdiction={OTHER}", FIELDS | {"town_name": "Other Town"})
    assert r.status_code == 302 and r["Location"].endswith(f"?jurisdiction={OTHER}")
    assert c.get(f"/letters/letterhead/preview.pdf?jurisdiction={OTHER}").status_code == 200
