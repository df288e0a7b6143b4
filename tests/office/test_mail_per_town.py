"""The message log in an office of two member towns: each message keeps the town of the record
it is about; a staff member of one town reads their town's messages and those about no one
town's record, and the other town's are not there for them (404); the coordinator reads all."""

from __future__ import annotations

from typing import Any

import pytest

from sewer_office.mail.choices import Topic
from sewer_office.mail.models import SentMessage
from sewer_office.mail.services import send_message

from .factories import Town
from .jurisdiction_support import HOME, OTHER

pytestmark = pytest.mark.django_db


def _sent(town: Town, about: Any, key: str) -> SentMessage:
    return send_message(
        to=f"{key}@example.org", subject=f"About {key}", body="…", topic=Topic.INVOICE_ISSUED,
        user=town.u("owner"), about=about, key=key,
    )  # fmt: skip


def test_each_town_reads_its_own_messages(two_towns: Town, login: Any) -> None:
    home = _sent(two_towns, two_towns.owner_restaurant, "home")
    other = _sent(two_towns, two_towns.other_plant, "other")
    nobody = _sent(two_towns, None, "nobody")
    assert (home.jurisdiction, other.jurisdiction, nobody.jurisdiction) == (HOME, OTHER, "")
    for user, seen, unseen in (
        ("hclerk", {"home", "nobody"}, other),
        ("oclerk", {"other", "nobody"}, home),
        ("coordinator", {"home", "other", "nobody"}, None),
    ):
        c = login(user)
        listed = {
            m["subject"].removeprefix("About ")
            for m in c.get("/api/mail/messages/").json()["results"]
        }
        assert listed == seen, user
        page = c.get("/mail/messages/").content.decode()
        assert all(f"About {k}" in page for k in seen), user
        if unseen is not None:
            assert f"About {unseen.key}" not in page
            assert c.get(f"/api/mail/messages/{unseen.pk}/").status_code == 404
