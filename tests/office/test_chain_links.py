"""From a result or a finding to an opened violation: the "Open a violation" link only where
the finding is a violation and only for those who may open one (else the violation already
open from it), the form filled from the finding with its nature in plain words, and the
describer's sentence for every kind of finding."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from django.utils import timezone

from sewer_office.enforcement.models import ComplianceSchedule, Milestone, Violation
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.phrases import period, written
from sewer_office.findings.services import findings_of
from sewer_office.findings.words import describe
from sewer_office.grease.models import GreaseInterceptor
from sewer_office.inspections import entry
from sewer_office.meters.models import Excursion, Meter, SlugEvent
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import LabResult
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.pretreatment.models import ReportDue, SNCDetermination

from .factories import Town
from .monitoring_factories import facilities
from .test_inspections import scheduled

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
OPEN_LINK = "/enforcement/open/?finding="


def _result(town: Town, row: str) -> LabResult:
    """One result of the owner's café imported from a laboratory file (``row`` after the
    header), evaluated by the rules as any import is."""
    facilities(town)
    data = (HEADER + row + "\n").encode()
    imp = import_lab_file(data, "lab.csv", town.u("superintendent")).lab_import
    assert imp is not None
    return LabResult.objects.get(lab_import=imp)


def _prohibited(town: Town) -> tuple[LabResult, Finding]:
    result = _result(town, "M1,2026-03-03T10:00,grab,pH,4.8,SU,OWNER-CAFE,CM-1")
    finding = result.findings.get(status="prohibited")
    return result, finding


def test_link_on_a_prohibited_result_and_the_queue_not_for_a_viewer(town: Town, login: Any) -> None:
    result, finding = _prohibited(town)
    link = f"{OPEN_LINK}{finding.pk}"
    page = login("superintendent").get(f"/monitoring/results/{result.pk}/").content.decode()
    assert link in page and "Open a violation" in page
    assert "pH 4.8 below the minimum of 5.5 on March 3, 2026" in page
    queue = login("inspector").get("/monitoring/findings/").content.decode()
    assert link in queue
    for who in ("viewer", "clerk"):  # may see the finding, may not open a violation
        body = login(who).get(f"/monitoring/results/{result.pk}/").content.decode()
        assert OPEN_LINK not in body and "Open a violation" not in body
        assert OPEN_LINK not in login(who).get("/monitoring/findings/").content.decode()


def test_no_link_on_an_abnormal_strength_result(town: Town, login: Any) -> None:
    result = _result(town, "M2,2026-03-03T10:00,composite,TSS,357,mg/l,OWNER-CAFE,CM-1")
    finding = result.findings.get()
    assert finding.status == "abnormal_strength"
    c = login("superintendent")
    page = c.get(f"/monitoring/results/{result.pk}/").content.decode()
    assert OPEN_LINK not in page and "Open a violation" not in page
    assert "Total suspended solids 357 mg/l above normal strength (300 mg/l) on March 3" in page
    queue = c.get("/monitoring/findings/", {"review": "all"}).content.decode()
    assert f"{OPEN_LINK}{finding.pk}" not in queue
    # the page behind the link refuses it too, and offers no form
    r = c.get(f"{OPEN_LINK}{finding.pk}")
    body = r.content.decode()
    assert "No violation can be opened" in body and 'name="section"' not in body


def test_following_the_link_gives_the_form_filled_and_submitting_opens(
    town: Town, login: Any
) -> None:
    result, finding = _prohibited(town)
    c = login("superintendent")
    page = c.get(f"/monitoring/results/{result.pk}/").content.decode()
    href = re.search(r'href="([^"]*/enforcement/open/\?finding=\d+)"', page)
    assert href is not None
    form = c.get(href.group(1)).context["form"]
    cafe = town.owner_restaurant
    assert cafe is not None
    assert form["establishment"].value() == cafe.pk
    assert form["person"].value() == cafe.operator_id
    assert form["section"].value() == "§ 196-19 C(3)"
    assert form["description"].value() == "pH 4.8 below the minimum of 5.5 on March 3, 2026"
    assert str(form["observed_on"].value()) == "2026-03-03"
    assert form["kind"].value() in dict(form.fields["kind"].choices)
    # every field editable: the nature is changed before opening
    data = {
        "finding": finding.pk,
        "kind": form["kind"].value(),
        "section": "§ 196-19 C(3)",
        "description": "pH 4.8, below the minimum of 5.5, on March 3, 2026 (grab sample M1)",
        "person": cafe.operator_id,
        "establishment": cafe.pk,
        "observed_on": "2026-03-03",
    }
    r = c.post("/enforcement/open/", data)
    assert r.status_code == 302, r.content.decode()[:3000]
    v = Violation.objects.get()
    assert (v.finding, v.section, v.person, v.establishment) == (
        finding,
        "§ 196-19 C(3)",
        cafe.operator,
        cafe,
    )
    assert v.description == data["description"] and v.state == "open"
    # now the result links to the violation, not to a second opening
    page = c.get(f"/monitoring/results/{result.pk}/").content.decode()
    assert v.get_absolute_url() in page and OPEN_LINK not in page
    body = c.get(f"{OPEN_LINK}{finding.pk}").content.decode()
    assert v.number in body and 'name="section"' not in body


def test_the_hand_form_chooses_a_section_that_can_be_violated(town: Town, login: Any) -> None:
    assert town.owner_person is not None and town.owner_home is not None
    c = login("inspector")
    form = c.get("/enforcement/open/").context["form"]
    offered = dict(form.fields["section"].choices)
    assert "§ 196-19 C(3)" in offered and "§ 196-20" in offered and "40 CFR 403.12" in offered
    for never in ("§ 196-15", "§ 196-22", "§ 196-19 J", "§ 196-19 E(1)(d)"):
        assert never not in offered, never
    data = {
        "kind": "discharge_seen",
        "section": "§ 196-15",
        "description": "x",
        "person": town.owner_person.pk,
        "property": town.owner_home.pk,
        "observed_on": "2026-02-02",
    }
    r = c.post("/enforcement/open/", data)
    assert r.status_code == 400
    assert "is a definition: it imposes no duty" in r.context["form"].errors["section"][0]
    assert not Violation.objects.exists()


# --- the describer, one kind at a time --------------------------------------------------------


def _plain(sentence: str) -> None:
    """No internal key, record number or ISO date in a sentence a respondent reads."""
    assert "_" not in sentence and "#" not in sentence, sentence
    assert not re.search(r"\d{4}-\d{2}-\d{2}", sentence), sentence
    assert "TRC" not in sentence and "None" not in sentence, sentence


def _at(day: str, hour: int = 10, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.fromisoformat(f"{day}T{hour:02d}:{minute:02d}"))


def _finding(kind: str, source: Any = None, **kw: Any) -> Finding:
    f = Finding(kind=kind, status=kw.pop("status", "prohibited"), **kw)
    if source is not None:
        f.source = source
    return f


def test_words_of_a_result_and_a_monthly_average(town: Town) -> None:
    finding = _prohibited(town)[1]
    assert describe(finding) == "pH 4.8 below the minimum of 5.5 on March 3, 2026"
    month = _finding(
        FindingKind.MONTHLY_AVERAGE,
        citation="§ 196-16 E",
        limit="0.6",
        limit_unit="mg/l",
        parameter="permit IDA-2025-00001 monthly_average",
        analyte="copper",
        month=date(2026, 11, 1),
        observed_at=_at("2026-11-30", 23),
        message=(
            "monthly average of copper for 2026-11: 0.7325 mg/l over 4 day(s) measured; "
            "permit limit 0.6 mg/l (IDA-2025-00001)"
        ),
    )
    said = describe(month)
    assert said == (
        "the average of copper in November 2026, 0.7325 mg/l over 4 days sampled, above the "
        "monthly average limit of 0.6 mg/l in industrial discharge approval IDA-2025-00001"
    )
    for s in (describe(finding), said):
        _plain(s)


def test_words_of_a_result_that_shows_nothing(db: Any) -> None:
    lab = LabResult(parameter="copper", value_text="<2", unit="mg/l")
    unclear = describe(
        _finding(
            FindingKind.LAB_RESULT,
            status="inconclusive",
            result=lab,
            analyte="copper",
            limit="1",
            limit_unit="mg/l",
            parameter="local_limit.copper",
            observed_at=_at("2026-03-03"),
        )
    )
    assert unclear == (
        "copper <2 mg/l on March 3, 2026: the laboratory's reporting limit is above the "
        "Superintendent's limit of 1 mg/l, so the result neither shows nor excludes a violation"
    )
    free = describe(
        _finding(
            FindingKind.LAB_RESULT,
            status="no_limit",
            result=lab,
            analyte="copper",
            observed_at=_at("2026-03-03"),
        )
    )
    assert free == "copper <2 mg/l on March 3, 2026 (no limit applies)"
    for s in (unclear, free):
        _plain(s)


def test_words_of_meters_findings(db: Any) -> None:
    flow = Meter(ident="ACME-FLOW-1", parameter="flow", unit="gpd")
    slug = SlugEvent(
        meter=flow,
        start=_at("2026-12-02", 14),
        end=_at("2026-12-02", 14, 30),
        peak="69587",
        baseline="9126.194444",
        threshold="45630.972222",
        unit="gpd",
    )
    said = describe(
        _finding(
            FindingKind.SLUG,
            slug,
            status="review",
            analyte="flow",
            observed_at=slug.start,
            message="internal",
        )
    )
    assert said.startswith(
        "a slug discharge on meter ACME-FLOW-1 on December 2, 2026 from 2:00 pm to 2:30 pm: "
        "flow peaked at 69,587 gallons per day, more than the slug threshold of 45,631 gallons "
        "per day (5 times the normal rate)"
    )
    unreported = describe(
        _finding(FindingKind.UNREPORTED_SLUG, slug, status="review", observed_at=slug.start)
    )
    assert "not reported to the Town immediately" in unreported
    ph = Meter(ident="ACME-PH-1", parameter="ph", unit="SU")
    exc = Excursion(
        meter=ph,
        start=_at("2026-12-02", 16),
        end=_at("2026-12-02", 16, 15),
        extreme="5.1",
        limit="5.5",
        unit="SU",
    )
    excursion = describe(
        _finding(
            FindingKind.EXCURSION,
            exc,
            limit="5.5",
            limit_unit="SU",
            parameter="ph.minimum",
            analyte="ph",
            observed_at=exc.start,
        )
    )
    assert excursion == (
        "pH below the minimum of 5.5 on meter ACME-PH-1 on December 2, 2026 from 4:00 pm to "
        "4:15 pm (15 minutes; lowest 5.1)"
    )
    for s in (said, unreported, excursion):
        _plain(s)


def test_words_of_duties_not_met(town: Town) -> None:
    trap = GreaseInterceptor(kind="grease_trap", location="under the dish sink")
    pump = describe(
        _finding(FindingKind.PUMP_OUT_OVERDUE, trap, limit="90", observed_at=_at("2026-06-02", 0))
    )
    assert pump == (
        "the grease trap (under the dish sink) not pumped out by its due date, June 1, 2026 "
        "(to be cleaned every 90 days)"
    )
    approval = IndustrialDischargeApproval(number="IDA-2025-00001", expires_on=date(2026, 6, 30))
    expired = describe(
        _finding(FindingKind.APPROVAL_EXPIRED, approval, observed_at=_at("2026-07-01", 0))
    )
    assert expired.startswith("industrial discharge approval IDA-2025-00001 expired on June 30")
    milestone = Milestone(
        schedule=ComplianceSchedule(pk=7),
        description="install the clarifier",
        due_on=date(2026, 2, 1),
    )
    missed = describe(
        _finding(FindingKind.MILESTONE_MISSED, milestone, observed_at=_at("2026-02-02", 0))
    )
    assert missed == (
        "milestone “install the clarifier” of compliance schedule CS-7, due February 1, 2026, "
        "not completed by its date"
    )
    due = ReportDue(kind="baseline", due_on=date(2026, 1, 15))
    late = describe(
        _finding(FindingKind.REPORT_LATE, due, observed_at=_at("2026-01-16", 0)),
        today=date(2026, 6, 30),
    )
    assert late == "baseline monitoring report due January 15, 2026 not received (166 days late)"
    for s in (pump, expired, missed, late):
        _plain(s)


def test_words_of_inspections(town: Town) -> None:
    failed = describe(
        _finding(
            FindingKind.INSPECTION,
            status="review",
            observed_at=_at("2026-10-26", 14),
            message=(
                "No concentrated plating solutions reach the sewer: not met — Drag-out drains "
                "to a floor drain."
            ),
        )
    )
    assert failed == (
        "at the inspection of October 26, 2026, this requirement was not met: no "
        "concentrated plating solutions reach the sewer (drag-out drains to a floor drain)"
    )
    i = scheduled(town)
    entry.record_refusal(
        i,
        town.u("inspector"),
        refused_at=_at("2026-01-02", 10),
        refused_by="J. Doe, plant manager",
        asked="entry to the pretreatment room",
        credentials_shown="Town ID 12",
    )
    refused = describe(findings_of(i).get())
    assert refused == (
        "entry for the inspection refused by J. Doe, plant manager on January 2, 2026 at 10:00 am"
    )
    for s in (failed, refused):
        _plain(s)


def test_words_of_significant_noncompliance_and_an_advisory(db: Any) -> None:
    det = SNCDetermination(
        period_start=date(2026, 1, 1),
        period_end=date(2026, 6, 30),
        snc=True,
        determinations=[
            {
                "parameter": "copper",
                "limit_type": "daily_maximum",
                "limit": "1",
                "unit": "mg/l",
                "trc": "1.2",
                "measurements": 12,
                "exceeding": 9,
                "trc_exceeding": 5,
                "snc": True,
            },
            {"parameter": "zinc", "limit_type": "daily_maximum", "snc": False},
        ],
        reports=[
            {
                "report": "baseline #3",
                "due": "2026-01-15",
                "received": None,
                "days_late": 166,
                "snc": True,
            },
            {
                "report": "periodic_noncat #1",
                "due": "2026-01-31",
                "received": "2026-02-10",
                "days_late": 10,
                "snc": False,
            },
        ],
        staff_criteria=[],
    )
    snc = describe(_finding(FindingKind.SNC, det, observed_at=_at("2026-06-30", 23)))
    assert snc == (
        "significant noncompliance in January–June 2026: copper above its daily maximum "
        "(1 mg/l) on 9 of 12 days sampled, 5 of them at or above 1.2 mg/l (the technical "
        "review criterion, 1.2 times the limit); baseline monitoring report due January 15, "
        "2026 not received (166 days late)"
    )
    advisory = describe(
        _finding(
            FindingKind.ADVISORY,
            status="advisory",
            analyte="bod5",
            parameter="holding_time_exceeded",
            observed_at=_at("2026-03-03"),
            message="analysed 72 h after sampling; the holding time is 48 h",
        )
    )
    assert advisory == (
        "the five-day biochemical oxygen demand (BOD) result of the sample of March 3, 2026: "
        "analysed 72 h after sampling; the holding time is 48 h"
    )
    for s in (snc, advisory):
        _plain(s)


def test_every_kind_has_its_words() -> None:
    from sewer_office.findings.words import DESCRIBERS

    assert set(DESCRIBERS) == set(FindingKind.values)


def test_dates_written_out() -> None:
    assert written(date(2026, 3, 3)) == "March 3, 2026"
    assert period(date(2026, 1, 1), date(2026, 6, 30)) == "January–June 2026"
    assert period(date(2026, 3, 1), date(2026, 3, 31)) == "March 2026"
    assert period(date(2026, 3, 3), date(2026, 4, 2)) == "March 3, 2026 to April 2, 2026"
