"""The permission battery of the imports page (``/imports/``), where a town's records come in:
the clerk's, the engineer's and the Superintendent's; every other role and an outside user get
403, an anonymous visitor the login page. The menu leads there only for those three."""

from __future__ import annotations

from typing import Any

import pytest

from .factories import Town

COVERED_URL_NAMES = {"imports"}


@pytest.mark.parametrize("username", ["clerk", "engineer", "superintendent"])
def test_importers_see_the_imports_page_and_its_menu_entry(
    town: Town, login: Any, username: str
) -> None:
    r = login(username).get("/imports/")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Everything out" in body and "sewer-use export-all DIR" in body
    assert 'href="/imports/"' in login(username).get("/").content.decode()


@pytest.mark.parametrize("username", ["inspector", "highway", "viewer", "owner", "norole"])
def test_other_users_are_refused(town: Town, login: Any, username: str) -> None:
    assert login(username).get("/imports/").status_code == 403
    if username != "norole":
        assert 'href="/imports/"' not in login(username).get("/").content.decode()


def test_anonymous_is_sent_to_sign_in(town: Town, login: Any) -> None:
    r = login(None).get("/imports/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
