"""The services themselves refuse a staff member acting on a record of a town they do not act
for — filing an application, scheduling an inspection, registering an establishment, opening a
violation — as the pages and the API never show them such a record; the same staff member acts
on their own town's records, and an account of both towns on either."""

from __future__ import annotations

import pytest

from sewer_office.accounts.services import create_user
from sewer_office.core.errors import Forbidden
from sewer_office.inspections import services as inspections
from sewer_office.permits.services.building_sewer import file_building_sewer_permit
from sewer_office.registry.services import register_establishment

from .factories import GOOD_DESIGN, PASSWORD, Town, plan_file
from .jurisdiction_support import ARTICLE_MEMBER, HOME

pytestmark = pytest.mark.django_db


def _file(town: Town, actor: object, mine: bool) -> object:
    home = town.owner_home if mine else town.other_home
    assert home is not None
    return file_building_sewer_permit(
        actor,
        applicant=town.owner_person if mine else town.other_person,
        prop=home,
        permit_class=1,
        design=GOOD_DESIGN,
        building=home.buildings.first(),
        reuses_old_sewer=False,
        files=[plan_file()],
    )


def test_one_towns_staff_act_only_for_it(article_towns: Town) -> None:
    t = article_towns
    clerk = create_user("hclerk2", PASSWORD, ("clerk", "superintendent"), jurisdictions=(HOME,))
    other_plant, other_home = t.other_plant, t.other_home
    assert other_plant is not None and other_home is not None
    with pytest.raises(Forbidden, match=f"{ARTICLE_MEMBER}'s, a town you do not act for"):
        _file(t, clerk, mine=False)
    with pytest.raises(Forbidden, match="a town you do not act for"):
        inspections.schedule(clerk, kind="industrial_user", establishment=other_plant)
    with pytest.raises(Forbidden, match="a town you do not act for"):
        register_establishment(
            clerk, name="Corner Deli", kind="restaurant", operator=t.other_person,  # type: ignore[arg-type]
            building=other_home.buildings.get(),
        )  # fmt: skip
    assert _file(t, clerk, mine=True) is not None  # their own town's parcel
    assert _file(t, t.u("clerk"), mine=False) is not None  # the fixture's clerk acts for both
