"""A violation in a member town whose law is its own (the Town of Poughkeepsie beside the demo
town): the provision violated is cited as its law cites it, its notice demands what its law
demands (an explanation and a plan), its clock runs from the day the notice is mailed, its
letter says so, and no fine is stated where its package states none. The demo town's own
violations keep § 196-22 as before."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.test import Client

from sewer_office.accounts.services import create_user
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.letters import compose
from sewer_office.core.models import AuditEvent
from sewer_office.core.services import perform
from sewer_office.enforcement import rules, services
from sewer_office.enforcement.letters import NOTICE, is_order
from sewer_office.enforcement.liability import fines
from sewer_office.enforcement.models import Violation

from .enforcement_factories import at
from .enforcement_factories import served as served_in_home_town
from .factories import PASSWORD, Town
from .jurisdiction_support import HOME

pytestmark = pytest.mark.django_db

PROHIBITION = "T. Poughkeepsie Code [ecode360 6322550] A(1)"  # the explosion-hazard limits
NOTICE_SECTION = "T. Poughkeepsie Code [ecode360 6322621] A"


def _opened(town: Town, section: str = PROHIBITION, day: str = "2026-10-28") -> Violation:
    plant = town.other_plant
    assert plant is not None
    plant.refresh_from_db()  # moved to the other town by the fixture
    kind = rules.kind_choices(date.fromisoformat(day))[0][0]
    return services.open_violation(
        town.u("superintendent"),
        kind=kind,
        section=section,
        description="Explosion-hazard meter over 40 % of the LEL",
        person=plant.operator.current(),
        establishment=plant,
        observed_on=date.fromisoformat(day),
        at=at(day, 11),
    )


def _issued(town: Town, **data: Any) -> Violation:
    v = _opened(town)
    return perform(
        v,
        "issue_notice",
        town.u("superintendent"),
        {"nature": "LEL over 40 %", **data},
        at=at("2026-10-30", 9),
    )


def _mailed(town: Town, on: str = "2026-11-01", method: str = "certified_mail") -> Violation:
    v = _issued(town)
    return perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": on, "service_method": method, "receipt_number": "7019 0002"},
        at=at("2026-11-02", 15),
    )


def test_the_violation_is_cited_as_the_towns_law_cites_it(two_towns: Town) -> None:
    v = _opened(two_towns, section=f"  {PROHIBITION} ")
    assert v.section == PROHIBITION
    with pytest.raises(InvalidInput) as article:
        _opened(two_towns, section="§ 196-19 C(3)")  # Wappinger's article is not its law
    assert "Town of Poughkeepsie" in str(article.value.errors["section"])
    with pytest.raises(InvalidInput) as definition:
        _opened(two_towns, section="T. Poughkeepsie Code [ecode360 6322258] ENGINEER")
    assert "cannot be violated" in definition.value.errors["section"][0]


def test_its_notice_demands_an_explanation_and_a_plan_within_its_days(two_towns: Town) -> None:
    notice = _issued(two_towns).notices.get()
    assert notice.citation == NOTICE_SECTION
    assert notice.period_days == 10
    assert notice.daily_amount is None  # its package states no daily fine
    assert not is_order(notice)
    text = " ".join(str(t) for _, t in compose(NOTICE, notice))
    assert "explanation of the violation and a plan" in text
    assert "10 calendar days of the date this notice is mailed" in text
    assert "§ 196-22" not in text
    assert text.rstrip().endswith("Town Engineer")  # its law's official signs it


def test_its_law_gives_the_days_a_notice_states(two_towns: Town) -> None:
    with pytest.raises(InvalidInput) as longer:
        _issued(two_towns, period_days="20")
    assert "gives 10 days" in str(longer.value)


def test_its_clock_runs_from_the_mailing(two_towns: Town) -> None:
    """Mailed on Sunday 2026-11-01: ten calendar days end on Wednesday 2026-11-11, Veterans'
    Day, so the last day moves to Thursday 2026-11-12 (N.Y. General Construction Law § 25-a) —
    the answer `sewer-use fines --jurisdiction town-of-poughkeepsie --mailed 2026-11-01` gives."""
    v = _mailed(two_towns)
    notice = v.notices.get()
    assert v.state == "served"
    assert notice.mailed_on == date(2026, 11, 1)
    assert (notice.nominal_deadline, notice.deadline) == (date(2026, 11, 11), date(2026, 11, 12))
    assert notice.deadline_basis["counted_from"] == "mailing"
    assert notice.deadline_basis["citation"] == NOTICE_SECTION
    assert notice.delivered_on is None and "runs from the mailing" in notice.service_text
    assert AuditEvent.objects.filter(action="serve").latest("id").citation == NOTICE_SECTION
    f = fines(v, date(2026, 12, 1))
    assert f.computation is None
    assert "penalty provisions" in f.message


def test_personal_service_does_not_start_a_mailing_clock(two_towns: Town) -> None:
    with pytest.raises(InvalidInput) as refused:
        _mailed(two_towns, method="personal")
    assert "mailed" in refused.value.errors["service_method"][0]


def test_the_home_towns_violations_keep_the_article(two_towns: Town) -> None:
    v = served_in_home_town(two_towns)
    notice = v.notices.get()
    assert notice.citation == "§ 196-22 A"
    assert notice.deadline == date(2026, 1, 15)
    assert notice.daily_amount is not None


def test_only_staff_who_act_for_its_town_act_on_it(two_towns: Town) -> None:
    """A clerk of the home town is refused by the service itself, not only by the pages; the
    other town's clerk serves the notice."""
    v = _issued(two_towns)
    data = {"served_on": "2026-11-01", "service_method": "certified_mail", "receipt_number": "1"}
    with pytest.raises(Forbidden, match="town-of-poughkeepsie's, a town you do not act for"):
        perform(v, "serve", two_towns.u("hclerk"), data, at=at("2026-11-02"))
    home_superintendent = create_user("hsup", PASSWORD, ("superintendent",), jurisdictions=(HOME,))
    with pytest.raises(Forbidden, match="a town you do not act for"):
        _opened_by(two_towns, home_superintendent)
    v = perform(v, "serve", two_towns.u("oclerk"), data, at=at("2026-11-02"))
    assert v.state == "served"


