"""Permission battery of the pretreatment program's own pages (see test_permissions.py): the
enforcement response plan and its adoption (40 CFR 403.8(f)(5)), the clerk's page for a paper
baseline report (403.12(b)), and a facility's hazardous-waste notification (403.12(p)).

Anonymous → login; no role → 403. The plan: every staff role reads it, only the
Superintendent records its adoption, an outside user gets 403. The paper baseline report: the
roles that record reports received (Superintendent, engineer, clerk); other staff 403; an outside
user 403. The notification: those roles record paper notices; other staff 403; the facility's
own account sends its own, and another's facility is 404.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.enforcement.models import PlanAdoption
from sewer_office.pretreatment import report_dues
from sewer_office.pretreatment.models import ReportDue

from .factories import Town
from .pretreatment_factories import at, chronic_copper, sup

pytestmark = pytest.mark.django_db

COVERED_URL_NAMES = {
    "enforcement:plan",
    "pretreatment:baseline-received",
    "pretreatment:hazardous-new",
}

STAFF = ("superintendent", "engineer", "inspector", "clerk", "highway", "viewer")
RECEIVERS = ("superintendent", "engineer", "clerk")


def _baseline_due(town: Town) -> tuple[Any, ReportDue]:
    f = chronic_copper(town)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="baseline", first_due=date(2026, 7, 31), every_months=0,
        at=at("2026-01-02"),
    )  # fmt: skip
    return f, ReportDue.objects.get(requirement=req)


def test_anonymous_goes_to_login_and_no_role_is_refused(town: Town, login: Any) -> None:
    f, due = _baseline_due(town)
    urls = (
        "/enforcement/plan/",
        f"/pretreatment/reports/{due.pk}/baseline-received/",
        f"/pretreatment/facilities/{f.mine.pk}/hazardous-waste/",
    )
    c = login(None)
    for url in urls:
        r = c.get(url)
        assert r.status_code == 302 and "/accounts/login/" in r["Location"], url
    c = login("norole")
    for url in urls:
        assert c.get(url).status_code == 403, url


@pytest.mark.parametrize("username", STAFF)
def test_the_plan_is_read_by_staff_and_adopted_by_the_superintendent(
    town: Town, login: Any, username: str
) -> None:
    c = login(username)
    page = c.get("/enforcement/plan/")
    assert page.status_code == 200
    adopt_form = 'name="resolution"' in page.content.decode()
    assert adopt_form == (username == "superintendent")
    effective = "1992-09-28"
    r = c.post(
        "/enforcement/plan/",
        {
            "effective": effective,
            "adopted_on": "2026-03-02",
            "adopted_by": "Town Board",
            "resolution": "2026-41",
        },
    )
    if username == "superintendent":
        assert r.status_code == 302
        assert PlanAdoption.objects.filter(resolution="2026-41").count() == 1
    else:
        assert r.status_code == 403
        assert not PlanAdoption.objects.exists()


def test_an_outside_user_does_not_see_the_plan(town: Town, login: Any) -> None:
    assert login("owner").get("/enforcement/plan/").status_code == 403


@pytest.mark.parametrize("username", STAFF)
def test_a_paper_baseline_report_is_recorded_by_its_receivers(
    town: Town, login: Any, username: str
) -> None:
    _, due = _baseline_due(town)
    code = login(username).get(f"/pretreatment/reports/{due.pk}/baseline-received/").status_code
    assert code == (200 if username in RECEIVERS else 403)


def test_the_owner_records_no_paper_report(town: Town, login: Any) -> None:
    _, due = _baseline_due(town)
    code = login("owner").get(f"/pretreatment/reports/{due.pk}/baseline-received/").status_code
    assert code in (403, 404)
    due.refresh_from_db()
    assert due.received_on is None


@pytest.mark.parametrize("username", STAFF)
def test_a_hazardous_waste_notice_is_recorded_by_the_office_roles(
    town: Town, login: Any, username: str
) -> None:
    f, _ = _baseline_due(town)
    code = login(username).get(f"/pretreatment/facilities/{f.mine.pk}/hazardous-waste/")
    assert code.status_code == (200 if username in RECEIVERS else 403)


def test_the_facility_sends_its_own_notice_and_sees_no_other(town: Town, login: Any) -> None:
    f, _ = _baseline_due(town)
    c = login("owner")
    assert c.get(f"/pretreatment/facilities/{f.mine.pk}/hazardous-waste/").status_code == 200
    assert c.get(f"/pretreatment/facilities/{f.theirs.pk}/hazardous-waste/").status_code == 404
