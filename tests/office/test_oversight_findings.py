"""The program's own oversight: each SIU inspected and sampled by the Town once in every program
year (40 CFR 403.8(f)(2)(v)) — the Town's duty, never a violation by the user — and the repeat
sample a user owes after its own sampling shows a violation (40 CFR 403.12(g)(2))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from sewer_cli.main import main
from sewer_office.core.errors import OfficeError
from sewer_office.enforcement import services as enforcement
from sewer_office.enforcement.grounds import finding_refusal, refusal
from sewer_office.findings.models import Finding
from sewer_office.findings.phrases import written
from sewer_office.findings.words import describe
from sewer_office.inspections.models import Inspection
from sewer_office.monitoring.lab_import import import_lab_file
from sewer_office.monitoring.models import DischargeLimit, LabResult, SamplingEvent
from sewer_office.pretreatment import services
from sewer_office.pretreatment.oversight import (
    ProgramYear,
    flag_siu_oversight,
    program_year,
    year_status,
    years_ended,
)
from sewer_office.pretreatment.repeat_samples import (
    flag_missing_repeat_samples,
    town_sampled_monthly,
)
from sewer_office.registry.models import Establishment

from .factories import Town
from .monitoring_factories import Facilities, facilities


def at(day: date, hour: int = 10) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour)))


def make_siu(town: Town, est: Establishment, on: date) -> None:
    services.designate(
        town.u("superintendent"),
        est,
        basis="designated",
        reason="Plating line: a reasonable potential for violating its standards.",
        on=on,
        at=at(on),
    )


def inspect(town: Town, est: Establishment, day: date, kind: str = "industrial_user") -> None:
    Inspection.objects.create(
        kind=kind,
        establishment=est,
        inspector=town.u("inspector"),
        state="completed",
        credentials_presented=True,
        completed_at=at(day),
    )


def sample(est: Establishment, when: datetime, sampler: str, sid: str) -> SamplingEvent:
    return SamplingEvent.objects.create(
        establishment=est,
        sampling_point=est.sampling_points.first(),
        sample_id=sid,
        sample_type="grab",
        collected_at=when,
        sampler=sampler,
    )


@pytest.fixture
def fac(town: Town) -> Facilities:
    return facilities(town)


# --- 40 CFR 403.8(f)(2)(v): inspected and sampled each program year ----------------------------


def test_siu_not_inspected_nor_sampled_is_the_towns_finding_once(
    town: Town, fac: Facilities
) -> None:
    make_siu(town, fac.theirs, date(2025, 2, 1))
    assert flag_siu_oversight(date(2025, 12, 31)) == (0, 0)  # the year has not ended
    assert flag_siu_oversight(date(2026, 1, 1)) == (1, 1)
    assert flag_siu_oversight(date(2026, 1, 1)) == (0, 0)  # each once
    assert flag_siu_oversight(date(2026, 6, 1)) == (0, 0)
    found = {f.kind: f for f in Finding.objects.filter(establishment=fac.theirs)}
    assert set(found) == {"siu_not_inspected", "siu_not_sampled"}
    for f in found.values():
        assert (f.status, f.citation, f.review) == ("review", "40 CFR 403.8(f)(2)(v)", "new")
        assert f.observed_at == at(date(2026, 1, 1), 0)
        assert "program year 2025" in f.message and "not a violation by the user" in f.message
        assert f.parameter == "pretreatment.program_year_start_month"
        assert describe(f).startswith(
            "Otto Plating, a significant industrial user in the program year that ended "
            "December 31, 2025, was not "
        )
        # the Town's duty: never a violation of the user, by the page or the service
        assert finding_refusal(f) is not None
        with pytest.raises(OfficeError):
            enforcement.open_from_finding(town.u("superintendent"), f)
    assert not Finding.objects.filter(establishment=fac.mine).exists()  # never an SIU


def test_a_sample_the_user_took_is_not_the_towns(town: Town, fac: Facilities) -> None:
    make_siu(town, fac.theirs, date(2025, 2, 1))
    inspect(town, fac.theirs, date(2025, 5, 2))
    inspect(town, fac.mine, date(2025, 5, 2))
    sample(fac.theirs, at(date(2025, 6, 3)), "industrial_user", "U1")
    sample(fac.theirs, at(date(2025, 7, 3)), "unknown", "U2")
    assert flag_siu_oversight(date(2026, 1, 1)) == (0, 1)
    assert Finding.objects.get(establishment=fac.theirs).kind == "siu_not_sampled"


def test_inspected_and_sampled_by_the_town_is_no_finding(town: Town, fac: Facilities) -> None:
    make_siu(town, fac.theirs, date(2025, 2, 1))
    inspect(town, fac.theirs, date(2025, 12, 31))
    sample(fac.theirs, at(date(2025, 1, 15)), "control_authority", "T1")  # before it was an SIU
    assert flag_siu_oversight(date(2026, 1, 1)) == (0, 0)
    # a food-service visit is no industrial-user inspection; 2026's Town sample is not 2025's
    make_siu(town, fac.mine, date(2025, 3, 1))
    inspect(town, fac.mine, date(2025, 4, 1), kind="food_service")
    sample(fac.mine, at(date(2026, 1, 2)), "control_authority", "T2")
    assert flag_siu_oversight(date(2026, 1, 3)) == (1, 1)


def test_only_the_years_the_user_was_an_siu(town: Town, fac: Facilities) -> None:
    make_siu(town, fac.theirs, date(2024, 11, 20))
    services.designate(
        town.u("superintendent"),
        fac.theirs,
        basis="de_designated",
        reason="No reasonable potential for adverse effect.",
        on=date(2024, 12, 20),
        at=at(date(2024, 12, 20)),
    )
    assert flag_siu_oversight(date(2026, 2, 1)) == (1, 1)  # 2024 only, not 2025
    f = Finding.objects.filter(kind="siu_not_inspected").get()
    assert "program year 2024 (2024-11-20 to 2024-12-19)" in f.message


@dataclass
class Months:
    """A parameter set whose program year starts on a month that changes on a day."""

    before: int
    after: int
    change: date
    version: str = "test"

    def value(self, name: str, on: date) -> Decimal:
        return Decimal(self.before if on < self.change else self.after)


def test_program_years_and_a_change_of_their_start() -> None:
    july = Months(7, 7, date(2000, 1, 1))
    assert program_year(date(2026, 6, 30), july) == ProgramYear(date(2025, 7, 1), date(2026, 7, 1))  # type: ignore[arg-type]
    assert program_year(date(2026, 7, 1), july).label == "2026-07-01 to 2027-06-30"  # type: ignore[arg-type]
    change = Months(1, 7, date(2026, 1, 1))
    years = years_ended(date(2025, 3, 1), date(2027, 7, 1), change)  # type: ignore[arg-type]
    # 2025, then a short year to the first July start, then a whole July year
    assert [(y.start, y.end) for y in years] == [
        (date(2025, 1, 1), date(2026, 1, 1)),
        (date(2026, 1, 1), date(2026, 7, 1)),
        (date(2026, 7, 1), date(2027, 7, 1)),
    ]
    assert years[0].label == "2025"


def test_program_year_status_on_the_pretreatment_page(
    town: Town, fac: Facilities, login: Any
) -> None:
    today = timezone.localdate()
    make_siu(town, fac.theirs, today - timedelta(days=1))
    make_siu(town, fac.mine, today - timedelta(days=1))
    inspect(town, fac.theirs, today)
    sample(fac.mine, at(today, 0), "control_authority", "T1")
    year, rows = year_status(today)
    assert year == program_year(today)
    assert [(r.establishment, r.inspected_on, r.sampled_on) for r in rows] == sorted(
        [(fac.theirs, today, None), (fac.mine, None, today)], key=lambda r: r[0].name
    )
    page = login("engineer").get("/pretreatment/").content.decode()
    assert "inspected and sampled by the Town" in page and page.count('class="siu-year"') == 2
    assert (
        "inspected and sampled by the Town"
        not in login("owner").get("/pretreatment/").content.decode()
    )


# --- 40 CFR 403.12(g)(2): the user's repeat sample ----------------------------------------------

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point,sampler\n"


def copper_limits(est: Establishment) -> None:
    for kind, value in (("daily_maximum", "1.0"), ("monthly_average", "0.6")):
        DischargeLimit.objects.create(
            establishment=est,
            parameter="copper",
            limit_type=kind,
            value=value,
            unit="mg/l",
            effective_from=date(2020, 1, 1),
        )


def copper(
    town: Town, rows: list[tuple[str, datetime, str, str]], name: str, on: date | None = None
) -> Any:
    """Import copper results of OTHER-PLANT: (sample id, time, value, sampler) per row; they
    reach the Town ``on`` that day (default now)."""
    text = HEADER + "".join(
        f"{sid},{when:%Y-%m-%dT%H:%M},grab,Copper,{value},mg/l,OTHER-PLANT,CM-1,{who}\n"
        for sid, when, value, who in rows
    )
    report = import_lab_file(
        text.encode(), name, town.u("superintendent"), at=at(on, 11) if on else None
    )
    assert report.stored, report.errors
    return report


@pytest.fixture
def over(town: Town, fac: Facilities) -> date:
    """A user-taken copper sample over the daily maximum whose result reached the Town 40 days
    ago (the day of awareness), three days after it was taken. Returns that day."""
    copper_limits(fac.theirs)
    aware = timezone.localdate() - timedelta(days=40)
    copper(town, [("U1", at(aware - timedelta(days=3), 9), "1.4", "user")], "u1.csv", aware)
    return aware


def test_no_repeat_sample_within_30_days_is_a_violation_once(
    town: Town, fac: Facilities, over: date
) -> None:
    assert flag_missing_repeat_samples(over + timedelta(days=30)) == 0  # day 30 is on time
    assert flag_missing_repeat_samples(over + timedelta(days=31)) == 1
    assert flag_missing_repeat_samples(over + timedelta(days=32)) == 0
    f = Finding.objects.get(kind="no_repeat_sample")
    original = LabResult.objects.get(event__sample_id="U1")
    assert f.source == original and f.establishment == fac.theirs
    assert (f.status, f.citation, f.analyte) == ("review", "40 CFR 403.12(g)(2)", "copper")
    assert "Sample U1" in f.message and "copper 1.4 mg/l" in f.message
    assert f"reached the Town on {over:%Y-%m-%d}" in f.message
    assert f"by {over + timedelta(days=30):%Y-%m-%d}" in f.message
    assert f.observed_at == at(over + timedelta(days=31), 0)
    # a violation of the user, under a provision that binds it: one may be opened from it
    assert refusal(f.citation, f) is None
    v = enforcement.open_from_finding(town.u("superintendent"), f)
    assert (v.section, v.kind, v.finding) == ("40 CFR 403.12(g)(2)", "late_report", f)
    # the nature as a notice states it, in plain words
    assert v.description == (
        f"your own sample U1 of {written(over - timedelta(days=3))} (copper 1.4 mg/l) showed a "
        f"violation, and no repeat sample of copper with its results reached the Town by "
        f"{written(over + timedelta(days=30))}, 30 days after you became aware of it on "
        f"{written(over)}"
    )


def test_repeat_received_within_30_days_is_no_finding(
    town: Town, fac: Facilities, over: date
) -> None:
    repeat = ("U2", at(over + timedelta(days=2), 9), "0.4", "user")
    copper(town, [repeat], "u2.csv", over + timedelta(days=30))
    assert flag_missing_repeat_samples(over + timedelta(days=31)) == 0


def test_repeat_received_late_or_taken_by_the_town_is_no_repeat(
    town: Town, fac: Facilities, over: date
) -> None:
    # the Town's sample after the user became aware excuses nothing and is no repeat
    sample(fac.theirs, at(over + timedelta(days=5)), "control_authority", "T9")
    # the user's repeat reached the Town on day 31
    repeat = ("U3", at(over + timedelta(days=20), 9), "0.3", "user")
    copper(town, [repeat], "u3.csv", over + timedelta(days=31))
    assert flag_missing_repeat_samples(over + timedelta(days=31)) == 1


def test_town_sampled_in_between_needs_no_repeat(town: Town, fac: Facilities, over: date) -> None:
    sample(fac.theirs, at(over - timedelta(days=1), 8), "control_authority", "T1")
    assert flag_missing_repeat_samples(over + timedelta(days=31)) == 0


def test_town_sampling_monthly_needs_no_repeat(town: Town, fac: Facilities, over: date) -> None:
    taken = (over - timedelta(days=3)).replace(day=1)
    months = [taken]
    for _ in range(2):
        months.append((months[-1] - timedelta(days=1)).replace(day=1))
    for k, first in enumerate(months[1:]):
        sample(fac.theirs, at(first, 8), "control_authority", f"T{k}")
    original = at(over - timedelta(days=3), 9)
    assert not town_sampled_monthly(fac.theirs.pk, original)  # two months of three
    sample(fac.theirs, at(months[0], 7), "control_authority", "T9")  # before the user's sample
    assert town_sampled_monthly(fac.theirs.pk, original)
    assert flag_missing_repeat_samples(over + timedelta(days=31)) == 0


def test_the_towns_own_exceedance_needs_no_repeat(town: Town, fac: Facilities) -> None:
    copper_limits(fac.theirs)
    today = timezone.localdate()
    copper(town, [("T1", at(today - timedelta(days=3), 9), "1.4", "town")], "t1.csv")
    copper(town, [("X1", at(today - timedelta(days=2), 9), "1.4", "")], "x1.csv")  # unknown
    assert flag_missing_repeat_samples(today + timedelta(days=31)) == 0


def test_a_months_average_of_the_users_samples_needs_a_repeat(town: Town, fac: Facilities) -> None:
    copper_limits(fac.theirs)
    today = timezone.localdate()
    month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)  # last month
    copper(
        town,
        [
            ("M1", at(month, 9), "0.8", "user"),
            ("M2", at(month + timedelta(days=7), 9), "0.9", "user"),
        ],
        "month.csv",
    )
    average = Finding.objects.get(kind="monthly_average", current=True)
    assert average.status == "prohibited"  # 0.85 over the monthly average of 0.6
    assert flag_missing_repeat_samples(today + timedelta(days=31)) == 1
    f = Finding.objects.get(kind="no_repeat_sample")
    assert f.source == average and f"{month:%B %Y}" in f.message
    assert flag_missing_repeat_samples(today + timedelta(days=32)) == 0


def test_flag_overdue_prints_the_oversight_lines(town: Town, fac: Facilities, capsys: Any) -> None:
    make_siu(town, fac.theirs, date(2025, 2, 1))
    assert main(["flag-overdue", "--date", "2026-01-02"]) == 0
    out = capsys.readouterr().out
    assert "1 SIU-not-inspected and 1 SIU-not-sampled finding(s) recorded" in out
    assert "0 missing repeat-sample finding(s) recorded (40 CFR 403.12(g)(2))" in out
    assert main(["flag-overdue", "--date", "2026-01-03"]) == 0
    assert "0 SIU-not-inspected and 0 SIU-not-sampled" in capsys.readouterr().out


# --- who took a sample: the laboratory file's ``sampler`` column ---------------------------------


def _file(rows: list[str]) -> bytes:
    return (HEADER + "".join(r + "\n" for r in rows)).encode()


def test_lab_file_sampler_column_and_the_forms_default(town: Town, fac: Facilities) -> None:
    rows = [
        f"S{k},2026-03-0{k}T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,{who}"
        for k, who in enumerate(("town", " USER ", "", "unknown", "industrial_user"), start=1)
    ]
    report = import_lab_file(
        _file(rows), "who.csv", town.u("superintendent"), sampler="control_authority"
    )
    assert report.stored, report.errors
    got = dict(SamplingEvent.objects.values_list("sample_id", "sampler"))
    assert got == {
        "S1": "control_authority",
        "S2": "industrial_user",
        "S3": "control_authority",  # empty: the import's default
        "S4": "unknown",
        "S5": "industrial_user",
    }
    # no column: the default, else not recorded
    plain = "sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point\n"
    import_lab_file(
        (plain + "S9,2026-03-09T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1\n").encode(),
        "plain.csv",
        town.u("superintendent"),
    )
    assert SamplingEvent.objects.get(sample_id="S9").sampler == "unknown"


def test_a_bad_sampler_is_refused_naming_the_row_and_field(town: Town, fac: Facilities) -> None:
    rows = [
        "S1,2026-03-02T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,contractor",
        "S2,2026-03-03T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,town",
        "S2,2026-03-03T09:00,grab,Temperature,60,°F,OTHER-PLANT,CM-1,user",
    ]
    report = import_lab_file(_file(rows), "bad.csv", town.u("superintendent"))
    assert not report.stored and not SamplingEvent.objects.exists()
    assert report.source_name == "bad.csv"
    by_row = {(r, f): m for r, f, m in report.errors}
    assert set(by_row) == {(2, "sampler"), (4, "sampler")}
    assert "'contractor' is not a sampler" in by_row[(2, "sampler")]
    assert "differs from the same sample's on row 3" in by_row[(4, "sampler")]


def test_a_facilitys_own_upload_is_the_users_sampling(town: Town, fac: Facilities) -> None:
    from sewer_office.monitoring.choices import ImportSource

    owner = town.u("owner")
    row = "O1,2026-03-02T09:00,grab,pH,7.0,SU,OWNER-CAFE,CM-1,{}"
    refused = import_lab_file(
        _file([row.format("town")]), "mine.csv", owner, source=ImportSource.SELF_MONITORING
    )
    assert [(r, f) for r, f, _ in refused.errors] == [(2, "sampler")]
    report = import_lab_file(
        _file([row.format("")]),
        "mine2.csv",
        owner,
        source=ImportSource.SELF_MONITORING,
        sampler="control_authority",  # a default cannot make it the Town's
    )
    assert report.stored, report.errors
    assert SamplingEvent.objects.get(sample_id="O1").sampler == "industrial_user"


def test_a_recorded_sample_keeps_who_took_it(town: Town, fac: Facilities) -> None:
    from sewer_office.monitoring.sampling import record_sampling_event

    when = at(date(2026, 3, 2), 9)
    event = record_sampling_event(
        town.u("inspector"), fac.theirs, sampling_point=fac.their_point, sample_id="S1",
        sample_type="grab", collected_at=when,
    )  # fmt: skip
    assert event.sampler == "control_authority"  # the office's sampler took it
    own = record_sampling_event(
        town.u("owner"), fac.mine, sampling_point=fac.my_point, sample_id="O1",
        sample_type="grab", collected_at=when,
    )  # fmt: skip
    assert own.sampler == "industrial_user"
    row = "S1,2026-03-02T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,{}"
    refused = import_lab_file(_file([row.format("user")]), "a.csv", town.u("superintendent"))
    assert [(r, f) for r, f, _ in refused.errors] == [(2, "sampler")]
    assert "recorded as taken by the town" in refused.errors[0][2]
    report = import_lab_file(_file([row.format("")]), "b.csv", town.u("superintendent"))
    assert report.stored, report.errors


def test_the_import_page_asks_who_took_the_samples(town: Town, fac: Facilities, login: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    c = login("engineer")
    assert "Who took these samples" in c.get("/monitoring/import/").content.decode()
    upload = SimpleUploadedFile(
        "p.csv", _file(["P1,2026-03-02T09:00,grab,pH,7.0,SU,OTHER-PLANT,CM-1,"]), "text/csv"
    )
    r = c.post("/monitoring/import/", {"file": upload, "sampler": "control_authority"})
    assert r.status_code == 302
    assert SamplingEvent.objects.get(sample_id="P1").sampler == "control_authority"
    assert (
        "Who took these samples" not in login("owner").get("/monitoring/import/").content.decode()
    )


def test_a_laboratory_mapping_may_give_the_sampler(town: Town, fac: Facilities) -> None:
    from sewer_io import lab_mapping as layouts

    mapping = layouts.LabMapping.from_dict(
        {
            "name": "town-lab",
            "columns": {
                "sample_id": "Sample",
                "sampled_at": "Collected",
                "sample_type": "Type",
                "parameter": "Analyte",
                "value": "Result",
                "unit": "Units",
                "facility": "Site",
            },
            "date_format": "iso",
            "constants": {"sampler": "town"},
        }
    )
    text = "Sample,Collected,Type,Analyte,Result,Units,Site\nL1,2026-03-02T09:00,grab,pH,7.1,SU,OTHER-PLANT\n"
    report = import_lab_file(text.encode(), "lab.csv", town.u("superintendent"), mapping=mapping)
    assert report.stored, report.errors
    assert SamplingEvent.objects.get(sample_id="L1").sampler == "control_authority"
