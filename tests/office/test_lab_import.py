"""Importing laboratory files: all or nothing, refused twice, judged by the law as code."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from sewer_office.core.models import AuditEvent
from sewer_office.findings.models import Finding
from sewer_office.monitoring import queries
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabImport, LabResult, SamplingEvent

from .factories import Town
from .monitoring_factories import facilities

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point,analyzed_at,method,collected_by,received_at,received_by\n"

GOOD = HEADER + (
    "S1,2026-03-02T10:42,grab,pH,5.3,SU,OTHER-PLANT,CM-1,2026-03-02T10:47,SM 4500-H+ B,I. Moreau,2026-03-02T13:00,Lab clerk\n"
    "S1,2026-03-02T10:42,grab,Temperature,62.2,°F,OTHER-PLANT,CM-1,,SM 2550 B,I. Moreau,2026-03-02T13:00,Lab clerk\n"
    "S2,2026-03-03T07:00,composite,Copper,1.4,mg/l,other-plant,,2026-03-04T09:00,EPA 200.7,,,\n"
    "S2,2026-03-03T07:00,composite,BOD5,180,mg/l,OTHER-PLANT,CM-1,2026-03-04T09:00,SM 5210 B,,,\n"
)


def _limits(town: Town) -> None:
    for kind, value in (("daily_maximum", "1.0"), ("monthly_average", "0.6")):
        DischargeLimit.objects.create(
            establishment=town.other_plant,
            parameter="copper",
            limit_type=kind,
            value=value,
            unit="mg/l",
            effective_from=date(2025, 1, 1),
        )


@pytest.fixture
def fac(town: Town) -> Any:
    f = facilities(town)
    _limits(town)
    return f


def test_good_file_is_stored_with_findings_and_citations(town: Town, fac: Any) -> None:
    report = import_lab_file(
        GOOD.encode(), "march.csv", town.u("superintendent"), today=date(2026, 4, 2)
    )
    assert report.ok and report.stored, report.errors
    assert LabResult.objects.count() == 4 and SamplingEvent.objects.count() == 2
    ph = LabResult.objects.get(parameter="ph")
    assert ph.status == "prohibited" and ph.value_text == "5.3" and ph.unit == "SU"
    f = ph.findings.get(citation="§ 196-19 C(3)")
    assert (f.status, f.limit, f.limit_unit, f.parameter) == (
        "prohibited",
        "5.5",
        "SU",
        "ph.minimum",
    )
    assert f.effective == date(1992, 9, 28) and f.parameters_version == report.parameters_version
    assert f.review == "new" and f.establishment == town.other_plant
    copper = LabResult.objects.get(parameter="copper")
    assert copper.status == "prohibited"  # 1.4 > daily maximum 1.0 (§ 196-16 E)
    assert copper.event.sampling_point == fac.their_point  # blank: the facility's only point
    event = SamplingEvent.objects.get(sample_id="S1")
    assert event.collected_by == "I. Moreau" and event.received_by == "Lab clerk"
    assert event.received_at is not None and event.sample_type == "grab"
    monthly = Finding.objects.get(kind="monthly_average")
    assert monthly.status == "prohibited" and monthly.month == date(2026, 3, 1)
    assert AuditEvent.objects.filter(action="import_results").count() == 1


def test_incomplete_month_is_not_averaged(town: Town, fac: Any) -> None:
    report = import_lab_file(
        GOOD.encode(), "march.csv", town.u("superintendent"), today=date(2026, 3, 20)
    )
    assert report.stored and not Finding.objects.filter(kind="monthly_average").exists()


def test_any_bad_row_stores_nothing_and_names_every_row_and_field(town: Town, fac: Any) -> None:
    bad = GOOD + (
        "S3,2026-03-05T07:00,grab,pH,15,SU,OTHER-PLANT,CM-1,,,,,\n"
        "S4,2026-03-05T07:00,grab,pH,7,SU,NOBODY,CM-1,,,,,\n"
        "S5,2026-03-05T07:00,grab,pH,7,SU,OTHER-PLANT,CM-9,,,,,\n"
        "S1,2026-03-02T10:43,grab,Zinc,0.1,mg/l,OTHER-PLANT,CM-1,,,,nonsense,\n"
    )
    report = import_lab_file(bad.encode(), "bad.csv", town.u("superintendent"))
    assert not report.stored
    fields = {(r, f) for r, f, _ in report.errors}
    assert {
        (6, "value"),
        (7, "facility"),
        (8, "sampling_point"),
        (9, "sampled_at"),
        (9, "received_at"),
    } <= fields
    assert LabResult.objects.count() == 0 and SamplingEvent.objects.count() == 0
    assert LabImport.objects.count() == 0 and Finding.objects.count() == 0


def test_reimport_is_refused(town: Town, fac: Any) -> None:
    assert import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent")).stored
    again = import_lab_file(GOOD.encode(), "march-copy.csv", town.u("superintendent"))
    assert not again.stored and "already imported" in again.refused
    assert LabResult.objects.count() == 4


def test_same_results_in_another_file_are_refused_row_by_row(town: Town, fac: Any) -> None:
    assert import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent")).stored
    again = import_lab_file((GOOD + "\n").encode(), "march-2.csv", town.u("superintendent"))
    assert not again.stored and len(again.errors) == 4
    assert all("already stored" in m for _, _, m in again.errors)


def test_dry_run_evaluates_without_storing(town: Town, fac: Any) -> None:
    report = import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent"), dry_run=True)
    assert report.ok and not report.stored and report.statuses["prohibited"] == 2
    assert LabResult.objects.count() == 0


def test_outside_user_may_only_report_for_own_facility(town: Town, fac: Any) -> None:
    from sewer_office.core.errors import Forbidden
    from sewer_office.monitoring.choices import ImportSource

    with pytest.raises(Forbidden):
        import_lab_file(GOOD.encode(), "x.csv", town.u("owner"))
    report = import_lab_file(
        GOOD.encode(), "x.csv", town.u("owner"), source=ImportSource.SELF_MONITORING
    )
    assert not report.stored
    assert all(
        f == "facility" and "OTHER-PLANT" in m for _, f, m in report.errors if f == "facility"
    )
    assert report.errors


def test_correction_supersedes_and_keeps_history(town: Town, fac: Any) -> None:
    from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
    from sewer_office.monitoring.services import approve_results, correct_result

    import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent"), today=date(2026, 4, 2))
    copper = LabResult.objects.get(parameter="copper")
    assert approve_results(LabResult.objects.all(), town.u("engineer")) == 4
    copper.refresh_from_db()
    assert copper.state == "approved"
    copper.value_text = "0.5"
    with pytest.raises(Exception, match="never edited"):
        copper.save()
    copper.refresh_from_db()
    with pytest.raises(Forbidden):
        correct_result(copper, town.u("clerk"), value="0.5", unit="mg/l", reason="typo")
    with pytest.raises(InvalidInput):
        correct_result(copper, town.u("engineer"), value="0.5", unit="mg/l", reason=" ")
    new = correct_result(
        copper, town.u("engineer"), value="0.5", unit="mg/l", reason="lab transcription error"
    )
    copper.refresh_from_db()
    assert copper.state == "superseded" and new.supersedes == copper
    assert new.status == "compliant" and new.correction_reason == "lab transcription error"
    assert not copper.findings.filter(current=True).exists() and copper.findings.exists()
    monthly = Finding.objects.filter(kind="monthly_average")
    assert monthly.count() == 2 and monthly.get(current=True).status == "compliant"
    with pytest.raises(Blocked):
        correct_result(copper, town.u("engineer"), value="0.4", unit="mg/l", reason="again")
    assert AuditEvent.objects.filter(
        action="correct_result", reason="lab transcription error"
    ).exists()


def test_manual_entry_uses_the_same_validation(town: Town, fac: Any) -> None:
    from sewer_office.monitoring.services import enter_results

    row = {
        "sample_id": "M1",
        "sampled_at": "2026-03-09T09:00",
        "sample_type": "grab",
        "parameter": "pH",
        "value": "4.2",
        "unit": "SU",
        "facility": "OTHER-PLANT",
        "sampling_point": "CM-1",
    }
    report = enter_results(town.u("superintendent"), [row])
    assert report.stored and LabResult.objects.get().status == "prohibited"
    bad = enter_results(town.u("superintendent"), [{**row, "sample_id": "M2", "unit": "furlongs"}])
    assert not bad.stored and bad.errors[0][:2] == (2, "unit")


def test_results_attach_to_the_sample_recorded_when_taken(town: Town, fac: Any) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from sewer_office.core.errors import Forbidden, InvalidInput
    from sewer_office.monitoring.sampling import record_sampling_event

    at = datetime(2026, 3, 2, 10, 42, tzinfo=ZoneInfo("America/New_York"))
    with pytest.raises(Forbidden):
        record_sampling_event(
            town.u("clerk"),
            fac.theirs,
            sampling_point=None,
            sample_id="S1",
            sample_type="grab",
            collected_at=at,
        )
    with pytest.raises(InvalidInput) as bad:
        record_sampling_event(
            town.u("inspector"),
            fac.theirs,
            sampling_point=fac.my_point,
            sample_id="S1",
            sample_type="scoop",
            collected_at=at,
            received_at=at.replace(hour=9),
        )
    assert set(bad.value.errors) == {"sampling_point", "sample_type", "received_at"}
    event = record_sampling_event(
        town.u("inspector"),
        fac.theirs,
        sampling_point=fac.their_point,
        sample_id="S1",
        sample_type="grab",
        collected_at=at,
        collected_by="I. Moreau",
    )
    report = import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent"))
    assert report.stored, report.errors
    assert SamplingEvent.objects.count() == 2  # S1 reused, S2 new
    assert set(event.results.values_list("parameter", flat=True)) == {"ph", "temperature"}
    event.refresh_from_db()
    assert event.collected_by == "I. Moreau" and event.lab_import is None


def test_a_file_contradicting_the_recorded_sample_is_refused(town: Town, fac: Any) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from sewer_office.monitoring.sampling import record_sampling_event

    at = datetime(2026, 3, 2, 9, 0, tzinfo=ZoneInfo("America/New_York"))
    record_sampling_event(
        town.u("superintendent"),
        fac.theirs,
        sampling_point=fac.their_point,
        sample_id="S1",
        sample_type="composite",
        collected_at=at,
    )
    report = import_lab_file(GOOD.encode(), "march.csv", town.u("superintendent"))
    assert not report.stored and LabResult.objects.count() == 0
    fields = {(r, f) for r, f, _ in report.errors}
    assert fields == {(2, "sampled_at"), (3, "sampled_at"), (2, "sample_type"), (3, "sample_type")}
    assert any("recorded as collected at 2026-03-02 09:00" in m for _, _, m in report.errors)


def test_approving_a_large_import_writes_every_results_history(town: Town, fac: Any) -> None:
    from sewer_office.monitoring.services import approve_results

    rows = "".join(
        f"B{i},2026-03-{1 + i % 28:02d}T10:00,grab,pH,7.{i % 10},SU,OTHER-PLANT,CM-1,,,,,\n"
        for i in range(1200)
    )
    assert import_lab_file((HEADER + rows).encode(), "big.csv", town.u("superintendent")).stored
    assert approve_results(LabResult.objects.all(), town.u("engineer"), "checked") == 1200
    assert LabResult.objects.filter(state="approved").count() == 1200
    events = AuditEvent.objects.filter(action="approve_result")
    assert events.count() == 1200 and events.filter(reason="checked").count() == 1200
    assert approve_results(LabResult.objects.all(), town.u("engineer")) == 0


def test_a_file_naming_thousands_of_unknown_facilities_is_refused_row_by_row(
    town: Town, fac: Any
) -> None:
    rows = "".join(
        f"U{i},2026-03-02T10:00,grab,pH,7,SU,NOPE-{i},CM-1,,,,,\n" for i in range(40_000)
    )
    report = import_lab_file((HEADER + rows).encode(), "junk.csv", town.u("superintendent"))
    assert not report.stored and len(report.errors) == 40_000
    assert {f for _, f, _ in report.errors} == {"facility"}


def test_a_sample_id_recorded_long_before_is_refused_not_a_server_error(
    town: Town, fac: Any
) -> None:
    """The sample id of a sample recorded months away (outside the window the import looks
    in): the database's unique constraint refuses it, reported — the bulk insertion's driver
    error used to escape as sqlite3/psycopg's own IntegrityError, a server error."""
    boss = town.u("superintendent")
    first = HEADER + "S9,2026-01-05T10:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,,,,,\n"
    assert import_lab_file(first.encode(), "jan.csv", boss, today=date(2026, 9, 1)).stored
    later = HEADER + "S9,2026-08-05T10:00,grab,pH,7.1,SU,OTHER-PLANT,CM-1,,,,,\n"
    report = import_lab_file(later.encode(), "aug.csv", boss, today=date(2026, 9, 1))
    assert not report.stored and "already recorded for its facility" in report.refused
    assert LabImport.objects.count() == 1 and SamplingEvent.objects.count() == 1


