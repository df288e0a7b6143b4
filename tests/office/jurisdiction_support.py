"""Two member towns in one office, for the tests of jurisdictions: the small town, with the
other applicant's parcels passed to a second town, a clerk for each town, one for both, and
the plant's coordinator."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.accounts.services import create_user, grant_jurisdiction
from sewer_office.registry.models import Property
from sewer_office.registry.services import move_to_jurisdiction

from .factories import PASSWORD, Town
from .monitoring_factories import facilities

HOME = "demo"
OTHER = "town-of-poughkeepsie"


@pytest.fixture
def two_towns(town: Town, settings: Any) -> Town:
    """The small town with a second member town: the other applicant's parcels (home, lot,
    plant) pass to it; a clerk for each town and the plant's coordinator."""
    settings.SEWER_USE_JURISDICTIONS = [HOME, OTHER]
    coordinator = create_user("coordinator", PASSWORD, ("coordinator",))
    town.users["coordinator"] = coordinator
    for name, codes in (("hclerk", (HOME,)), ("oclerk", (OTHER,)), ("bothclerk", (HOME, OTHER))):
        town.users[name] = create_user(name, PASSWORD, ("clerk",), jurisdictions=codes)
    for name in ("clerk", "superintendent"):  # the fixture's staff act for both towns
        for code in (HOME, OTHER):
            grant_jurisdiction(town.u(name), code)
    for prop in _other_parcels(town):
        move_to_jurisdiction(coordinator, prop, OTHER, date(2026, 1, 1), "IMA res. 2026-1")
    facilities(town)  # both facilities' codes and sampling points, before any page is seen
    return town


def _other_parcels(town: Town) -> list[Property]:
    assert town.other_plant is not None and town.other_plant.building is not None
    return [town.other_home, town.other_phase3_lot, town.other_plant.building.property]  # type: ignore[list-item]
