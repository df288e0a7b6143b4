"""The pretreatment program in the office: SIU designation (40 CFR 403.3(v)), required reports
(403.12) and their due dates, SNC determined from stored results through the rules
(403.8(f)(2)(viii)), the yearly list and the annual report."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.models import ImmutableRecord
from sewer_office.enforcement.models import Violation
from sewer_office.pretreatment import report_dues, services, snc, snc_list
from sewer_office.pretreatment.models import Designation, ReportDue, SNCDetermination

from .factories import Town
from .pretreatment_factories import at, chronic_copper, designate_sius, results, sup


def test_chronic_copper_is_snc_with_measurements_and_one_violation(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    by = {d.establishment_id: d for d in run.determinations}
    theirs, mine = by[f.theirs.pk], by[f.mine.pk]
    assert theirs.snc and theirs.criteria == ["A"]
    assert theirs.citations == ["40 CFR 403.8(f)(2)(viii)(A)"]
    series = theirs.determinations[0]
    assert (series["measurements"], series["exceeding"]) == (6, 4)
    counted_ids = {r for c in series["counted"] for r in c[0]}
    assert len(counted_ids) == 6 and sum(c[1] for c in series["counted"]) == 4
    assert not mine.snc and mine.violation is None
    v = theirs.violation
    assert v is not None and v.kind == "significant_noncompliance" and v.person == f.theirs.operator
    # re-computation supersedes, never edits, and opens no second violation
    again = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-03"))
    new = next(d for d in again.determinations if d.establishment_id == f.theirs.pk)
    assert new.supersedes_id == theirs.pk and new.violation_id == v.pk
    assert again.violations_opened == 0
    assert Violation.objects.filter(kind="significant_noncompliance").count() == 1
    assert SNCDetermination.objects.filter(superseded_by__isnull=True).count() == 2
    new.criteria = []
    with pytest.raises(ImmutableRecord):
        new.save()


def test_trc_boundary_is_exact(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    # zinc limit 0.17: 0.204 = 0.17 × 1.2 exactly counts for (B); 2 of 6 is 33 %
    from .pretreatment_factories import limit

    limit(f.mine, "zinc", "0.17")
    days = ["2026-01-11", "2026-02-11", "2026-03-11", "2026-04-11", "2026-05-11", "2026-06-11"]
    results(
        f.mine, "zinc", list(zip(days, ["0.204", "0.204", "0.1", "0.1", "0.1", "0.1"], strict=True))
    )
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    mine = next(d for d in run.determinations if d.establishment_id == f.mine.pk)
    assert mine.criteria == ["B"]


def test_late_report_is_snc_f_on_day_46_not_45(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    req = report_dues.add_requirement(
        sup(town), f.mine, kind="periodic", first_due=date(2026, 1, 31), every_months=6,
        at=at("2026-01-02"),
    )  # fmt: skip
    dues = list(ReportDue.objects.filter(requirement=req).order_by("due_on"))
    assert [d.due_on for d in dues][:3] == [date(2026, 1, 31), date(2026, 7, 31), date(2027, 1, 31)]
    report_dues.record_received(town.u("clerk"), dues[0], date(2026, 3, 17), at=at("2026-03-17"))
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    mine = next(d for d in run.determinations if d.establishment_id == f.mine.pk)
    assert not mine.snc and mine.reports[0]["days_late"] == 45
    with pytest.raises(Blocked):
        report_dues.record_received(town.u("clerk"), dues[0], date(2026, 3, 18))


def test_missing_report_past_45_days_is_f(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    report_dues.add_requirement(
        sup(town), f.mine, kind="baseline", first_due=date(2026, 2, 1), every_months=0,
        at=at("2026-01-02"),
    )  # fmt: skip
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    mine = next(d for d in run.determinations if d.establishment_id == f.mine.pk)
    assert mine.criteria == ["F"] and mine.violation is not None


def test_rolling_window_and_bad_period(town: Town) -> None:
    chronic_copper(town, sius=True)
    run = snc.compute_snc(sup(town), "2026-01..2026-06", rolling=True, at=at("2026-07-02"))
    assert run.rolling and any(d.snc for d in run.determinations)
    with pytest.raises(InvalidInput):
        snc.compute_snc(sup(town), "2026H3")
    with pytest.raises(InvalidInput):
        snc.compute_snc(sup(town), "2026-02..2026-05")  # not whole halves, fixed window


def test_only_the_control_authority_computes(town: Town) -> None:
    chronic_copper(town)
    for name in ("clerk", "viewer", "owner", "inspector"):
        with pytest.raises(Forbidden):
            snc.compute_snc(town.u(name), "2026H1")
    assert not SNCDetermination.objects.exists()


def test_siu_designation_by_declared_flow_and_capacity(town: Town) -> None:
    f = chronic_copper(town)
    d = services.designate(sup(town), f.theirs, on=date(2026, 1, 5), at=at("2026-01-05"))
    assert d.status == "not_siu" and d.basis == "evaluated"
    assert d.citation == "40 CFR 403.3(v)(1)"
    with pytest.raises(InvalidInput):
        services.designate(sup(town), f.theirs, basis="designated")
    d2 = services.designate(
        sup(town), f.theirs, basis="designated", reason="chromium plating line",
        at=at("2026-01-06"),
    )  # fmt: skip
    assert d2.status == "siu" and d2.supersedes_id == d.pk
    assert services.current_designation(f.theirs) == d2
    assert Designation.objects.count() == 2
    with pytest.raises(ImmutableRecord):
        d.save()
    with pytest.raises(Forbidden):
        services.designate(town.u("clerk"), f.theirs)


def test_siu_flow_threshold_exact(town: Town, settings: Any) -> None:
    from sewer_office.accounts.towns import primary
    from sewer_office.monitoring.in_force import params_in_force
    from sewer_rules.federal import cfr403_siu

    p = params_in_force(primary())
    on = date(2026, 1, 5)
    assert cfr403_siu.evaluate(p, on, flow_gpd=Decimal("25000"), flow_source="x").significant
    below = cfr403_siu.evaluate(p, on, flow_gpd=Decimal("24999.99"), flow_source="x")
    assert not below.significant
    # demo plant: 2,000,000 gpd; 5 % is 100,000 gpd
    cap = cfr403_siu.evaluate(p, on, flow_gpd=Decimal("100000"), flow_source="x")
    assert [c.code for c in cap.met] == ["flow", "capacity"]
    cat = cfr403_siu.evaluate(p, on, categorical_category="40 CFR 433")
    assert [c.code for c in cat.met] == ["categorical"]


def test_flag_overdue_records_late_reports_once(town: Town) -> None:
    from sewer_office.findings.models import Finding

    f = chronic_copper(town)
    report_dues.add_requirement(
        sup(town), f.mine, kind="periodic", first_due=date(2026, 1, 31), at=at("2026-01-02")
    )
    assert report_dues.flag_late_reports(date(2026, 1, 31)) == 0
    assert report_dues.flag_late_reports(date(2026, 2, 1)) == 1
    assert report_dues.flag_late_reports(date(2026, 2, 2)) == 0
    finding = Finding.objects.get(kind="report_late")
    assert finding.citation == "40 CFR 403.12(e)" and finding.establishment_id == f.mine.pk


def test_snc_violation_rests_on_an_snc_finding(town: Town) -> None:
    f = chronic_copper(town, sius=True)
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    det = next(d for d in run.in_snc)
    v = det.violation
    assert v.finding.kind == "snc" and v.finding.source == det
    # 40 CFR 403.8(f)(2)(viii) and the provision broken: the copper limit of the facility's
    # approval (DischargeLimit's authority, § 196-16 E by default), named on the finding too
    assert v.section == "40 CFR 403.8(f)(2)(viii); § 196-16 E"
    assert det.establishment_id == f.theirs.pk
    assert v.finding.message.endswith("Provisions broken: § 196-16 E.")


def test_yearly_list_and_annual_report(town: Town) -> None:
    from sewer_office.pretreatment import reports

    f = chronic_copper(town)
    f.theirs.name = "=HYPERLINK(1) Plating"
    f.theirs.save(update_fields=["name"])
    services.designate(
        sup(town), f.theirs, basis="designated", reason="plating", on=date(2026, 1, 5),
        at=at("2026-01-05"),
    )  # fmt: skip
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    listed = snc_list.snc_list(2026)
    assert [u.establishment.pk for u in listed] == [f.theirs.pk]
    assert snc_list.snc_list(2025) == []
    text = snc_list.newspaper_text(2026, listed, "Demo town")
    assert "40 CFR 403.8(f)(2)(viii)" in text and "at any time during" in text
    assert "criterion A (40 CFR 403.8(f)(2)(viii)(A))" in text
    body = reports.snc_list_csv(2026).decode("utf-8-sig")
    assert body.splitlines()[0] == ",".join(reports.SNC_HEADER)
    assert "'=HYPERLINK(1) Plating" in body  # a formula is escaped
    assert reports.snc_list_pdf(2026).startswith(b"%PDF")
    report = reports.annual_report(2026)
    line = next(x for x in report.facilities if x.establishment.pk == f.theirs.pk)
    assert line.designation == "siu" and line.samplings == 6 and line.snc
    assert report.totals["in significant noncompliance"] == 1
    assert report.added == [f"{f.theirs.name} (first designated 2026-01-05)"]
    csv_text = reports.annual_csv(2026).decode("utf-8-sig")
    assert "significant noncompliance (2026-01-01..2026-06-30 A)" in csv_text
    assert reports.annual_pdf(2026).startswith(b"%PDF")


def test_missed_milestone_is_criterion_e(town: Town) -> None:
    from .test_schedules import schedule

    f = chronic_copper(town)
    s = schedule(town, mine=True, due="2026-02-01")
    assert s.establishment_id == f.mine.pk
    designate_sius(town, f.mine)  # (E) applies to an SIU: the milestone's day was one
    run = snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    mine = next(d for d in run.determinations if d.establishment_id == f.mine.pk)
    assert mine.criteria == ["E"] and mine.citations == ["40 CFR 403.8(f)(2)(viii)(E)"]
    assert "Pretreatment unit installed" in mine.staff_criteria[0]["text"]
    assert mine.violation is not None


def test_siu_flow_from_the_flow_meter(town: Town) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from sewer_office.meters import days
    from sewer_office.meters.models import Meter, Reading, ReadingUpload
    from sewer_rules.monitoring.instants import to_us

    f = chronic_copper(town)
    meter = Meter.objects.create(sampling_point=f.my_point, ident="CAFE-FLOW", parameter="flow",
                                 unit="gpm")  # fmt: skip
    start = at("2026-01-02", 0)
    upload = ReadingUpload.objects.create(
        meter=meter, sha256="x", first_at=start, last_at=start, count=3, jurisdiction="demo",
        parameters_version="t",
    )  # fmt: skip
    values = ("17", "18", "17.5")
    for k, v in enumerate(values):
        Reading.objects.create(meter=meter, upload=upload, at=start + timedelta(hours=k), value=v)
    # as the readings upload does: the daily volumes the flow is read from
    days.record_upload(
        meter,
        [to_us(start + timedelta(hours=k)) for k in range(3)],
        list(values),
        "America/New_York",
    )
    d = services.designate(sup(town), f.mine, on=timezone.localdate(start), at=start)
    # mean 17.5 gpm × 1440 = 25,200 gpd ≥ 25,000
    assert d.flow_gpd == Decimal("25200.00") and "CAFE-FLOW" in d.flow_source
    assert d.status == "siu" and d.evaluation["criteria"][1]["met"] is True
