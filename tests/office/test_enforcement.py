"""Enforcement services and workflow: opening, notices, service, the clock, corrections,
escalation, referrals, costs, fines — and the refusals that write nothing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput, TransitionNotAllowed
from sewer_office.core.models import AuditEvent, ImmutableRecord
from sewer_office.core.services import perform
from sewer_office.enforcement import corrections, liability, notices, services
from sewer_office.enforcement.models import Correction, Notice, Referral, Violation
from sewer_office.findings.services import record_finding
from sewer_office.registry.models import Establishment

from .enforcement_factories import at, finding, issued, opened, overdue, reported, served
from .factories import Town


def _events(action: str) -> int:
    return AuditEvent.objects.filter(action=action).count()


def test_open_from_finding_takes_its_section_facility_and_operator(town: Town) -> None:
    v = opened(town)
    assert (v.section, v.kind, v.state) == ("§ 196-19 C(3)", "result_exceedance", "open")
    assert v.establishment == town.owner_restaurant and v.person == town.owner_person
    assert list(v.evidence.all()) == [v.finding]
    assert _events("open_violation") == 1


def test_one_finding_at_most_one_open_violation(town: Town) -> None:
    v = opened(town)
    with pytest.raises(Blocked, match=v.number):
        services.open_from_finding(town.u("superintendent"), v.finding, at=at("2026-01-03"))
    assert Violation.objects.count() == 1
    perform(v, "dismiss", town.u("superintendent"), reason="sampled the wrong manhole")
    again = services.open_from_finding(town.u("superintendent"), v.finding, at=at("2026-01-03"))
    assert again.pk != v.pk


def test_open_by_hand_validates_the_citation_and_the_role(town: Town) -> None:
    sup = town.u("superintendent")
    kw: dict[str, Any] = {
        "kind": "discharge_seen",
        "description": "Oil seen in the manhole",
        "person": town.other_person,
        "establishment": town.other_plant,
        "at": at("2026-01-02"),
    }
    with pytest.raises(InvalidInput) as e:
        services.open_violation(sup, section="196-19 C", **kw)
    assert "section" in e.value.errors and "§ 196-19 C(3)" in e.value.errors["section"][0]
    with pytest.raises(Forbidden):
        services.open_violation(town.u("clerk"), section="§ 196-19 C(1)", **kw)
    assert not Violation.objects.exists()
    v = services.open_violation(sup, section="§ 196-19 C(1)", **kw)
    assert v.section == "§ 196-19 C(1)"


def test_damage_is_referred_for_arrest_at_once_without_a_clock(town: Town) -> None:
    v = services.open_violation(
        town.u("superintendent"),
        kind="failed_inspection_item",
        section="§ 196-20",
        description="Manhole cover broken open",
        person=town.other_person,
        establishment=town.other_plant,
        at=at("2026-01-02"),
    )
    assert (v.state, v.kind) == ("referred", "damage")
    referral = Referral.objects.get(violation=v)
    assert referral.kind == "arrest" and referral.citation == "§ 196-20"
    # addressed as § 196-21 D names the enforcers, not to a department the Town may not have
    assert referral.referred_to == (
        "a police agency having jurisdiction within the Town of Wappinger (§ 196-21 D)"
    )
    assert not v.notices.exists()
    with pytest.raises(TransitionNotAllowed):
        perform(v, "issue_notice", town.u("superintendent"), {})
    fines = liability.fines(v, date(2026, 3, 1))
    assert fines.computation is None and "§ 196-20" in fines.message


def test_issue_notice_is_the_superintendents_with_the_guides_first_response(town: Town) -> None:
    v = opened(town)
    with pytest.raises(Forbidden, match="§ 196-22 A"):
        perform(v, "issue_notice", town.u("clerk"), {})
    v = perform(v, "issue_notice", town.u("superintendent"), {}, at=at("2026-01-05"))
    notice = v.notices.get()
    assert (notice.response, notice.citation, notice.period_days) == (
        "notice_of_violation",
        "§ 196-22 A",
        10,
    )
    assert notice.daily_amount == Decimal("250.00") and "2004-03-22" in str(
        notice.daily_amount_effective
    )
    assert notice.nature == v.description and v.state == "notice_issued"


def test_period_under_ten_days_is_refused_and_nothing_written(town: Town) -> None:
    v = opened(town)
    before = AuditEvent.objects.count()
    with pytest.raises(InvalidInput) as e:
        perform(v, "issue_notice", town.u("superintendent"), {"period_days": "7"})
    assert "§ 196-22 A" in e.value.errors["period_days"][0]
    v.refresh_from_db()
    assert v.state == "open" and not Notice.objects.exists()
    assert AuditEvent.objects.count() == before


def test_service_computes_and_stores_the_deadline(town: Town) -> None:
    v = served(town, on="2026-01-08", period=14)
    n = v.notices.get()
    # 2026-01-08 + 14 = Thu 2026-01-22
    assert (n.served_on, n.deadline, n.period_days) == (date(2026, 1, 8), date(2026, 1, 22), 14)
    assert n.deadline_basis["minimum"]["value"] == "10"
    assert v.state == "served"


def test_deadline_on_a_holiday_moves_to_the_next_business_day(town: Town) -> None:
    # served Fri 2026-01-09 + 10 = Mon 2026-01-19, Martin Luther King Jr. Day → Tue 20
    v = served(town, on="2026-01-09")
    n = v.notices.get()
    assert (n.nominal_deadline, n.deadline) == (date(2026, 1, 19), date(2026, 1, 20))


def test_served_before_issued_is_refused_and_nothing_written(town: Town) -> None:
    v = issued(town)
    before = AuditEvent.objects.count()
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "serve",
            town.u("clerk"),
            {"served_on": "2026-01-04", "service_method": "personal"},
            at=at("2026-01-06"),
        )
    assert "issued on 2026-01-05" in e.value.errors["served_on"][0]
    n = Notice.objects.get()
    assert n.served_on is None and n.deadline is None
    v.refresh_from_db()
    assert v.state == "notice_issued" and AuditEvent.objects.count() == before


def test_service_methods_need_their_proof(town: Town) -> None:
    v = issued(town)
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "serve",
            town.u("clerk"),
            {"served_on": "2026-01-05", "service_method": "certified_mail"},
        )
    assert "receipt_number" in e.value.errors
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "serve",
            town.u("clerk"),
            {"served_on": "2026-01-05", "service_method": "email", "email_address": "a@b.c"},
        )
    assert "email_consent" in e.value.errors
    with pytest.raises(Forbidden):
        perform(
            v, "serve", town.u("viewer"), {"served_on": "2026-01-05", "service_method": "personal"}
        )


def test_an_issued_notice_is_never_edited(town: Town) -> None:
    n = served(town).notices.get()
    n.nature = "something else"
    with pytest.raises(ImmutableRecord):
        n.save()
    n.refresh_from_db()
    n.served_on = date(2026, 1, 6)
    with pytest.raises(ImmutableRecord):
        n.save()
    with pytest.raises(ImmutableRecord):
        n.delete()


def test_a_superseding_notice_needs_a_reason_and_restarts_service(town: Town) -> None:
    v = served(town)
    sup = town.u("superintendent")
    with pytest.raises(InvalidInput):
        perform(v, "supersede_notice", sup, {}, reason="")
    v = perform(
        v,
        "supersede_notice",
        sup,
        {"reason": "wrong address"},
        reason="wrong address",
        at=at("2026-01-07"),
    )
    old, new = v.notices.order_by("id")
    assert new.supersedes == old and new.supersede_reason == "wrong address"
    assert notices.current_notice(v) == new and v.state == "notice_issued"
    assert old.served_on == date(2026, 1, 5)  # the old notice is kept as it was


def test_flag_overdue_moves_past_deadline_once(town: Town) -> None:
    v = served(town)
    assert services.advance_clocks(date(2026, 1, 15)) == 0  # the deadline day itself
    assert services.advance_clocks(date(2026, 1, 16)) == 1
    assert services.advance_clocks(date(2026, 1, 17)) == 0  # idempotent across daily runs
    v.refresh_from_db()
    assert v.state == "fines_accruing"
    event = AuditEvent.objects.get(action="deadline_passed")
    assert event.citation == "§ 196-22 B" and event.actor is None


def test_fines_span_a_change_of_the_daily_amount(town: Town) -> None:
    v = reported(town, on="2026-01-19")
    v = perform(
        v, "verify", town.u("inspector"), {"verified_on": "2026-01-20"}, at=at("2026-01-21")
    )
    assert v.state == "corrected"
    f = liability.fines(v, date(2026, 2, 1))
    assert f.computation is not None
    # deadline 01-15; ceased on the reported day 01-19 (the verification's default), not the
    # verification day 01-20: 16, 17 at 250.00 + 18, 19 at 350.00 = 500 + 700
    assert f.computation.days == 4 and f.total == Decimal("1200.00")
    assert (f.computation.corrected, f.computation.verified) == (
        date(2026, 1, 19),
        date(2026, 1, 20),
    )
    assert [s.daily_amount.value for s in f.computation.segments] == [
        Decimal("250.00"),
        Decimal("350.00"),
    ]
    assert "subject to conviction" in f.message
    c = Correction.objects.get()
    assert (c.reported_on, c.verified_on, c.gap_days) == (date(2026, 1, 19), date(2026, 1, 20), 1)


def test_fines_while_continuing_and_corrected_in_time(town: Town) -> None:
    v = overdue(town)
    f = liability.fines(v, date(2026, 1, 17))
    assert f.computation is not None and f.computation.days == 2 and f.total == Decimal("500.00")
    w = served(town, mine=False)
    w = perform(
        w,
        "report_correction",
        town.u("other"),
        {"reported_on": "2026-01-10", "description": "fixed"},
        at=at("2026-01-10"),
    )
    w = perform(
        w, "verify", town.u("superintendent"), {"verified_on": "2026-01-12"}, at=at("2026-01-12")
    )
    f = liability.fines(w, date(2026, 2, 1))
    assert f.computation is not None and f.computation.days == 0 and f.total == Decimal("0.00")


def test_unconfigured_daily_amount_says_which_resolution_to_record(
    town: Town, settings: Any
) -> None:
    """A violation of a town whose values state no daily amount (Wappinger's: each record is
    counted under its own town's values)."""
    v = overdue(town)
    settings.SEWER_USE_JURISDICTIONS = ["demo", "wappinger"]
    assert v.establishment is not None
    # the facility's parcel is Wappinger's, and the violation keeps its facility's town
    Establishment.objects.filter(pk=v.establishment.pk).update(jurisdiction="wappinger")
    Violation.objects.filter(pk=v.pk).update(jurisdiction="wappinger")
    v = Violation.objects.get(pk=v.pk)
    f = liability.fines(v, date(2026, 1, 20))
    assert f.total is None
    assert "fine.daily_amount" in f.unconfigured and "§ 122-20 Y" in f.unconfigured


def test_verified_before_reported_is_refused_and_nothing_written(town: Town) -> None:
    v = reported(town, on="2026-01-19")
    before = AuditEvent.objects.count()
    with pytest.raises(InvalidInput) as e:
        perform(
            v,
            "verify",
            town.u("superintendent"),
            {"verified_on": "2026-01-18"},
            at=at("2026-01-21"),
        )
    assert "reported on 2026-01-19" in e.value.errors["verified_on"][0]
    c = Correction.objects.get()
    assert c.verified_on is None and AuditEvent.objects.count() == before
    v.refresh_from_db()
    assert v.state == "correction_reported"


def test_verification_is_for_the_superintendent_and_inspectors(town: Town) -> None:
    v = reported(town)
    for name in ("clerk", "viewer", "owner"):
        with pytest.raises(Forbidden):
            perform(v, "verify", town.u(name), {"verified_on": "2026-01-20"})


def test_rejected_correction_returns_to_where_it_was(town: Town) -> None:
    v = reported(town)
    before = AuditEvent.objects.count()
    with pytest.raises(InvalidInput, match="before it was reported"):
        perform(
            v,
            "reject_correction",
            town.u("superintendent"),
            {"rejected_on": "2026-01-18"},
            reason="still discharging",
            at=at("2026-01-20"),
        )
    assert AuditEvent.objects.count() == before and corrections.pending_correction(v) is not None
    v = perform(
        v,
        "reject_correction",
        town.u("superintendent"),
        {"rejected_on": "2026-01-20"},
        reason="still discharging",
        at=at("2026-01-20"),
    )
    assert v.state == "fines_accruing"
    assert corrections.pending_correction(v) is None


def test_escalation_follows_the_guide_and_a_second_notice_restarts_a_clock(town: Town) -> None:
    sup = town.u("superintendent")
    v = overdue(town)
    with pytest.raises(Forbidden):
        perform(v, "escalate", town.u("clerk"), {})
    v = perform(v, "escalate", sup, {}, at=at("2026-01-20"))
    second = notices.current_notice(v)
    assert second is not None and second.response == "second_notice" and v.state == "notice_issued"
    v = perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-01-20", "service_method": "personal"},
        at=at("2026-01-20"),
    )
    assert notices.current_notice(v).deadline == date(2026, 1, 30)
    services.advance_clocks(date(2026, 2, 2))
    v.refresh_from_db()
    v = perform(v, "escalate", sup, {}, at=at("2026-02-03"))
    assert notices.current_notice(v).response == "administrative_order"
    # the fine still runs from the first notice's deadline
    f = liability.fines(v, date(2026, 1, 20))
    assert f.notice is not None and f.notice.response == "notice_of_violation"
    v = perform(
        v,
        "serve",
        town.u("clerk"),
        {"served_on": "2026-02-03", "service_method": "personal"},
        at=at("2026-02-03"),
    )
    services.advance_clocks(date(2026, 2, 20))
    v.refresh_from_db()
    v = perform(v, "escalate", sup, {}, at=at("2026-02-20"))
    assert v.state == "referred"
    assert v.referrals.get().kind == "town_attorney"  # a referral has no clock
    v = perform(v, "escalate", sup, {}, at=at("2026-02-21"))
    assert v.referrals.last().kind == "injunction"
    with pytest.raises(Blocked, match="no further step"):
        perform(v, "escalate", sup, {})


