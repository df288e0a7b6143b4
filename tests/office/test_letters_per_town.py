"""Each member town's letters carry its own letterhead and its own wording.

In an office of several towns each keeps its own versions of the letterhead and of each
letter's template, kept by the staff who act for it; a notice of violation is printed with the
letterhead and the wording of the town its facility's parcel belongs to, and its document of
record names those versions.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from sewer_office.core import letter_edits, letters
from sewer_office.core.letter_versions import current_template
from sewer_office.core.models import IssuedDocument

from . import enforcement_factories as ef
from .factories import Town
from .jurisdiction_support import ARTICLE_MEMBER, HOME

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


def test_each_town_numbers_its_own_versions_and_prints_its_own(article_towns: Town) -> None:
    home = _save(article_towns, "bothclerk", "Home Town", HOME)
    other = _save(article_towns, "bothclerk", "Other Town", ARTICLE_MEMBER)
    again = _save(article_towns, "oclerk", "Other Town (new address)", ARTICLE_MEMBER)
    assert (home.version, other.version, again.version) == (1, 1, 2)
    ef.issued(article_towns, mine=False)  # the other's plant: a parcel of the other town
    ef.issued(article_towns, mine=True)
    docs = IssuedDocument.objects.filter(kind="enforcement.notice").order_by("id")
    assert [d.letterhead.jurisdiction for d in docs] == [ARTICLE_MEMBER, HOME]
    assert [d.letterhead.version for d in docs] == [2, 1]


def test_a_clerk_keeps_only_their_towns_letterhead(article_towns: Town, login: Any) -> None:
    with pytest.raises(PermissionDenied):
        _save(article_towns, "hclerk", "Other Town", ARTICLE_MEMBER)
    c = login("hclerk")
    assert c.get(f"/letters/letterhead/?jurisdiction={ARTICLE_MEMBER}").status_code == 404
    assert (
        c.get(f"/letters/letterhead/preview.pdf?jurisdiction={ARTICLE_MEMBER}").status_code == 404
    )
    page = c.get("/letters/letterhead/").content.decode()
    assert f"Letterhead of {HOME}" in page and 'id="letterhead-towns"' not in page
    c = login("bothclerk")
    page = c.get(f"/letters/letterhead/?jurisdiction={ARTICLE_MEMBER}").content.decode()
    assert f"Letterhead of {ARTICLE_MEMBER}" in page and 'id="letterhead-towns"' in page
    r = c.post(
        f"/letters/letterhead/?jurisdiction={ARTICLE_MEMBER}", FIELDS | {"town_name": "Other Town"}
    )
    assert r.status_code == 302 and r["Location"].endswith(f"?jurisdiction={ARTICLE_MEMBER}")
    assert (
        c.get(f"/letters/letterhead/preview.pdf?jurisdiction={ARTICLE_MEMBER}").status_code == 200
    )


NOTICE = "enforcement.notice"


def _wording(town: Town, user: str, jurisdiction: str, words: str) -> Any:
    body = letters.kind(NOTICE).default_body.replace("{{ fine }}", "{{ fine }}\n" + words)
    return letter_edits.save_template(
        NOTICE, body, "The town's own words", actor=town.u(user), jurisdiction=jurisdiction
    )


def test_each_town_keeps_its_own_wording_of_a_letter(article_towns: Town, login: Any) -> None:
    home = _wording(article_towns, "bothclerk", HOME, "Questions: call the home office.")
    other = _wording(article_towns, "oclerk", ARTICLE_MEMBER, "Questions: call the other town.")
    assert (home.version, other.version, other.jurisdiction) == (1, 1, ARTICLE_MEMBER)
    theirs = ef.issued(article_towns, mine=False).notices.get()  # the other town's plant
    mine = ef.issued(article_towns, mine=True).notices.get()
    docs = {d.object_id: d for d in IssuedDocument.objects.filter(kind=NOTICE)}
    assert docs[str(theirs.pk)].template == other and docs[str(mine.pk)].template == home
    assert "call the other town" in " ".join(t for _, t in letters.compose(NOTICE, theirs))
    assert "call the home office" in " ".join(t for _, t in letters.compose(NOTICE, mine))
    with pytest.raises(PermissionDenied):
        _wording(article_towns, "hclerk", ARTICLE_MEMBER, "Not theirs to write.")
    # the preview is on a record of the town whose wording is shown, never another's
    page = login("bothclerk").get(f"/letters/{NOTICE}/?jurisdiction={HOME}").content.decode()
    assert f'<option value="{mine.pk}"' in page and f'<option value="{theirs.pk}"' not in page


def test_the_letters_page_is_the_towns_own(article_towns: Town, login: Any) -> None:
    _wording(article_towns, "oclerk", ARTICLE_MEMBER, "Questions: call the other town.")
    c = login("bothclerk")
    page = c.get(f"/letters/?jurisdiction={ARTICLE_MEMBER}").content.decode()
    assert f"Letters of {ARTICLE_MEMBER}" in page and 'id="letter-towns"' in page
    assert f"/letters/{NOTICE}/?jurisdiction={ARTICLE_MEMBER}" in page
    home = c.get(f"/letters/?jurisdiction={HOME}").content.decode()
    assert home.count("0 (bundled)") == page.count("0 (bundled)") + 1  # the notice is edited
    detail = c.get(f"/letters/{NOTICE}/?jurisdiction={ARTICLE_MEMBER}").content.decode()
    assert "version 1" in detail and "call the other town" in detail
    body = letters.kind(NOTICE).default_body
    r = c.post(
        f"/letters/{NOTICE}/?jurisdiction={HOME}",
        {"body": body, "note": "Back to the bundled words", "action": "save"},
    )
    assert r.status_code == 302 and r["Location"].endswith(f"?jurisdiction={HOME}")
    assert current_template(NOTICE, jurisdiction=HOME) is not None
    # the home town's clerk sees only the home town's letters
    c = login("hclerk")
    assert c.get(f"/letters/?jurisdiction={ARTICLE_MEMBER}").status_code == 404
    assert c.get(f"/letters/{NOTICE}/?jurisdiction={ARTICLE_MEMBER}").status_code == 404
