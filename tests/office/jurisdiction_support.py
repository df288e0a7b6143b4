"""Two member towns in one office, for the tests of jurisdictions: the small town, with the
other applicant's parcels passed to a second town, a clerk for each town, one for both, and
the plant's coordinator."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.core.services import perform
from sewer_office.enforcement import rules, services
from sewer_office.registry.models import Establishment, Property
from sewer_office.registry.services import move_to_jurisdiction

from .enforcement_factories import at
from .factories import PASSWORD, Town
from .monitoring_factories import facilities

HOME = "demo"
#: A member town whose law is its own.
OTHER = "town-of-poughkeepsie"
#: A member town under Article VII with values of its own.
ARTICLE_MEMBER = "wappinger"


def member_office(town: Town, settings: Any, member: str) -> Town:
    """The small town in an office of ``HOME`` (primary) and ``member``: the other applicant's
    parcels (home, lot, plant) pass to ``member`` on 2026-01-01, and the small town's objects
    are read again (the facility took its parcel's town in the database); a clerk for each
    town, one for both, the plant's coordinator; the fixture's staff act for both towns."""
    settings.SEWER_USE_JURISDICTIONS = [HOME, member]
    coordinator = create_user("coordinator", PASSWORD, ("coordinator",))
    town.users["coordinator"] = coordinator
    for name, codes in (("hclerk", (HOME,)), ("oclerk", (member,)), ("bothclerk", (HOME, member))):
        town.users[name] = create_user(name, PASSWORD, ("clerk",), jurisdictions=codes)
    for name in ("clerk", "superintendent", "engineer", "inspector"):
        for code in (HOME, member):
            grant_jurisdiction(town.u(name), code)
    for prop in _other_parcels(town):
        move_to_jurisdiction(coordinator, prop, member, date(2026, 1, 1), "IMA res. 2026-1")
    for value in (town.other_home, town.other_phase3_lot, town.other_plant):
        assert value is not None
        value.refresh_from_db()
    facilities(town)  # both facilities' codes and sampling points, before any page is seen
    return town


@pytest.fixture
def two_towns(town: Town, settings: Any) -> Town:
    """The small town with the Town of Poughkeepsie, whose law is its own, as member town."""
    return member_office(town, settings, OTHER)


@pytest.fixture
def article_towns(town: Town, settings: Any) -> Town:
    """The small town with a member town under the article with values of its own:
    ``wappinger`` (no fee, due days, fine or grease interval configured)."""
    return member_office(town, settings, ARTICLE_MEMBER)


def _other_parcels(town: Town) -> list[Property]:
    assert town.other_plant is not None and town.other_plant.building is not None
    return [town.other_home, town.other_phase3_lot, town.other_plant.building.property]  # type: ignore[list-item]


def all_of_town(town: Town, settings: Any, code: str) -> None:
    """An office of the one town ``code``: the primary, with every parcel and facility its own
    (as an installation of that town keeps them; the small town's objects read again) — each
    record is then computed under its values, as the office computes every record under its
    own town's."""
    settings.SEWER_USE_JURISDICTION = code
    settings.SEWER_USE_JURISDICTIONS = []
    Property.objects.update(jurisdiction=code)
    Establishment.objects.update(jurisdiction=code)
    for value in vars(town).values():
        if isinstance(value, Property | Establishment):
            value.refresh_from_db()


def moved(town: Town, est: Establishment, to: str, on: date = date(2026, 1, 1)) -> Establishment:
    """``est``'s parcel moved to ``to`` by the coordinator; ``est`` as now stored."""
    prop = est.building.property
    move_to_jurisdiction(town.u("coordinator"), prop, to, on, "IMA res. 2026-1")
    return Establishment.objects.get(pk=est.pk)


def mailed_in_other_town(town: Town) -> Any:
    """For the browser tests (their own database, no fixture of two towns): the plant passes to
    the Town of Poughkeepsie, whose clerk ``oclerk`` acts for it alone, and a violation of its
    explosion-hazard limit gets the town's notice, mailed on 2026-11-01 (its answer due
    2026-11-12, Veterans' Day moving it)."""
    coordinator = create_user("coordinator", PASSWORD, ("coordinator",))
    create_user("oclerk", PASSWORD, ("clerk",), jurisdictions=(OTHER,))
    for name in ("superintendent", "clerk"):
        grant_jurisdiction(town.u(name), OTHER)
    assert town.other_plant is not None and town.other_plant.building is not None
    move_to_jurisdiction(
        coordinator, town.other_plant.building.property, OTHER, date(2026, 1, 1), "IMA 2026-1"
    )
    plant = Establishment.objects.get(pk=town.other_plant.pk)
    v = services.open_violation(
        town.u("superintendent"),
        kind=rules.kind_choices(date(2026, 10, 28))[0][0],
        section="T. Poughkeepsie Code [ecode360 6322550] A(1)",
        description="Explosion-hazard meter at 46 % of the LEL",
        person=plant.operator.current(),
        establishment=plant,
        at=at("2026-10-28"),
    )
    v = perform(
        v, "issue_notice", town.u("superintendent"), {"nature": "LEL 46 %"}, at=at("2026-10-30")
    )
    return perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-11-01", "service_method": "certified_mail", "receipt_number": "9"},
        at=at("2026-11-02"),
    )
