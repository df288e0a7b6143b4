"""The letters editor's permission battery (``/letters/``): staff read and preview; only the
Superintendent and the clerk save a template or the letterhead; outside users and accounts
without a role are refused; anonymous visitors go to the login page."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from sewer_office.core import letters
from sewer_office.core.models import Letterhead, LetterTemplate
from sewer_office.core.services import perform
from sewer_office.permits.letters import APPROVAL

from .factories import Town, new_record

COVERED_URL_NAMES = {
    "letters:list",
    "letters:detail",
    "letters:preview",
    "letters:letterhead",
    "letters:letterhead-preview",
}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
EDITORS = ("superintendent", "clerk")


def _pages(record: Any) -> list[str]:
    return [
        "/letters/",
        f"/letters/{APPROVAL}/",
        f"/letters/{APPROVAL}/?record={record.pk}",
        f"/letters/{APPROVAL}/preview.pdf",
        f"/letters/{APPROVAL}/preview.pdf?record={record.pk}",
        "/letters/letterhead/",
        "/letters/letterhead/preview.pdf",
    ]


def _approved(town: Town) -> Any:
    a = perform(new_record("industrial", town), "begin_review", town.u("engineer"))
    return perform(a, "approve", town.u("engineer"), {"term_years": "2"})


def _template_post(record: Any, note: str) -> dict[str, Any]:
    return {
        "body": letters.kind(APPROVAL).default_body + "\nThank you.",
        "note": note,
        "record": record.pk,
        "action": "save",
    }


def _letterhead_post(note: str) -> dict[str, Any]:
    return {
        "town_name": "Town of Wappinger",
        "office_name": "Sewer office",
        "address": "20 Middlebush Road\nWappingers Falls, NY 12590",
        "note": note,
    }


def test_the_urls_are_the_ones_covered() -> None:
    assert reverse("letters:list") == "/letters/"
    assert reverse("letters:detail", args=[APPROVAL]) == f"/letters/{APPROVAL}/"


def test_anonymous_goes_to_login(town: Town, client: Any) -> None:
    for url in _pages(_approved(town)):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url


@pytest.mark.parametrize("username", ["owner", "other", "norole"])
def test_outside_users_and_no_role_are_refused(town: Town, login: Any, username: str) -> None:
    record = _approved(town)
    c = login(username)
    for url in _pages(record):
        assert c.get(url).status_code == 403, url
    assert c.post(f"/letters/{APPROVAL}/", _template_post(record, "x")).status_code == 403
    assert c.post("/letters/letterhead/", _letterhead_post("x")).status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_read_and_preview_and_only_editors_save(
    town: Town, login: Any, username: str
) -> None:
    record = _approved(town)
    c = login(username)
    for url in _pages(record):
        r = c.get(url)
        assert r.status_code == 200, url
    r = c.post(f"/letters/{APPROVAL}/", _template_post(record, f"by {username}"))
    h = c.post("/letters/letterhead/", _letterhead_post(f"by {username}"))
    if username in EDITORS:
        assert (r.status_code, h.status_code) == (302, 302)
        assert LetterTemplate.objects.get().note == f"by {username}"
        assert Letterhead.objects.get().note == f"by {username}"
    else:
        assert (r.status_code, h.status_code) == (403, 403)
        assert not LetterTemplate.objects.exists() and not Letterhead.objects.exists()


def test_an_unknown_kind_or_version_is_404(town: Town, login: Any) -> None:
    record = _approved(town)
    c = login("viewer")
    assert c.get("/letters/no.such/").status_code == 404
    assert c.get(f"/letters/{APPROVAL}/preview.pdf?record={record.pk}&version=9").status_code == 404
    assert c.get("/letters/letterhead/preview.pdf?version=9").status_code == 404
