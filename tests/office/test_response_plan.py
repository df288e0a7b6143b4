"""The enforcement response plan in the office (40 CFR 403.8(f)(5)): the Town's adoption
(Superintendent only, audited, written once), every proposal naming the plan — "not adopted"
until an adoption is recorded —, a violation's severity from the records, and a response late
against the adopted plan's time frame as a finding, once, never a violation of the user."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import notices, plan, proposals, services
from sewer_office.enforcement.lateness import flag_late_responses
from sewer_office.enforcement.models import PlanAdoption
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_rules.enforcement_plan import plan_sha256

from .enforcement_factories import at, issued, opened, overdue
from .factories import Town

EFFECTIVE = date(1992, 9, 28)  # the bundled plan's version


def adopt(town: Town, on: str = "2025-12-01", resolution: str = "2026-41") -> PlanAdoption:
    return plan.adopt_plan(
        town.u("superintendent"),
        effective=EFFECTIVE,
        adopted_on=date.fromisoformat(on),
        adopted_by="Town Board",
        resolution=resolution,
        at=at(on, 18),
    )


def late_findings() -> list[Finding]:
    return list(Finding.objects.filter(kind=FindingKind.RESPONSE_LATE).order_by("id"))


# --- adoption -------------------------------------------------------------------------------


def test_adoption_is_the_superintendents_audited_and_written_once(town: Town) -> None:
    for who in ("clerk", "engineer"):
        with pytest.raises(Forbidden, match="reserved to the Superintendent"):
            plan.adopt_plan(
                town.u(who),
                effective=EFFECTIVE,
                adopted_on=date(2025, 12, 1),
                adopted_by="Town Board",
                resolution="2026-41",
            )
    assert not PlanAdoption.objects.exists()
    adoption = adopt(town)
    version = plan.version_on(date(2026, 1, 1))
    assert adoption.plan_sha256 == plan_sha256(version)
    assert adoption.reference == "adopted 2025-12-01 by Town Board resolution 2026-41"
    event = AuditEvent.objects.get(action="adopt_response_plan")
    assert event.citation == "40 CFR 403.8(f)(5)" and event.actor == town.u("superintendent")
    assert adoption.plan_sha256 in event.reason
    # once per version and text; never edited, never deleted
    with pytest.raises(Blocked, match="already recorded"):
        adopt(town, on="2025-12-02", resolution="2026-42")
    adoption.resolution = "2026-99"
    with pytest.raises(ImmutableRecord):
        adoption.save()
    with pytest.raises(ImmutableRecord):
        adoption.delete()


def test_adoption_refuses_bad_input_naming_the_field(town: Town) -> None:
    with pytest.raises(InvalidInput) as exc:
        plan.adopt_plan(
            town.u("superintendent"),
            effective=date(2001, 1, 1),
            adopted_on=date(2099, 1, 1),
            adopted_by=" ",
            resolution="",
        )
    assert set(exc.value.errors) == {"effective", "adopted_on", "adopted_by", "resolution"}
    assert "no version effective 2001-01-01" in exc.value.errors["effective"][0]


def test_the_plan_page_shows_the_plan_and_takes_the_adoption(town: Town, login: Any) -> None:
    c = login("clerk")
    body = c.get("/enforcement/").content.decode()
    assert 'href="/enforcement/plan/"' in body  # reached by a click from the enforcement list
    body = c.get("/enforcement/plan/").content.decode()
    assert "not adopted" in body and "Record the adoption" not in body
    assert "How noncompliance is investigated" in body and "Superintendent" in body
    assert "Administrative order (compliance schedule)" in body  # kinds × severities table
    assert c.post("/enforcement/plan/", {"resolution": "x"}).status_code == 403
    c = login("superintendent")
    assert "Record the adoption" in c.get("/enforcement/plan/").content.decode()
    decision = {
        "effective": "1992-09-28",
        "adopted_on": "2099-01-01",
        "adopted_by": "Town Board",
        "resolution": "2026-41",
    }
    r = c.post("/enforcement/plan/", decision)
    assert r.status_code == 400 and "in the future" in r.content.decode()
    assert not PlanAdoption.objects.exists()
    r = c.post("/enforcement/plan/", {**decision, "adopted_on": "2025-11-03"})
    assert r.status_code == 302
    body = c.get("/enforcement/plan/").content.decode()
    assert "Enforcement response plan adopted 2025-11-03 by Town Board resolution 2026-41" in body
    assert plan.fingerprint(plan.version_on(date(2026, 3, 2))) in body


# --- proposals ------------------------------------------------------------------------------


def test_before_adoption_every_proposal_says_not_adopted(town: Town, login: Any) -> None:
    v = opened(town)
    proposal = proposals.proposal_for(v, date(2026, 1, 3))
    assert proposal is not None and not proposal.adopted
    assert "not adopted" in proposal.text
    assert proposal.text.endswith(
        "result exceedance, isolated → notice of violation within 30 days, the Superintendent"
    )
    body = login("superintendent").get(f"/enforcement/{v.pk}/").content.decode()
    assert "Proposed response" in body and "not adopted" in body


def test_the_proposal_cites_the_adopted_plan(town: Town, login: Any) -> None:
    adopt(town)
    v = opened(town)
    proposal = proposals.proposal_for(v, date(2026, 1, 3))
    assert proposal is not None and proposal.adopted
    assert proposal.text == (
        "Enforcement response plan adopted 2025-12-01 by Town Board resolution 2026-41: "
        "result exceedance, isolated → notice of violation within 30 days, the Superintendent"
    )
    assert proposal.step is not None and proposal.step.due == date(2026, 2, 1)
    page = login("superintendent").get(f"/enforcement/{v.pk}/").content.decode()
    assert "adopted 2025-12-01 by Town Board resolution 2026-41" in page
    # the outside user's page is the notice, not the office's deliberation
    perform(v, "issue_notice", town.u("superintendent"), {}, at=at("2026-01-05"))
    owner = login("owner").get(f"/enforcement/{v.pk}/").content.decode()
    assert "resolution 2026-41" not in owner
    # once noticed, the next step if uncorrected cites the same plan
    v.refresh_from_db()
    after = proposals.proposal_for(v, date(2026, 1, 6))
    assert after is not None and after.response.code == "second_notice"
    assert after.text.startswith("Enforcement response plan adopted 2025-12-01")


def test_the_proposal_before_adoption_day_is_not_adopted(town: Town) -> None:
    adopt(town, on="2026-02-01")
    v = opened(town)
    before = proposals.proposal_for(v, date(2026, 1, 3))
    assert before is not None and not before.adopted and "not adopted" in before.text
    on = proposals.proposal_for(v, date(2026, 2, 1))
    assert on is not None and on.adopted


# --- severity -------------------------------------------------------------------------------


def test_a_recurring_violation_gets_the_plans_order_first(town: Town) -> None:
    first = opened(town, day="2026-01-02")
    assert plan.severity(first).severity == "isolated"
    again = opened(town, day="2026-02-10")
    decision = plan.severity(again)
    assert (
        decision.severity == "recurring" and f"{first.number} found 2026-01-02" in decision.reason
    )
    v = perform(again, "issue_notice", town.u("superintendent"), {}, at=at("2026-02-11"))
    assert notices.current_notice(v).response == "administrative_order"  # type: ignore[union-attr]
    # another user's violation, or one dismissed, makes nothing recurring
    other = opened(town, mine=False, day="2026-02-10")
    assert plan.severity(other).severity == "isolated"
    perform(first, "dismiss", town.u("superintendent"), {}, reason="opened in error")
    assert plan.severity(again).severity == "isolated"


# --- lateness -------------------------------------------------------------------------------


def test_a_first_response_late_is_a_finding_once_never_a_violation(town: Town) -> None:
    adopt(town)
    v = opened(town)  # opened 2026-01-02: a notice due by 2026-02-01
    assert flag_late_responses(date(2026, 2, 1)) == 0  # its last day
    assert flag_late_responses(date(2026, 2, 2)) == 1
    assert flag_late_responses(date(2026, 2, 3)) == 0  # once per violation and step
    (f,) = late_findings()
    assert f.source == v and f.establishment is None  # the office's own, unseen outside
    assert f.citation == "40 CFR 403.8(f)(5)(ii)" and "by 2026-02-01" in f.message
    assert "the Superintendent" in f.message and v.number in f.message
    assert "adopted 2025-12-01 by Town Board resolution 2026-41" in f.message
    with pytest.raises(Blocked, match=f"Finding #{f.pk}"):
        services.open_from_finding(town.u("superintendent"), f)
    assert not f.violations.exists()


def test_a_response_issued_in_time_is_no_finding(town: Town) -> None:
    adopt(town)
    issued(town)  # opened 2026-01-02, notice issued 2026-01-05
    assert flag_late_responses(date(2026, 3, 1)) == 0
    assert late_findings() == []


def test_the_next_step_late_after_a_deadline_passed(town: Town) -> None:
    adopt(town)
    v = overdue(town)  # deadline 2026-01-15, fines accruing from 2026-01-16
    assert flag_late_responses(date(2026, 2, 15)) == 0  # 30 days from 2026-01-16
    assert flag_late_responses(date(2026, 2, 16)) == 1
    (f,) = late_findings()
    notice = notices.current_notice(v)
    assert notice is not None and f.parameter == f"enforcement plan step after {notice.number}"
    assert "second notice" in f.message.lower() and "by 2026-02-15" in f.message
    assert flag_late_responses(date(2026, 2, 17)) == 0


def test_no_adopted_plan_no_finding(town: Town) -> None:
    opened(town)
    assert flag_late_responses(date(2026, 6, 1)) == 0
    # adopted only after the violation was opened: the plan did not bind its response
    adopt(town, on="2026-03-01")
    assert flag_late_responses(date(2026, 6, 1)) == 0
    assert late_findings() == []


def test_the_daily_command_reports_the_late_responses(town: Town, capsys: Any) -> None:
    from sewer_cli.main import main

    adopt(town)
    opened(town)
    assert main(["flag-overdue", "--date", "2026-02-02"]) == 0
    assert "1 enforcement response(s) late against the adopted plan" in capsys.readouterr().out


# --- the demo town --------------------------------------------------------------------------


def test_the_demo_adopts_the_plan_by_an_example_resolution(load_demo: Any) -> None:
    from django.test import Client

    from sewer_office.enforcement.models import Violation

    anchor = date(2026, 3, 2)
    load_demo(anchor=anchor)
    adoption = PlanAdoption.objects.get()
    assert "EXAMPLE" in adoption.resolution and "EXAMPLE" in adoption.note
    assert adoption.adopted_on < Violation.objects.order_by("observed_on").first().observed_on  # type: ignore[union-attr]
    # Acme's second exceedance within 12 months: recurring when its order was issued (Acme's
    # significant noncompliance is recorded later in the build), an order first, citing the plan
    served = Violation.objects.get(
        notices__response="administrative_order", state="served", kind="result_exceedance"
    )
    issued_on = served.notices.get().issued_on
    assert plan.severity(served, issued_on).severity == "recurring"
    nxt = proposals.proposal_for(served, anchor)
    assert nxt is not None and nxt.text.startswith(
        f"Enforcement response plan {adoption.reference}: result exceedance, "
    )
    # the open violation's proposal names the example adoption on its page
    su = Client()
    assert su.login(username="superintendent", password="demo")
    still_open = Violation.objects.filter(state="open").first()
    assert still_open is not None
    assert adoption.resolution in su.get(f"/enforcement/{still_open.pk}/").content.decode()
    # the violation whose fines accrue waited past the plan's 30 days for its next step
    (late,) = Finding.objects.filter(kind=FindingKind.RESPONSE_LATE)
    assert late.source == Violation.objects.get(state="fines_accruing")
