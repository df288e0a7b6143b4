"""Permission battery of the e-mail pages and API: every signed-in user chooses their own
reminders and reads the messages sent to them; staff read every message; an outside user never
sees another's message (by list, filter or guessed id); anonymous and role-less are refused."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.core.models import AuditEvent
from sewer_office.mail.choices import OPTIONAL, Topic
from sewer_office.mail.models import Preference, SentMessage
from sewer_office.mail.services import send_message

from .factories import USERS, Town

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {"mail:preferences", "mail:messages"}
COVERED_URL_PREFIXES = ("mail-message",)
STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
PAGES = ["/mail/preferences/", "/mail/messages/", "/api/mail/messages/"]


def _messages(town: Town) -> tuple[SentMessage, SentMessage]:
    mine = send_message(
        to="owner@example.org", subject="Invoice 2026-0001 issued", body="USD 10",
        topic=Topic.INVOICE_ISSUED, user=town.u("owner"), key="t:mine",
    )  # fmt: skip
    theirs = send_message(
        to="other@example.org", subject="Invoice 2026-0002 issued", body="USD 20",
        topic=Topic.INVOICE_ISSUED, user=town.u("other"), key="t:theirs",
    )  # fmt: skip
    return mine, theirs


def test_anonymous_and_no_role(town: Town, login: Any) -> None:
    mine, _ = _messages(town)
    c = login(None)
    for url in PAGES[:2]:
        assert c.get(url).status_code == 302, url
    assert c.get("/api/mail/messages/").status_code in (401, 403)
    c = login("norole")
    for url in [*PAGES, f"/api/mail/messages/{mine.pk}/"]:
        assert c.get(url).status_code == 403, url
    assert c.post("/mail/preferences/", {}).status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_staff_read_every_message(town: Town, login: Any, username: str) -> None:
    mine, theirs = _messages(town)
    c = login(username)
    for url in PAGES:
        assert c.get(url).status_code == 200, url
    page = c.get("/mail/messages/").content.decode()
    assert mine.subject in page and theirs.subject in page
    data = c.get("/api/mail/messages/?topic=invoice_issued").json()
    assert {m["id"] for m in data["results"]} == {mine.pk, theirs.pk}
    assert c.get(f"/api/mail/messages/{theirs.pk}/").status_code == 200


@pytest.mark.parametrize("username", ["owner", "other"])
def test_outside_users_see_only_their_own(town: Town, login: Any, username: str) -> None:
    mine, theirs = _messages(town)
    own, foreign = (mine, theirs) if username == "owner" else (theirs, mine)
    c = login(username)
    page = c.get("/mail/messages/").content.decode()
    assert own.subject in page and foreign.subject not in page
    data = c.get("/api/mail/messages/").json()
    assert [m["id"] for m in data["results"]] == [own.pk]
    assert c.get(f"/api/mail/messages/?to={foreign.to}").json()["results"] == []
    assert c.get(f"/api/mail/messages/{foreign.pk}/").status_code == 404
    assert c.get(f"/api/mail/messages/{own.pk}/").json()["body"] == own.body
    # the API is read only
    assert c.post("/api/mail/messages/", {}).status_code == 405


@pytest.mark.parametrize("username", sorted(u for u, r in USERS.items() if r))
def test_every_user_chooses_their_own_reminders(town: Town, login: Any, username: str) -> None:
    c = login(username)
    page = c.get("/mail/preferences/").content.decode()
    assert "Notice of violation or order served" in page  # shown as always sent
    wanted = {t: "on" for t in OPTIONAL if t != Topic.INVOICE_OVERDUE}
    r = c.post("/mail/preferences/", wanted)
    assert r.status_code == 302 and r["Location"] == "/mail/preferences/"
    [pref] = Preference.objects.filter(user=town.u(username))
    assert pref.topic == Topic.INVOICE_OVERDUE and pref.wanted is False
    assert AuditEvent.objects.filter(action="set_mail_preference").count() == 1
    # a legal topic posted as off is not a choice the form offers: it stays always sent
    c.post("/mail/preferences/", {**wanted, "notice_served": ""})
    assert not Preference.objects.filter(topic="notice_served").exists()