def test_costs_are_itemised_and_reserved(town: Town) -> None:
    v = overdue(town)
    with pytest.raises(Forbidden):
        services.record_cost(
            v,
            town.u("viewer"),
            category="laboratory",
            description="x",
            amount=Decimal("1"),
            incurred_on=date(2026, 1, 10),
        )
    with pytest.raises(InvalidInput):
        services.record_cost(
            v,
            town.u("clerk"),
            category="staff_hours",
            description="sampling",
            amount=Decimal("120.00"),
            incurred_on=date(2026, 1, 10),
        )
    services.record_cost(
        v,
        town.u("clerk"),
        category="staff_hours",
        description="sampling",
        hours=Decimal("2"),
        amount=Decimal("120.00"),
        incurred_on=date(2026, 1, 10),
        at=at("2026-01-11"),
    )
    services.record_cost(
        v,
        town.u("superintendent"),
        category="laboratory",
        description="copper analysis",
        amount=Decimal("45.50"),
        incurred_on=date(2026, 1, 12),
        at=at("2026-01-12"),
    )
    assert liability.costs_total(v) == Decimal("165.50")
    cost = v.costs.first()
    cost.amount = Decimal("1")
    with pytest.raises(ImmutableRecord):
        cost.save()


def test_owner_reports_its_own_correction_not_anothers(town: Town) -> None:
    mine, theirs = served(town), served(town, mine=False)
    with pytest.raises(Forbidden):
        perform(
            theirs,
            "report_correction",
            town.u("owner"),
            {"reported_on": "2026-01-06", "description": "x"},
        )
    perform(
        mine,
        "report_correction",
        town.u("owner"),
        {"reported_on": "2026-01-06", "description": "x"},
        at=at("2026-01-06"),
    )
    assert finding  # the factory module is shared with the page tests


