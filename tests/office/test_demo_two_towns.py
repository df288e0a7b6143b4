"""The demo as `make run` serves it: the demo town and the Town of Poughkeepsie on one plant.

A clerk of the demo town does not see the Town of Poughkeepsie's records; that town's clerk
sees its violation, whose notice demands an explanation and a plan within 10 calendar days of
its mailing under its own law; the plant's coordinator sees both towns, and the program's
annual report covers both towns' industrial users."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from sewer_cli.cmd_office import DEMO_LOGINS, DEMO_MEMBER_TOWNS, _warn_if_one_town
from sewer_office.demo.member_town import PLANT_NAME
from sewer_office.enforcement.models import Violation
from sewer_office.registry.models import Property

pytestmark = pytest.mark.django_db

ANCHOR = date(2026, 12, 7)


@pytest.fixture
def two_town_demo(demo_town: Any, settings: Any) -> Violation:
    settings.SEWER_USE_JURISDICTIONS = DEMO_MEMBER_TOWNS.split(",")
    demo_town(seed=4, anchor=ANCHOR)
    return Violation.objects.get(establishment__name=PLANT_NAME)


def _as(client: Any, username: str) -> Any:
    client.logout()
    assert client.login(username=username, password="demo")
    return client


def test_each_town_sees_its_own_and_the_coordinator_both(
    two_town_demo: Violation, client: Any
) -> None:
    v = two_town_demo
    page = f"/enforcement/{v.pk}/"
    assert _as(client, "clerk").get(page).status_code == 404
    theirs = _as(client, "poughkeepsie-clerk").get(page)
    assert theirs.status_code == 200
    assert "for Town of Poughkeepsie" in theirs.content.decode()
    assert _as(client, "coordinator").get(page).status_code == 200
    acme = Violation.objects.filter(establishment__code="ACME-PLATING").first()
    assert acme is not None
    assert _as(client, "poughkeepsie-clerk").get(f"/enforcement/{acme.pk}/").status_code == 404


def test_its_notice_runs_from_the_mailing_under_its_own_law(two_town_demo: Violation) -> None:
    notice = two_town_demo.notices.get()
    assert notice.citation == "T. Poughkeepsie Code [ecode360 6322621] A"
    mailed = ANCHOR - timedelta(days=9)
    assert notice.mailed_on == mailed and notice.deadline_basis["counted_from"] == "mailing"
    assert notice.nominal_deadline == mailed + timedelta(days=10)


def test_the_annual_report_is_the_coordinators_and_covers_both(
    two_town_demo: Violation, client: Any
) -> None:
    year = ANCHOR.year
    report = _as(client, "coordinator").get(f"/pretreatment/annual/{year}/").content.decode()
    assert PLANT_NAME in report and "Acme Plating" in report
    assert _as(client, "superintendent").get(f"/pretreatment/annual/{year}/").status_code == 403


def test_the_demo_logins_name_each_towns_staff() -> None:
    names = {name for name, _ in DEMO_LOGINS}
    assert {"coordinator", "poughkeepsie-clerk", "poughkeepsie-engineer"} <= names


def test_an_earlier_one_town_demo_is_named(town: Any, settings: Any, capsys: Any) -> None:
    """`make run` on a data directory loaded by a demo of one town says how to get both."""
    settings.SEWER_USE_JURISDICTIONS = DEMO_MEMBER_TOWNS.split(",")
    _warn_if_one_town(Property, settings)
    assert "holds a demo of one town" in capsys.readouterr().out
    settings.SEWER_USE_JURISDICTIONS = []
    _warn_if_one_town(Property, settings)
    assert capsys.readouterr().out == ""