def test_a_control_character_in_a_cell_is_a_row_error(town: Town, fac: Any) -> None:
    text = HEADER + "S1,2026-03-02T10:42,grab,pH,7.0,SU,OTHER-PLANT,CM-1,,,I.\x00Moreau,,\n"
    report = import_lab_file(text.encode(), "nul.csv", town.u("superintendent"))
    assert (2, "collected_by", "holds the control character NUL: remove it") in report.errors
    assert not report.stored and not LabResult.objects.exists()


def test_latest_results_of_several_facilities_are_each_ones_latest(town: Town, fac: Any) -> None:
    """``recent_results_of`` (the outside home, two queries) gives each facility exactly what
    ``recent_results`` gives it alone, for staff and for an outside user."""
    mine = HEADER + "".join(
        f"M{d},2026-03-0{d}T08:00,grab,pH,7.{d},SU,OWNER-CAFE,CM-1,,,,,\n" for d in range(1, 8)
    )
    sup = town.u("superintendent")
    assert import_lab_file(GOOD.encode(), "march.csv", sup, today=date(2026, 4, 2)).stored
    assert import_lab_file(mine.encode(), "cafe.csv", sup, today=date(2026, 4, 2)).stored
    ests = [fac.mine, fac.theirs]
    for user in (sup, town.u("owner")):
        together = queries.recent_results_of(ests, user, 3)
        for est in ests:
            alone = queries.recent_results(est, user, 3)
            assert [r.pk for r in together[est.pk]] == [r.pk for r in alone]
    assert [r.value_text for r in queries.recent_results_of(ests, sup, 3)[fac.mine.pk]] == [
        "7.7",
        "7.6",
        "7.5",
    ]