def test_flag_overdue_command_advances_the_clocks(town: Town, capsys: Any) -> None:
    from sewer_cli.main import main

    v = served(town)
    assert main(["flag-overdue", "--date", "2026-01-16"]) == 0
    assert "1 violation(s) past their correction deadline" in capsys.readouterr().out
    assert main(["flag-overdue", "--date", "2026-01-17"]) == 0
    assert "0 violation(s)" in capsys.readouterr().out
    v.refresh_from_db()
    assert v.state == "fines_accruing"


@pytest.mark.parametrize(
    ("kind", "citation", "guide_kind", "section"),
    [
        # the provision broken: discharging with no approval in force (§ 196-16 E); the
        # report's own reporting duty (403.12(e)); the order imposing the schedule
        # (403.8(f)(1)(iv)); significant noncompliance itself (403.8(f)(2)(viii))
        ("approval_expired", "40 CFR 403.8(f)(1)(iii)", "expired_approval", "§ 196-16 E"),
        (
            "milestone_missed",
            "40 CFR 403.8(f)(1)(iv)",
            "missed_milestone",
            "40 CFR 403.8(f)(1)(iv)",
        ),
        ("report_late", "40 CFR 403.12(e)", "late_report", "40 CFR 403.12(e)"),
        (
            "snc",
            "40 CFR 403.8(f)(2)(viii)",
            "significant_noncompliance",
            "40 CFR 403.8(f)(2)(viii)",
        ),
    ],
)
def test_a_violation_opens_from_each_federal_finding_kind(
    town: Town, kind: str, citation: str, guide_kind: str, section: str
) -> None:
    f = record_finding(
        source=None,
        establishment=town.owner_restaurant,
        kind=kind,
        status="violation",
        citation=citation,
        message=f"{kind} at the restaurant",
        observed_at=at("2026-01-02", 9),
    )
    v = services.open_from_finding(town.u("superintendent"), f, at=at("2026-01-02", 12))
    assert (v.kind, v.section, v.state) == (guide_kind, section, "open")
    v = perform(v, "issue_notice", town.u("superintendent"), {"nature": "x"}, at=at("2026-01-05"))
    assert v.state == "notice_issued"