def _opened_by(town: Town, user: Any) -> Violation:
    plant = town.other_plant
    assert plant is not None
    plant.refresh_from_db()
    return services.open_violation(
        user,
        kind=rules.kind_choices(date(2026, 10, 28))[0][0],
        section=PROHIBITION,
        description="LEL",
        person=plant.operator.current(),
        establishment=plant,
        at=at("2026-10-28"),
    )


def test_its_violation_page_cites_its_law_beside_each_action(two_towns: Town) -> None:
    v = _opened(two_towns)
    c = Client()
    assert c.login(username="superintendent", password=PASSWORD)
    body = c.get(f"/enforcement/{v.pk}/").content.decode()
    headings = [line for line in body.splitlines() if line.strip().startswith("<summary>")]
    [issue] = [h for h in headings if "Issue notice" in h]
    assert NOTICE_SECTION in issue
    assert not [h for h in headings if "§ 196-22" in h]
    # the notice form's period: the least its law gives, counted as it counts
    form = body[body.index('id="action-issue_notice"') :]
    form = form[: form.index("</details>")]
    assert "at least 10 calendar days of the date this notice is mailed" in form
    assert "§ 196-22" not in form


def test_the_answer_to_its_notice_is_named_for_what_the_notice_demands(two_towns: Town) -> None:
    v = _mailed(two_towns)
    c = Client()
    assert c.login(username="superintendent", password=PASSWORD)
    body = c.get(f"/enforcement/{v.pk}/").content.decode()
    assert 'id="action-report_correction"' in body
    assert "Record the explanation and plan" in body and "Report the correction" not in body
    # the home town's violations keep the article's step
    home = served_in_home_town(two_towns)
    assert "Report the correction" in c.get(f"/enforcement/{home.pk}/").content.decode()
