"""Two member towns in one office, for the tests of jurisdictions: the small town, with the
other applicant's parcels passed to a second town, a clerk for each town, one for both, and
the plant's coordinator."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.registry.models import Establishment, Property
from sewer_office.registry.services import move_to_jurisdiction

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
