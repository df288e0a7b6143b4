"""The law page's permission battery: signed-in office users read it, like every page.

The article is public law, but the office is not a public site: anonymous visitors go to the
login page and an account without a role gets 403, as everywhere else.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.urls import reverse

from .factories import USERS, Town

COVERED_URL_NAMES = {"law"}

PAGES = ["/law/", "/law/?c=" + quote("§ 196-19 C(3)")]


def test_anonymous_goes_to_login(town: Town, client: Any) -> None:
    for url in PAGES:
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url


def test_user_without_role_is_refused(town: Town, login: Any) -> None:
    c = login("norole")
    for url in PAGES:
        assert c.get(url).status_code == 403, url


@pytest.mark.parametrize("username", sorted(u for u, r in USERS.items() if r))
def test_every_office_user_reads_the_law(town: Town, login: Any, username: str) -> None:
    c = login(username)
    for url in PAGES:
        assert c.get(url).status_code == 200, url
