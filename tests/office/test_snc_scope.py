"""Who significant noncompliance applies to (40 CFR 403.8(f)(2)(viii)): (A), (B), (E), (F), (G)
to a significant industrial user, on the days it was one; (C), (D), (H) to any industrial user.

A user found not significant (403.3(v)(2)) or never designated, however chronic its results,
is not in SNC, opens no SNC violation and is not published; a user designated only part of
the period is judged on the results of those days; staff may still find any user in SNC under
(C), and may not record (G) for a user that was not an SIU on the day."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.core.errors import InvalidInput
from sewer_office.enforcement.models import Violation
from sewer_office.monitoring.models import LabResult
from sewer_office.pretreatment import report_dues, reports, services, snc, snc_list, snc_staff
from sewer_office.pretreatment.models import SNCDetermination

from .factories import Town
from .monitoring_factories import Facilities, facilities
from .pretreatment_factories import at, designate_sius, limit, results, sup

DAYS = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10", "2026-05-10", "2026-06-10"]
CHRONIC = ["1.1", "1.2", "1.05", "1.3", "1.01", "1.4"]  # 6 of 6 over the limit 1.0


def _chronic(town: Town) -> Facilities:
    """Both facilities with copper limit 1.0 and every result of the half over it."""
    f = facilities(town)
    for est in (f.theirs, f.mine):
        limit(est, "copper", "1.0")
        results(est, "copper", list(zip(DAYS, CHRONIC, strict=True)))
    return f


def _found_not_significant(town: Town, est: Any, on: str) -> None:
    services.designate(
        sup(town), est, basis="de_designated", on=date.fromisoformat(on), at=at(on, 11),
        reason="Domestic-strength laundry wastewater: no reasonable potential (403.3(v)(2)).",
    )  # fmt: skip


def _current(est: Any) -> SNCDetermination:
    return SNCDetermination.objects.get(establishment=est, superseded_by__isnull=True)


def _published(town: Town) -> tuple[list[Any], str, str]:
    listed = snc_list.snc_list(2026)
    text = snc_list.newspaper_text(2026, listed, "Demo town")
    return listed, text, reports.snc_list_csv(2026).decode("utf-8-sig")


def test_users_found_not_significant_or_never_designated_are_not_in_snc(town: Town) -> None:
    f = _chronic(town)
    designate_sius(town, f.theirs)  # an SIU, then found not significant before the period
    _found_not_significant(town, f.theirs, "2025-12-20")
    report_dues.add_requirement(
        sup(town),
        f.mine,
        kind="periodic",
        first_due=date(2026, 1, 31),
        every_months=6,
        at=at("2026-01-02"),
    )
    # never received: 150 days late by the period's end
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    assert run.in_snc == [] and run.violations_opened == 0
    assert not Violation.objects.filter(kind="significant_noncompliance").exists()
    theirs, mine = _current(f.theirs), _current(f.mine)
    for det, why in ((theirs, "found not significant on 2025-12-20 (40 CFR 403.3(v)(2))"),
                     (mine, "not designated a significant industrial user by then")):  # fmt: skip
        assert not det.snc and det.criteria == []
        [series] = det.determinations
        assert series["measurements"] == 0 and series["siu_days"] == []
        assert series["scope"]["not_counted"] == 6
        assert why in series["scope"]["text"] and "(A), (B)" in series["scope"]["text"]
    [report] = mine.reports
    assert report["days_late"] == 150 and report["criteria"] == [] and not report["snc"]
    assert "(F)" in report["scope"] and "significant industrial users only" in report["scope"]
    listed, text, csv_text = _published(town)
    assert listed == [] and "No industrial user was in significant noncompliance" in text
    assert csv_text.splitlines() == [",".join(reports.SNC_HEADER)]


def test_found_not_significant_mid_period_only_the_earlier_results_count(town: Town) -> None:
    f = facilities(town)
    limit(f.theirs, "copper", "1.0")
    # 1 of 3 over the limit before 2026-04-01, 3 of 3 after: 4 of 6 (66.7 %) would be chronic
    values = ["0.5", "0.6", "1.1", "1.5", "1.5", "1.5"]
    results(f.theirs, "copper", list(zip(DAYS, values, strict=True)))
    designate_sius(town, f.theirs)
    _found_not_significant(town, f.theirs, "2026-04-01")
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = _current(f.theirs)
    [series] = det.determinations
    assert (series["measurements"], series["exceeding"]) == (3, 1)
    assert series["siu_days"] == [["2026-01-01", "2026-03-31"]]
    assert series["scope"]["not_counted"] == 3
    assert "sampled 2026-04-10..2026-06-10 not counted" in series["scope"]["text"]
    assert not det.snc and snc_list.snc_list(2026) == []
    # the same results with the user an SIU all the half: chronic (A), 3 of 6 ≥ TRC (B), listed
    designate_sius(town, f.theirs, on="2026-04-01")
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-03"))
    assert _current(f.theirs).criteria == ["A", "B"]
    listed, text, _ = _published(town)
    assert [u.establishment for u in listed] == [f.theirs]
    assert "criterion A (40 CFR 403.8(f)(2)(viii)(A))" in text


def test_a_never_designated_user_is_in_snc_under_c_and_published(town: Town) -> None:
    f = _chronic(town)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = _current(f.mine)
    assert not det.snc
    new = snc_staff.record_staff_criterion(
        det, "C", "Copper slug on 2026-03-04 upset the aeration tanks (interference).",
        date(2026, 3, 4), town.u("engineer"), at=at("2026-07-05"),
    )  # fmt: skip
    assert new.snc and new.criteria == ["C"] and new.violation is not None
    # a re-computation keeps (C) and still counts no result of the non-SIU under (A)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-06"))
    again = _current(f.mine)
    assert again.criteria == ["C"] and again.determinations[0]["measurements"] == 0
    listed, text, csv_text = _published(town)
    assert [(u.establishment, u.criteria) for u in listed] == [(f.mine, ["C"])]
    assert f"{f.mine.name}, " in text and "criterion C (40 CFR 403.8(f)(2)(viii)(C))" in text
    assert f.theirs.name not in text and f.mine.name in csv_text


def test_g_is_refused_for_a_user_not_an_siu_on_the_day(town: Town) -> None:
    f = _chronic(town)
    designate_sius(town, f.theirs)
    _found_not_significant(town, f.theirs, "2026-04-01")
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    eng, facts = town.u("engineer"), "Reported compliance in its report despite the slug."
    for est, day in ((f.mine, date(2026, 3, 1)), (f.theirs, date(2026, 4, 1))):
        with pytest.raises(InvalidInput) as refused:
            snc_staff.record_staff_criterion(_current(est), "G", facts, day, eng,
                                            at=at("2026-07-05"))  # fmt: skip
        [message] = refused.value.errors["criterion"]
        assert "significant industrial users only (40 CFR 403.8(f)(2)(viii))" in message
        assert str(day) in message
    # an SIU on the day: recorded; (H) for the user never designated: recorded too
    g = snc_staff.record_staff_criterion(_current(f.theirs), "G", facts, date(2026, 3, 31), eng,
                                        at=at("2026-07-05"))  # fmt: skip
    assert g.criteria == ["A", "B", "G"]  # January to March: 3 of 3 over, 1.2 at the TRC
    h = snc_staff.record_staff_criterion(_current(f.mine), "H", facts, date(2026, 3, 1), eng,
                                        at=at("2026-07-05"))  # fmt: skip
    assert h.criteria == ["H"]


def test_a_correction_dated_back_sets_aside_a_recorded_g_and_the_list_follows(
    town: Town,
) -> None:
    f = facilities(town)
    limit(f.theirs, "copper", "1.0")
    results(f.theirs, "copper", [("2026-02-10", "0.5")])
    designate_sius(town, f.theirs)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    snc_staff.record_staff_criterion(
        _current(f.theirs), "G", "Its March report hid the slug.", date(2026, 3, 20),
        town.u("engineer"), at=at("2026-07-05"),
    )  # fmt: skip
    assert [u.establishment for u in snc_list.snc_list(2026)] == [f.theirs]
    # the Control Authority finds it was not significant from 2026-03-01 (recorded later)
    _found_not_significant(town, f.theirs, "2026-03-01")
    assert snc_list.snc_list(2026) == []  # the determination in force, re-checked
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-10"))
    det = _current(f.theirs)
    [g] = det.staff_criteria
    assert not det.snc and g["applies"] is False and "(G)" in g["scope"]
    assert det.determinations[0]["measurements"] == 1  # February: still an SIU then


def test_the_list_rechecks_a_determination_stored_before_the_scope(town: Town) -> None:
    f = _chronic(town)
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))  # neither is an SIU
    ids = list(
        LabResult.objects.filter(establishment=f.theirs)
        .order_by("sampled_at")
        .values_list("pk", flat=True)
    )
    legacy = SNCDetermination.objects.create(  # as stored before: every result counted
        establishment=f.theirs, period_start=date(2026, 1, 1), period_end=date(2026, 6, 30),
        snc=True, criteria=["A"], citations=["40 CFR 403.8(f)(2)(viii)(A)"],
        determinations=[{
            "parameter": "copper", "limit_type": "daily_maximum", "limit": "1.0", "unit": "mg/l",
            "trc": "1.2", "window": {"start": "2026-01-01", "end": "2026-06-30"},
            "windows": [{"start": "2026-01-01", "end": "2026-06-30"}], "measurements": 6,
            "exceeding": 6, "trc_exceeding": 1, "snc": True, "criteria": ["A"],
            "counted": [[[i], True, False] for i in ids],
        }],
        supersedes=_current(f.theirs),
    )  # fmt: skip
    assert snc_list.snc_list(2026) == []  # never designated: (A) does not apply
    designate_sius(town, f.theirs, on="2026-04-01")  # an SIU from April: 3 of 3 still chronic
    [listed] = snc_list.snc_list(2026)
    assert listed.establishment == f.theirs and listed.criteria == ["A"]
    assert legacy.pk == _current(f.theirs).pk


def test_the_demo_shows_a_user_out_of_scope(demo_town: Any) -> None:
    """The demo town: Acme (an SIU) in SNC and published; Tri-County Laundry Services, found
    not significant before the half, chronic on zinc in it, neither in SNC nor published."""
    from django.test import Client

    from sewer_office.registry.models import Establishment

    demo_town(seed=4, anchor=date(2026, 3, 2))
    laundry = Establishment.objects.get(name="Tri-County Laundry Services")
    assert services.current_designation(laundry).basis == "de_designated"  # type: ignore[union-attr]
    det = _current(laundry)
    [zinc] = det.determinations
    assert not det.snc and zinc["measurements"] == 0 and zinc["scope"]["not_counted"] == 6
    assert "found not significant on 2025-06-11 (40 CFR 403.3(v)(2))" in zinc["scope"]["text"]
    listed = snc_list.snc_list(2025)
    assert [u.establishment.name for u in listed] == ["Acme Plating Corporation"]
    text = snc_list.newspaper_text(2025, listed, "Demo town")
    assert "Acme Plating Corporation" in text and "Tri-County" not in text
    c = Client()
    c.login(username="superintendent", password="demo")
    page = c.get(f"/pretreatment/snc/{det.pk}/").content.decode()
    assert "Not counted: 6 result(s) sampled" in page and "found not significant" in page
