"""The services themselves refuse a staff member acting on a record of a town they do not act
for — filing an application, scheduling an inspection, registering an establishment, opening a
violation, designating a sampling point, setting a limit, registering a meter, approving
results — as the pages and the API never show them such a record; the same staff member acts
on their own town's records, and an account of both towns on either."""

from __future__ import annotations

from datetime import date

import pytest

from sewer_office.accounts.services import create_user
from sewer_office.core.errors import Forbidden
from sewer_office.inspections import services as inspections
from sewer_office.meters.services import register_meter
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import LabResult
from sewer_office.monitoring.sampling import add_discharge_limit, add_sampling_point
from sewer_office.monitoring.services import approve_results
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


def test_sampling_limits_meters_and_results_refuse_another_towns_facility(
    article_towns: Town,
) -> None:
    t = article_towns
    sup = create_user("hsup2", PASSWORD, ("superintendent",), jurisdictions=(HOME,))
    plant, diner = t.other_plant, t.owner_restaurant
    assert plant is not None and diner is not None
    refused = f"{ARTICLE_MEMBER}'s, a town you do not act for"
    with pytest.raises(Forbidden, match=refused):
        add_sampling_point(sup, plant, code="CM-9", manhole="MH09", basis="control_manhole")
    with pytest.raises(Forbidden, match=refused):
        add_discharge_limit(
            sup, plant, parameter="copper", limit_type="daily_maximum", value="1", unit="mg/l",
            effective_from=date(2026, 1, 1),
        )  # fmt: skip
    with pytest.raises(Forbidden, match=refused):
        register_meter(
            sup, sampling_point=plant.sampling_points.get(), ident="W-FLOW", parameter="flow",
            unit="gpd",
        )  # fmt: skip
    # a file of both towns' rows, imported by an account of both: approving it takes one too
    data = (
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
        "S1,2026-03-02T10:00,grab,Copper,0.5,mg/l,OWNER-CAFE,CM-1\n"
        "S2,2026-03-02T11:00,grab,Copper,0.5,mg/l,OTHER-PLANT,CM-1\n"
    )
    assert import_lab_file(data.encode(), "both.csv", t.u("superintendent")).stored
    with pytest.raises(Forbidden, match="a town you do not act for"):
        approve_results(LabResult.objects.all(), sup)
    assert LabResult.objects.filter(state="reported").count() == 2  # nothing approved
    # their own town's facility and results
    assert add_sampling_point(sup, diner, code="CM-9", manhole="MH09", basis="control_manhole")
    assert approve_results(LabResult.objects.filter(establishment=diner), sup) == 1
