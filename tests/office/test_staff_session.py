"""A staff session ends after a working day without activity (core/sessions.py,
``SEWER_USE_STAFF_SESSION_IDLE_HOURS``, 10 by default); outside users keep Django's lifetime."""

from __future__ import annotations

import time
from typing import Any

from sewer_office.core.sessions import LAST_ACTIVITY, STAMP_EVERY_SECONDS

from .factories import PASSWORD, Town

HOUR = 3600


def _idle_for(client: Any, seconds: float) -> None:
    session = client.session
    session[LAST_ACTIVITY] = time.time() - seconds
    session.save()


def test_a_staff_request_records_the_activity_and_the_idle_expiry(town: Town, client: Any) -> None:
    r = client.post("/accounts/login/", {"username": "clerk", "password": PASSWORD})
    assert r.status_code == 302
    session = client.session
    assert isinstance(session.get(LAST_ACTIVITY), float)
    assert session.get_expiry_age() == 10 * HOUR  # the cookie and the row end with it


def test_a_staff_session_idle_longer_than_the_limit_is_signed_out(town: Town, client: Any) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    assert client.get("/registry/persons/").status_code == 200
    _idle_for(client, 10 * HOUR + 60)
    r = client.get("/registry/persons/?q=acme")
    assert r.status_code == 302
    assert r["Location"] == "/accounts/login/?next=/registry/persons/%3Fq%3Dacme"
    assert "_auth_user_id" not in client.session
    page = client.get(r["Location"])
    assert "Signed out after 10 hours without activity" in page.content.decode()
    assert client.get("/registry/persons/").status_code == 302  # still signed out


def test_a_staff_session_within_the_limit_goes_on_and_is_moved_forward(
    town: Town, client: Any
) -> None:
    assert client.login(username="clerk", password=PASSWORD)
    _idle_for(client, 9 * HOUR)
    assert client.get("/registry/persons/").status_code == 200
    assert time.time() - client.session[LAST_ACTIVITY] < STAMP_EVERY_SECONDS


def test_the_api_answers_an_idle_staff_session_as_not_signed_in(town: Town, client: Any) -> None:
    assert client.login(username="engineer", password=PASSWORD)
    assert client.get("/api/persons/").status_code == 200
    _idle_for(client, 11 * HOUR)
    assert client.get("/api/persons/").status_code in (401, 403)


def test_the_limit_is_a_setting(town: Town, client: Any, settings: Any) -> None:
    settings.SEWER_USE_STAFF_SESSION_IDLE_HOURS = 1
    assert client.login(username="superintendent", password=PASSWORD)
    _idle_for(client, 2 * HOUR)
    assert client.get("/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_outside_users_keep_their_longer_session(town: Town, client: Any, settings: Any) -> None:
    assert client.login(username="owner", password=PASSWORD)
    _idle_for(client, 3 * 24 * HOUR)
    assert client.get("/").status_code == 200
    assert "_auth_user_id" in client.session
    assert client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE == 14 * 24 * HOUR
