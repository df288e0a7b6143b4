"""The annual pretreatment report as ICIS-NPDES XML (40 CFR 403.12(i), 40 CFR 127): the figures
gathered from a small town's records, the refusal listing everything missing, the command, the
annual page's link, and the demo town's export (its figures those of the PDF and CSV; valid
against EPA's schema when ICIS_XSD_DIR is set)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from sewer_office.billing import enforcement as billed_money
from sewer_office.core.services import perform
from sewer_office.enforcement import money
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.models import SamplingEvent
from sewer_office.permits.models import IndustrialDischargeApproval
from sewer_office.permits.models.industrial import SelfMonitoringRequirement
from sewer_office.pretreatment import icis, reports, services, snc
from sewer_office.registry.models import Establishment
from tests.icis_schema import needs_xsd, schema_dir, validate

from .enforcement_factories import overdue
from .factories import Town, new_record
from .pretreatment_factories import at, chronic_copper, sup

NS = "{http://www.exchangenetwork.net/schema/icis/5}"
YEAR = 2026


def _event(est: Establishment, sample_id: str, day: str, sampler: str) -> None:
    SamplingEvent.objects.create(
        establishment=est,
        sample_id=sample_id,
        sample_type="grab",
        collected_at=at(day, 8),
        sampler=sampler,
    )


def plating(town: Town, *, icis_id: str = "NYP000777") -> Establishment:
    """Otto Plating in 2026: approved on April 1 with monthly composites (copper, zinc) and
    weekly pH grabs at CM-1; designated SIU; in SNC (A) for copper in the first half; one
    inspection; two samples by the Town, three by the user (six of unrecorded sampler: the
    copper results); a notice, a referral for prosecution, a fine of 2000.00 with 500.00
    collected. The 2025 records are outside the report."""
    f = chronic_copper(town)
    est = f.theirs
    eng = town.u("engineer")
    a = perform(new_record("industrial", town, mine=False), "begin_review", eng)
    for parameter, kind, every in (
        ("copper", "composite", "monthly"),
        ("zinc", "composite", "monthly"),
        ("ph", "grab", "weekly"),
    ):
        SelfMonitoringRequirement.objects.create(
            approval=a, parameter=parameter, sampling_point="CM-1", sample_type=kind,
            frequency=every,
        )  # fmt: skip
    a = perform(a, "approve", eng, {}, at=at("2026-04-01"))
    assert a.decided_on == date(2026, 4, 1)
    if icis_id:
        IndustrialDischargeApproval.objects.filter(pk=a.pk).update(icis_permit_id=icis_id)
    services.designate(
        sup(town), est, basis="designated", reason="plating line", on=date(2026, 1, 5),
        at=at("2026-01-05"),
    )  # fmt: skip
    inspector = town.u("inspector")
    Inspection.objects.create(
        kind="industrial_user", establishment=est, inspector=inspector, state="completed",
        completed_at=at("2026-05-04"),
    )  # fmt: skip
    Inspection.objects.create(
        kind="industrial_user", establishment=est, inspector=inspector, state="completed",
        completed_at=at("2025-11-04"),
    )  # fmt: skip
    for i, day in enumerate(("2026-02-03", "2026-08-03")):
        _event(est, f"TOWN-{i}", day, "control_authority")
    _event(est, "TOWN-OLD", "2025-12-30", "control_authority")
    for i, day in enumerate(("2026-03-01", "2026-06-01", "2026-09-01")):
        _event(est, f"USER-{i}", day, "industrial_user")
    snc.compute_snc(sup(town), "2026H1", at=at("2026-07-02"))
    v = overdue(town, mine=False)  # a notice of violation issued 2026-01-05
    perform(
        v, "refer", sup(town), {"kind": "town_attorney", "referred_to": "Town Attorney"},
        at=at("2026-01-26"),
    )  # fmt: skip
    j = money.record_judgment(
        v, town.u("clerk"), court="Town Justice Court", docket="CR-2026-7",
        judgment_on=date(2026, 3, 2), fine_amount="2000.00", at=at("2026-03-03"),
    )  # fmt: skip
    billed_money.record_collection(
        j, sup(town), amount="500.00", collected_on=date(2026, 3, 10), collected_by="court",
        reference="receipt 1", at=at("2026-03-11"),
    )  # fmt: skip
    return est


def _user(root: ET.Element, pid: str) -> ET.Element:
    for u in root.iter(f"{NS}IndustrialUserInformation"):
        if u.findtext(f"{NS}PermitIdentifier") == pid:
            return u
    raise AssertionError(f"{pid} not in the report")


def test_the_figures_gathered_from_the_records(town: Town) -> None:
    est = plating(town)
    line = next(f for f in reports.annual_report(YEAR).facilities if f.establishment == est)
    assert (line.inspections, line.samplings_town, line.samplings_user) == (1, 2, 3)
    assert line.samplings_unrecorded == 6 and line.samplings == 11
    # in force April 1 – December 31: (12 composites + 52 grabs) × 275 / 365 = 48.2
    assert line.self_monitoring_required == 48
    assert (line.penalties_assessed, line.penalties_collected) == (
        Decimal("2000.00"),
        Decimal("500.00"),
    )
    assert line.actions == {"notice_of_violation": 1, "referral_town_attorney": 1}
    assert line.months_in_snc(date(2026, 1, 1), date(2026, 12, 31)) == tuple(
        (2026, m) for m in range(1, 7)
    )
    assert (line.flow_gpd, line.icis_permit_id) == (Decimal("1000"), "NYP000777")

    export = icis.build_year(YEAR, submitter="superintendent")
    root = ET.fromstring(export.content)
    assert root.findtext(f".//{NS}PretreatmentProgramReport/{NS}PermitIdentifier") == "NYEXAMPLE"
    assert root.findtext(f".//{NS}ProgramReportFormSetID") == "PPR-20260101-20261231"
    u = _user(root, "NYP000777")
    text = {e.tag[len(NS) :]: e.text for e in u.iter()}
    assert text["IUAverageDailyWastewaterFlowRateGPD"] == "1000"
    assert text["IUSubjectLocalLimitsIndicator"] == "Y"
    assert (text["NumberIUInspectionsByCA"], text["NumberIUSamplingEventsByCA"]) == ("1", "2")
    assert text["NumberReqdIUSelfMonEventsMaximum"] == "48"
    assert text["IUComplyReqSelfMonRptingIndicator"] == "N"  # 3 (+6 unrecorded) of 48
    assert text["SNCPretrStndLimitsIndicator"] == "Y" and text["SNCRptRqmtIndicator"] == "N"
    assert [c.text for c in u.iter(f"{NS}SNCPretrStndLimitsParameterCode")] == ["01042"]
    months = [m.text for m in u.iter(f"{NS}SNCListingMonthYear")]
    assert months == [f"{m:02d}/2026" for m in range(1, 7)]
    assert text["SNCPublishedIndicator"] == "N"
    actions = {
        t.findtext(f"{NS}IUEnfActionTypeCode"): t.findtext(f"{NS}NumIUEnfActions")
        for t in u.iter(f"{NS}IUEnfActionTypes")
    }
    assert actions == {"EXN": "1", "EXP": "1"}  # the demo's EXAMPLE codes
    assert text["IUCashCivilPenaltyAmountAssessed"] == "2000.00"
    assert text["IUCashCivilPenaltyAmountCollected"] == "500.00"
    # the local limits in force, by their codes (demo: the article's and the Superintendent's)
    codes = {c.text for c in root.iter(f"{NS}LocalLimitsParameterCode")}
    assert {"00720", "00400", "01042"} <= codes
    # outside the year: nothing of 2026
    later = reports.annual_report(2025)
    old = next(f for f in later.facilities if f.establishment == est)
    assert (old.inspections, old.samplings_town, old.samplings_user) == (1, 1, 0)
    assert old.self_monitoring_required is None and not old.snc


def test_refused_with_everything_missing_at_once(town: Town, settings: Any) -> None:
    plating(town, icis_id="")
    settings.SEWER_USE_JURISDICTION = "wappinger"  # nothing of the report configured
    with pytest.raises(icis.ExportRefused) as e:
        icis.build_year(YEAR, submitter="superintendent")
    problems = "\n".join(e.value.problems)
    for expected in (
        "icis.potw_permit_id is not configured",
        "Otto Plating (OTHER-PLANT): no ICIS-NPDES permit identifier is recorded on its "
        "industrial discharge approval IDA-",
        "icis.parameter_code.copper is not configured",
        "in SNC at OTHER-PLANT",
        "icis.parameter_code.cyanide_total is not configured",
        "icis.parameter_code.ph is not configured",
        "icis.action_code.notice_of_violation is not configured",
        "icis.action_code.referral_town_attorney is not configured",
        "icis.snc_month_format is not configured",
    ):
        assert expected in problems, expected
    assert len(e.value.problems) >= 10


def test_the_command_writes_the_file_or_lists_what_is_missing(
    town: Town, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sewer_cli.main import main

    est = plating(town, icis_id="")
    out = tmp_path / "report.xml"
    assert main(["icis-export", "--year", str(YEAR), "--output", str(out)]) == 1
    err = capsys.readouterr().err
    assert "not written" in err and "Otto Plating (OTHER-PLANT)" in err and not out.exists()
    IndustrialDischargeApproval.objects.filter(establishment=est).update(icis_permit_id="NYP000777")
    code = main(
        ["icis-export", "--period", "2026-01-01..2026-12-31", "--output", str(out), "--replace"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert f"Wrote {out}" in printed and "NYP000777  Otto Plating: 1 inspections" in printed
    root = ET.fromstring(out.read_bytes())
    assert root.findtext(f".//{NS}TransactionType") == "R"
    assert root.findtext(f".//{NS}Header/{NS}Id") == "sewer-use"
    assert main(["icis-export", "--period", "2026-13-01..2026-12-31", "--output", "o"]) == 2
    assert "write two dates" in capsys.readouterr().err


def test_the_annual_page_offers_the_xml_or_says_what_is_missing(town: Town, login: Any) -> None:
    est = plating(town, icis_id="")
    c = login("clerk")
    page = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert f'href="/pretreatment/annual/{YEAR}.xml"' not in page
    assert 'id="icis-missing"' in page and "Otto Plating (OTHER-PLANT)" in page
    r = c.get(f"/pretreatment/annual/{YEAR}.xml")
    assert r.status_code == 409 and "Otto Plating (OTHER-PLANT)" in r.content.decode()
    IndustrialDischargeApproval.objects.filter(establishment=est).update(icis_permit_id="NYP000777")
    page = c.get(f"/pretreatment/annual/{YEAR}/").content.decode()
    assert f'href="/pretreatment/annual/{YEAR}.xml"' in page and 'id="icis-missing"' not in page
    r = c.get(f"/pretreatment/annual/{YEAR}.xml")
    assert r.status_code == 200 and r["Content-Type"] == "application/xml"
    assert "attachment" in r["Content-Disposition"]
    root = ET.fromstring(r.content)
    assert root.findtext(f".//{NS}Header/{NS}Id") == "clerk"
    assert _user(root, "NYP000777").findtext(f".//{NS}NumberIUInspectionsByCA") == "1"


def test_the_demo_exports_every_siu_with_the_figures_of_the_pdf(demo_town: Any) -> None:
    from sewer_office.demo.pretreatment import last_half

    anchor = date(2026, 12, 1)
    demo_town(seed=4, anchor=anchor)
    year = last_half(anchor)[2].year
    export = icis.build_year(year, submitter="superintendent")  # refuses nothing
    root = ET.fromstring(export.content)
    report = reports.annual_report(year)
    # the XML lists the users that were SIUs on a day of the year, and no other
    sius = [f for f in report.facilities if f.siu_in_period]
    assert sius and all(f.icis_permit_id for f in sius)
    assert {pid for pid, _ in export.users} == {f.icis_permit_id for f in sius}
    assert len(root.findall(f".//{NS}IndustrialUserInformation")) == len(sius)
    assert len(report.facilities) > len(sius)  # the PDF lists every industrial user
    context = reports.annual_context(reports.Year(year))
    rows = {r[0]: r for r in reports.annual_rows(report)}
    col = {name: i for i, name in enumerate(reports.ANNUAL_HEADER)}
    for f in sius:
        u = _user(root, f.icis_permit_id)
        row = rows[f.establishment.name]

        def xml(tag: str, u: ET.Element = u) -> str:
            return u.findtext(f".//{NS}{tag}") or ""

        assert xml("NumberIUInspectionsByCA") == str(row[col["inspections"]])
        assert xml("NumberIUSamplingEventsByCA") == str(row[col["samplings_by_town"]])
        assert xml("NumberReqdIUSelfMonEventsMaximum") == str(
            row[col["self_monitoring_samples_required"]]
        )
        assert xml("IUAverageDailyWastewaterFlowRateGPD") == str(row[col["average_daily_flow_gpd"]])
        assert xml("IUCashCivilPenaltyAmountAssessed") == row[col["fines_assessed_by_court"]]
        assert xml("IUCashCivilPenaltyAmountCollected") == row[col["fines_collected"]]
        months = [m.text for m in u.iter(f"{NS}SNCListingMonthYear")]
        shown = [m for m in str(row[col["months_in_snc"]]).split(", ") if m]
        assert [f"{m[5:]}/{m[:4]}" for m in shown] == months
        # the PDF says the same (its text is the letter's context)
        assert f"Inspections: {row[col['inspections']]}" in context["users"]
    acme = next(f for f in report.facilities if f.establishment.code == "ACME-PLATING")
    assert (
        acme.snc and _user(root, acme.icis_permit_id).find(f".//{NS}SNCListingMonths") is not None
    )
    if schema_dir() is not None:  # ICIS_XSD_DIR set: the export is valid against EPA's XSD
        validate(export.content)


@needs_xsd
def test_a_small_towns_export_validates_against_epas_schema(town: Town) -> None:
    plating(town)
    validate(icis.build_year(YEAR, submitter="superintendent").content)
