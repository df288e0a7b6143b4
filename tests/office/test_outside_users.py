"""Outside users and the office's roles: each sees only the menus that lead somewhere for it
(an owner's own records, not the office's empty lists); the next action on a permit's page
names who must act, and the one whose turn it is is told so beside its button; an account not
yet linked is told what to send and where, and "Apply" does not lead to an empty table."""

from __future__ import annotations

import html as html_lib
import re
from datetime import date
from typing import Any

import pytest

from sewer_office.accounts.roles import APPLICANT
from sewer_office.accounts.services import create_user
from sewer_office.core.context import MENU, menu_of

from .factories import PASSWORD, Town
from .monitoring_factories import facilities
from .paths import bsp_to
from .pretreatment_factories import results

pytestmark = pytest.mark.django_db

STAFF_ONLY = {"Meters", "Schedules", "Pretreatment", "Enforcement", "Persons", "Service areas"}


def _nav(html: str) -> list[str]:
    nav = html.split('<nav class="site"')[1].split("</nav>")[0]
    return [html_lib.unescape(t) for t in re.findall(r">([^<]+)</a>", nav)]


def _labels(user: Any) -> list[str]:
    return [label for label, _ in menu_of(user)]


@pytest.fixture
def newcomer(town: Town) -> Any:
    return create_user("newcomer", PASSWORD, (APPLICANT,))


def test_outside_users_see_only_menus_to_their_things(
    town: Town, login: Any, newcomer: Any
) -> None:
    owner = _labels(town.u("owner"))
    assert {"Dashboard", "Permits & approvals", "Properties", "Establishments"} <= set(owner)
    assert not STAFF_ONLY & set(owner), owner
    assert "Results" not in owner  # no result of the owner's yet
    assert _labels(newcomer) == ["Dashboard", "Permits & approvals", "The law", "API"]
    # a result of the owner's café: its Results menu appears
    fac = facilities(town)
    results(fac.mine, "copper", [("2026-01-10", "0.5")])
    assert "Results" in _labels(town.u("owner"))
    # the page's menu is the computed one, and no entry leads an outside user to a dead end
    c = login("owner")
    html = c.get("/").content.decode()
    assert _nav(html) == _labels(town.u("owner"))
    for label, url in menu_of(town.u("owner")):
        page = c.get(url)
        assert page.status_code == 200, (label, url)


def test_staff_roles_see_their_menus(town: Town) -> None:
    clerk = set(_labels(town.u("clerk")))
    assert clerk >= STAFF_ONLY and "Billing" in clerk
    highway = set(_labels(town.u("highway")))
    assert {"Permits & approvals", "Sewer network"} <= highway
    assert not {"Billing", "Enforcement", "Pretreatment", "Results"} & highway
    inspector = set(_labels(town.u("inspector")))
    assert {"Inspections", "Grease traps", "Establishments"} <= inspector
    assert "Billing" not in inspector
    assert _labels(town.u("norole")) == []
    # every entry of the table is some role's
    shown = set().union(*(set(_labels(town.u(u))) for u in ("clerk", "highway", "owner")))
    assert {i.label for i in MENU} == shown


def test_the_next_action_names_who_must_act(town: Town, login: Any) -> None:
    p = bsp_to(town, "road_opening_permitted")
    url = f"/permits/building-sewer/{p.pk}/"
    mine = login("owner").get(url).content.decode()
    steps = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", mine.split('id="next-steps"')[1]))
    assert "Nothing for you to do" not in mine
    assert "Your turn: notify (ready for inspection)" in steps
    assert "Notify: ready for inspection" in mine  # its button, on the same page
    staff = login("engineer").get(url).content.decode()
    assert "Waiting for Olive Owner (owner) or the Clerk to notify (ready for inspection)" in staff
    # the Superintendent's turn, by name when one person holds the role
    sup = town.u("superintendent")
    sup.first_name, sup.last_name = "Sam", "Ortiz"
    sup.save(update_fields=["first_name", "last_name"])
    ready = bsp_to(town, "ready_for_inspection")
    waiting = login("owner").get(f"/permits/building-sewer/{ready.pk}/").content.decode()
    assert (
        "Waiting for Sam Ortiz (Superintendent) to record inspection and supervised connection"
        in waiting
    )
    assert "Nothing for you to do" not in waiting


def test_an_unlinked_account_is_told_how_to_get_linked(
    town: Town, login: Any, newcomer: Any
) -> None:
    c = login("newcomer")
    home = re.sub(r"<[^>]+>", "", c.get("/").content.decode())
    assert "not yet linked to any person" in home
    for words in ("photo identification", "deed or a tax bill", "Town Clerk's office"):
        assert words in home, words
    permits = c.get("/permits/").content.decode()
    assert 'id="get-linked"' in permits and "/portal/links/new/" in permits
    assert 'id="all-permits"' not in permits  # no empty table
    r = c.get("/permits/building-sewer/new/")
    assert r.status_code == 302 and r["Location"] == "/permits/"
    # a linked owner files as before
    assert login("owner").get("/permits/building-sewer/new/").status_code == 200
    assert 'id="get-linked"' not in login("owner").get("/permits/").content.decode()


def test_the_reports_menu_follows_the_report_dues(town: Town) -> None:
    from sewer_office.pretreatment import report_dues

    assert "Reports" not in _labels(town.u("owner"))
    fac = facilities(town)
    report_dues.add_requirement(
        town.u("superintendent"), fac.mine, kind="periodic", first_due=date(2026, 7, 31)
    )
    assert "Reports" in _labels(town.u("owner"))
    assert "Reports" not in _labels(town.u("other"))
