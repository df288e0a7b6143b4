"""Compliance schedules and milestones (40 CFR 403.8(f)(1)(iv), 403.12(c)): imposing and
amending with their audit events, completion through perform, the daily clock (finding the day
after the date, violation after 90 days; each once) and criterion (E) for the SNC helper."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.utils import timezone

from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import schedules
from sewer_office.enforcement.models import ComplianceSchedule, Milestone, Violation
from sewer_office.findings.models import Finding

from .enforcement_factories import at, served
from .factories import Town, new_record


def approved(town: Town, *, mine: bool = True) -> Any:
    a = perform(new_record("industrial", town, mine=mine), "begin_review", town.u("engineer"))
    return perform(a, "approve", town.u("engineer"))


def schedule(town: Town, *, mine: bool = True, due: str = "2026-03-01") -> ComplianceSchedule:
    a = approved(town, mine=mine)
    return schedules.create_schedule(
        town.u("engineer"),
        establishment=a.establishment,
        imposed_by="approval_condition",
        approval=a,
        requirement="Install a copper pretreatment unit",
        citation="§ 196-19 E(1)(b)",
        milestones=[(date.fromisoformat(due), "Pretreatment unit installed")],
        at=at("2026-01-02"),
    )


def test_a_schedule_is_imposed_with_its_milestones_and_audit(town: Town) -> None:
    s = schedule(town)
    assert s.number == f"CS-{s.pk}" and s.establishment == town.owner_restaurant
    assert [m.description for m in s.milestones.all()] == ["Pretreatment unit installed"]
    ev = AuditEvent.objects.get(action="impose_schedule")
    assert ev.citation == "40 CFR 403.8(f)(1)(iv)"
    assert ev.after["milestones"] == ["2026-03-01 Pretreatment unit installed"]


def test_imposing_is_refused_for_bad_input_and_other_roles(town: Town) -> None:
    a = approved(town)
    theirs = approved(town, mine=False)
    base: dict[str, Any] = {
        "establishment": town.owner_restaurant,
        "imposed_by": "approval_condition",
        "requirement": "x",
        "citation": "§ 196-19 E(1)",
        "milestones": [(date(2026, 3, 1), "done")],
    }
    with pytest.raises(Forbidden):
        schedules.create_schedule(town.u("clerk"), approval=a, **base)
    with pytest.raises(InvalidInput) as e:
        schedules.create_schedule(town.u("engineer"), approval=theirs, **base)
    assert "not an approval of" in e.value.errors["approval"][0]
    with pytest.raises(InvalidInput) as e:
        schedules.create_schedule(
            town.u("engineer"), approval=a, **{**base, "milestones": [], "citation": "§ 999"}
        )
    assert set(e.value.errors) == {"milestones", "citation"}
    assert ComplianceSchedule.objects.count() == 0


def test_an_order_imposes_a_schedule_through_its_notice(town: Town) -> None:
    v = served(town)
    n = v.notices.get()
    s = schedules.create_schedule(
        town.u("superintendent"),
        establishment=town.owner_restaurant,
        imposed_by="order",
        notice=n,
        requirement="Stop the copper discharge",
        citation="40 CFR 403.8(f)(1)(iv)",
        milestones=[(date(2026, 2, 1), "Plan submitted")],
    )
    assert s.imposed_by_text == f"Administrative order or notice {n.number}"


def test_amending_needs_a_reason_and_never_changes_existing_milestones(town: Town) -> None:
    s = schedule(town)
    with pytest.raises(InvalidInput) as e:
        schedules.amend_schedule(
            town.u("engineer"), s, reason=" ", requirement="y", citation="§ 196-19 E(1)"
        )
    assert "reason" in e.value.errors
    schedules.amend_schedule(
        town.u("engineer"),
        s,
        reason="unit back-ordered",
        requirement="Install a copper pretreatment unit",
        citation="§ 196-19 E(1)(b)",
        milestones=[(date(2026, 5, 1), "Unit installed (extended)")],
    )
    assert [str(m.due_on) for m in s.milestones.all()] == ["2026-03-01", "2026-05-01"]
    ev = AuditEvent.objects.get(action="amend_schedule")
    assert ev.reason == "unit back-ordered" and len(ev.after["milestones"]) == 2
    with pytest.raises(ImmutableRecord):
        s.milestones.first().delete()  # type: ignore[union-attr]


def test_completion_goes_through_perform_once(town: Town) -> None:
    m = schedule(town).milestones.get()
    with pytest.raises(InvalidInput):
        perform(m, "complete_milestone", town.u("clerk"), {"completed_on": "2026-02-20"})
    with pytest.raises(InvalidInput) as e:
        perform(
            m,
            "complete_milestone",
            town.u("clerk"),
            {"completed_on": "2025-12-01", "completion_report": "x"},
            at=at("2026-02-21"),
        )
    assert "imposed" in e.value.errors["completed_on"][0]
    with pytest.raises(Forbidden):
        perform(
            m,
            "complete_milestone",
            town.u("other"),
            {"completed_on": "2026-02-20", "completion_report": "x"},
        )
    m = perform(
        m,
        "complete_milestone",
        town.u("owner"),
        {"completed_on": "2026-02-20", "completion_report": "Installed, invoice attached"},
        at=at("2026-02-21"),
    )
    assert (m.state, m.completed_on, m.days_late) == ("completed", date(2026, 2, 20), None)
    ev = AuditEvent.objects.get(action="complete_milestone")
    assert ev.citation == "40 CFR 403.12(c)" and ev.state_to == "completed"
    m.completion_report = "changed"
    with pytest.raises(ImmutableRecord):
        m.save()


def test_daily_clock_finding_then_violation_after_ninety_days_once(town: Town) -> None:
    m = schedule(town, due="2026-03-01").milestones.get()
    assert schedules.flag_missed_milestones(date(2026, 3, 1)) == (0, 0)  # due today: on time
    assert schedules.flag_missed_milestones(date(2026, 3, 2)) == (1, 0)
    assert schedules.flag_missed_milestones(date(2026, 3, 3)) == (0, 0)
    f = Finding.objects.get(kind="milestone_missed")
    # the order's duty (40 CFR 403.8(f)(1)(iv)): not yet significant noncompliance
    assert f.citation == "40 CFR 403.8(f)(1)(iv)" and f.establishment == town.owner_restaurant
    # day 90 after the date (2026-05-30) is on time; the violation comes the day after
    assert schedules.flag_missed_milestones(date(2026, 5, 30)) == (0, 0)
    assert schedules.flag_missed_milestones(date(2026, 5, 31)) == (0, 1)
    assert schedules.flag_missed_milestones(date(2026, 6, 1)) == (0, 0)
    v = Violation.objects.get(finding=f)
    assert (v.kind, v.section, v.opened_by, v.state) == (
        "missed_milestone",
        "40 CFR 403.8(f)(1)(iv)",
        None,
        "open",
    )
    assert v.observed_on == date(2026, 5, 31) and m.schedule.number in v.description
    # the violation names the order that imposed the schedule, and SNC under (E)
    assert "imposed by " in v.description and "40 CFR 403.8(f)(2)(viii)(E)" in v.description


def test_a_milestone_completed_late_within_ninety_days_is_a_finding_not_a_violation(
    town: Town,
) -> None:
    m = schedule(town, due="2026-03-01").milestones.get()
    perform(
        m,
        "complete_milestone",
        town.u("clerk"),
        {"completed_on": "2026-04-15", "completion_report": "late"},
        at=at("2026-04-16"),
    )
    assert schedules.flag_missed_milestones(date(2026, 7, 1)) == (1, 0)
    assert not Violation.objects.exists()


def test_missed_milestones_for_criterion_e(town: Town) -> None:
    s = schedule(town, due="2026-01-10")
    extra = [
        Milestone.objects.create(schedule=s, description="b", due_on=date(2026, 1, 20)),
        Milestone.objects.create(schedule=s, description="c", due_on=date(2026, 5, 1)),
    ]
    first = s.milestones.get(description="Pretreatment unit installed")
    # 2026-01-10 + 90 = 2026-04-10 on time; fails from 2026-04-11
    est = town.owner_restaurant
    assert schedules.missed_milestones(est, date(2026, 1, 1), date(2026, 4, 10)) == []
    assert schedules.missed_milestones(est, date(2026, 1, 1), date(2026, 4, 11)) == [first]
    h1 = schedules.missed_milestones(est, date(2026, 1, 1), date(2026, 6, 30))
    assert h1 == [first, extra[0]]  # c fails only from 2026-07-31
    perform(
        first,
        "complete_milestone",
        town.u("clerk"),
        {"completed_on": "2026-04-30", "completion_report": "at last"},
        at=at("2026-05-01"),
    )
    # completed after it failed: still missed in H1, not in H2
    assert first.pk in {
        m.pk for m in schedules.missed_milestones(est, date(2026, 1, 1), date(2026, 6, 30))
    }
    h2 = schedules.missed_milestones(est, date(2026, 7, 1), date(2026, 12, 31))
    assert [m.description for m in h2] == ["b", "c"]
    assert schedules.missed_milestones(town.other_plant, date(2026, 1, 1), date(2026, 12, 31)) == []
    assert len(schedules.missed_milestones(None, date(2026, 7, 1), date(2026, 12, 31))) == 2


def test_flag_overdue_command_records_missed_milestones(town: Town, capsys: Any) -> None:
    from sewer_cli.main import main

    schedule(town, due="2026-03-01")
    assert main(["flag-overdue", "--date", "2026-06-01"]) == 0
    out = capsys.readouterr().out
    assert "1 missed-milestone finding(s) recorded; 1 violation(s) opened (90 days)" in out
    assert main(["flag-overdue", "--date", "2026-06-02"]) == 0
    assert "0 missed-milestone finding(s) recorded; 0 violation(s)" in capsys.readouterr().out


def test_pages_impose_amend_complete_and_show_on_the_facility(town: Town, login: Any) -> None:
    a = approved(town)
    c = login("engineer")
    r = c.post(
        "/enforcement/schedules/new/",
        {
            "establishment": town.owner_restaurant.pk,  # type: ignore[union-attr]
            "imposed_by": "approval_condition",
            "approval": a.pk,
            "requirement": "Grease removal unit",
            "citation": "§ 196-19 E(1)(b)",
            "milestones": "2026-03-01 Unit ordered\n2026-04-01 Unit installed",
        },
    )
    assert r.status_code == 302, r.content.decode()
    s = ComplianceSchedule.objects.get()
    assert [m.description for m in s.milestones.all()] == ["Unit ordered", "Unit installed"]
    bad = c.post("/enforcement/schedules/new/", {"milestones": "March Unit ordered"})
    assert bad.status_code == 400 and "is not a date" in bad.content.decode()
    r = c.post(
        f"/enforcement/schedules/{s.pk}/edit/",
        {"requirement": "Grease removal unit", "citation": "§ 196-19 E(1)(b)", "milestones": ""},
    )
    assert r.status_code == 400 and "reason is required" in r.content.decode()
    m = s.milestones.first()
    owner = login("owner")
    r = owner.post(f"/enforcement/milestones/{m.pk}/complete/", {"completed_on": "2026-02-28"})  # type: ignore[union-attr]
    assert r.status_code == 400
    r = owner.post(
        f"/enforcement/milestones/{m.pk}/complete/",  # type: ignore[union-attr]
        {"completed_on": timezone.localdate().isoformat(), "completion_report": "ordered"},
    )
    assert r.status_code == 302
    page = owner.get(f"/registry/establishments/{town.owner_restaurant.pk}/").content.decode()  # type: ignore[union-attr]
    assert s.number in page and "Unit installed" in page
