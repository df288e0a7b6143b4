"""Meters in the office: an upload is judged with the readings stored before it, slugs and
excursions become findings with their citations, refusals store nothing, unreported slugs
become findings once, and the CLI's exit codes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from sewer_cli.main import main
from sewer_office.core.models import AuditEvent
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of
from sewer_office.meters import judging, services
from sewer_office.meters.models import Meter, Reading, ReadingUpload, SlugEvent

from .factories import Town
from .monitoring_factories import Facilities, facilities

START = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
STEP = timedelta(minutes=5)


def rows(start: datetime, values: list[str]) -> list[tuple[str, str]]:
    return [((start + i * STEP).isoformat(), v) for i, v in enumerate(values)]


def csv_file(path: Path, data: list[tuple[str, ...]], header: str = "timestamp,value") -> Path:
    path.write_text(header + "\n" + "".join(",".join(r) + "\n" for r in data), encoding="utf-8")
    return path


def day(value: str = "10") -> list[str]:
    return [value] * 288


def with_slug(at: int, length: int = 6, base: str = "10", peak: str = "100") -> list[str]:
    """One day of readings with ``length`` readings of ``peak`` from index ``at``."""
    values = day(base)
    values[at : at + length] = [peak] * length
    return values


def points(town: Town) -> Facilities:
    """The two facilities' sampling points, made once per test town."""
    made: Facilities | None = getattr(town, "_meter_facilities", None)
    if made is None:
        made = facilities(town)
        town._meter_facilities = made  # type: ignore[attr-defined]
    return made


def flow_meter(town: Town, ident: str = "OWN-FLOW-1", mine: bool = True) -> Meter:
    f = points(town)
    point = f.my_point if mine else f.their_point
    return services.register_meter(
        town.u("engineer"), sampling_point=point, ident=ident, parameter="flow", unit="gpd"
    )


def test_upload_finds_a_slug_and_stores_a_finding_with_citation(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    data = rows(START, day()) + rows(START + timedelta(days=1), with_slug(144))
    result = services.upload_readings(meter, csv_file(tmp_path / "r.csv", data), town.u("engineer"))
    assert result.upload.count == 576 and Reading.objects.filter(meter=meter).count() == 576
    assert result.upload.unjudged == 288  # the first day has no 24 h of history
    [slug] = result.slugs
    assert slug.start == START + timedelta(days=1, minutes=144 * 5)
    assert slug.peak == "100" and slug.threshold == "50" and slug.baseline == "10"
    assert slug.duration_minutes == 30 and slug.citation == "§ 196-15 SLUG"
    [finding] = findings_of(slug)
    assert finding.kind == FindingKind.SLUG and finding.status == "review"
    assert "§ 196-15 SLUG" in finding.citation and "§ 196-19 D(9)(d)" in finding.citation
    assert finding.limit == "50" and finding.limit_unit == "gpd"
    assert finding.parameter == "slug.multiple" and finding.effective is not None
    assert finding.parameters_version == result.upload.parameters_version
    assert finding.establishment == meter.sampling_point.establishment
    assert AuditEvent.objects.filter(action="upload_readings", object_id=str(meter.pk)).exists()


def test_exactly_five_times_is_not_a_slug(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    data = rows(START, day()) + rows(START + timedelta(days=1), with_slug(144, peak="50"))
    result = services.upload_readings(meter, csv_file(tmp_path / "r.csv", data), None)
    assert result.slugs == []


def test_history_window_judges_an_upload_with_the_day_stored_before(
    town: Town, tmp_path: Path
) -> None:
    meter = flow_meter(town)
    services.upload_readings(meter, csv_file(tmp_path / "a.csv", rows(START, day())), None)
    second = rows(START + timedelta(days=1), with_slug(2))  # slug 10 minutes into the upload
    result = services.upload_readings(meter, csv_file(tmp_path / "b.csv", second), None)
    assert result.upload.unjudged == 0
    assert [s.start for s in result.slugs] == [START + timedelta(days=1, minutes=10)]
    # the same readings alone, without the stored day, cannot be judged
    alone = flow_meter(town, "OWN-FLOW-2")
    fresh = services.upload_readings(alone, csv_file(tmp_path / "c.csv", second), None)
    assert fresh.slugs == [] and fresh.upload.unjudged == 288


def test_a_slug_continuing_into_the_next_upload_is_superseded_by_the_whole_slug(
    town: Town, tmp_path: Path
) -> None:
    """Four readings of 100 end the first upload (20 minutes: a slug as far as it was seen);
    the next upload continues the discharge for two more readings: the slug now lasts 30
    minutes (six readings at 5-minute steps). The 20-minute record is kept, superseded with a
    reason by the 30-minute one; a discharge that does not continue is not judged again."""
    meter = flow_meter(town)
    first = rows(START, day() + ["100"] * 4)  # 20 minutes above 50 at the end: a slug
    [slug] = services.upload_readings(meter, csv_file(tmp_path / "a.csv", first), None).slugs
    assert slug.start == START + timedelta(days=1) and slug.duration_minutes == 20
    rest = rows(START + timedelta(days=1, minutes=20), ["100", "100", "10", "10"])
    result = services.upload_readings(meter, csv_file(tmp_path / "b.csv", rest), None)
    [whole] = result.slugs
    assert (whole.start, whole.duration_minutes, whole.readings) == (slug.start, 30, 6)
    assert whole.upload == slug.upload  # the upload holding its first reading
    slug.refresh_from_db()
    assert slug.duration_minutes == 20 and slug.superseded_by == whole.found_by
    assert whole.found_by is not None and "continued in the readings of b.csv" in (
        whole.found_by.reason
    )
    assert [s.pk for s in judging.current_slugs(meter)] == [whole.pk]
    more = rows(START + timedelta(days=1, minutes=40), ["10"] * 3)
    assert services.upload_readings(meter, csv_file(tmp_path / "c.csv", more), None).slugs == []
    assert SlugEvent.objects.filter(meter=meter).count() == 2


def test_reupload_and_overlap_are_refused(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    path = csv_file(tmp_path / "a.csv", rows(START, day()))
    services.upload_readings(meter, path, None)
    with pytest.raises(services.UploadRefused, match="already stored"):
        services.upload_readings(meter, path, None)
    overlap = csv_file(tmp_path / "b.csv", rows(START + timedelta(hours=12), day("11")))
    with pytest.raises(services.UploadRefused, match="appended") as e:
        services.upload_readings(meter, overlap, None)
    assert e.value.errors[0].field == "timestamp"
    assert ReadingUpload.objects.filter(meter=meter).count() == 1
    assert Reading.objects.filter(meter=meter).count() == 288


def test_bad_rows_store_nothing_and_name_row_and_field(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    data = rows(START, day())
    data[3] = (data[3][0], "ten")
    data[7] = ("yesterday", "10")
    with pytest.raises(services.UploadRefused) as e:
        services.upload_readings(meter, csv_file(tmp_path / "bad.csv", data), None)
    found = {(err.row, err.field) for err in e.value.errors}
    assert found == {(5, "value"), (9, "timestamp")}  # header is row 1
    other = csv_file(
        tmp_path / "other.csv",
        [(t, v, "SOMEONE-ELSE") for t, v in rows(START, ["1", "2"])],
        header="timestamp,value,meter",
    )
    with pytest.raises(services.UploadRefused) as e2:
        services.upload_readings(meter, other, None)
    assert {(err.row, err.field) for err in e2.value.errors} == {(2, "meter"), (3, "meter")}
    assert not Reading.objects.exists() and not ReadingUpload.objects.exists()


def test_unusable_file(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    bad = tmp_path / "r.txt"
    bad.write_text("x", encoding="utf-8")
    with pytest.raises(services.UploadUnusable):
        services.upload_readings(meter, bad, None)
    nocol = tmp_path / "r.csv"
    nocol.write_text("when,value\n2026-03-02T00:00:00+00:00,1\n", encoding="utf-8")
    with pytest.raises(services.UploadUnusable, match="timestamp"):
        services.upload_readings(meter, nocol, None)


def test_ph_meter_excursion_and_parquet(town: Town, tmp_path: Path) -> None:
    import polars as pl

    f = points(town)
    meter = services.register_meter(
        town.u("superintendent"), sampling_point=f.my_point, ident="OWN-PH-1", parameter="pH"
    )
    assert (meter.parameter, meter.unit) == ("ph", "SU")
    values = ["7.0"] * 12
    values[4:7] = ["5.2", "5.0", "5.4"]
    data = rows(START, values)
    path = tmp_path / "ph.parquet"
    pl.DataFrame({"timestamp": [t for t, _ in data], "value": [v for _, v in data]}).write_parquet(
        path
    )
    result = services.upload_readings(meter, path, None)
    [exc] = result.excursions
    assert exc.citation == "§ 196-19 C(3)" and exc.status == "prohibited" and exc.extreme == "5"
    [finding] = findings_of(exc)
    assert finding.kind == FindingKind.EXCURSION and finding.limit == "5.5"
    assert finding.parameter == "ph.minimum"


def _slug(town: Town, tmp_path: Path) -> SlugEvent:
    meter = flow_meter(town)
    data = rows(START, day()) + rows(START + timedelta(days=1), with_slug(144))
    return services.upload_readings(meter, csv_file(tmp_path / "r.csv", data), None).slugs[0]


def test_unreported_slug_becomes_a_finding_once(town: Town, tmp_path: Path, settings: Any) -> None:
    settings.SEWER_USE_SLUG_REPORT_HOURS = 24
    slug = _slug(town, tmp_path)  # long past, but just uploaded: the office has 24 h to record
    assert list(findings_of(slug).values_list("kind", flat=True)) == [FindingKind.SLUG]
    assert services.flag_unreported_slugs() == 0
    later = timezone.now() + timedelta(hours=25)
    assert services.flag_unreported_slugs(later) == 1
    kinds = list(findings_of(slug).values_list("kind", flat=True))
    assert sorted(kinds) == [FindingKind.SLUG, FindingKind.UNREPORTED_SLUG]
    assert services.flag_unreported_slugs(later + timedelta(days=1)) == 0
    assert findings_of(slug).filter(kind=FindingKind.UNREPORTED_SLUG).count() == 1
    finding = findings_of(slug).get(kind=FindingKind.UNREPORTED_SLUG)
    assert finding.citation == "§ 196-19 D(9)(d)" and finding.status == "review"


def test_report_in_time_means_no_overdue_finding(town: Town, tmp_path: Path, settings: Any) -> None:
    settings.SEWER_USE_SLUG_REPORT_HOURS = 10**6  # nothing overdue yet
    slug = _slug(town, tmp_path)
    owner = town.u("owner")
    report = services.record_slug_report(
        slug, owner, reported_at=slug.start + timedelta(minutes=20), channel="portal", text="valve"
    )
    assert report.reported_by == owner and report.received_by is None
    settings.SEWER_USE_SLUG_REPORT_HOURS = 1
    assert services.flag_unreported_slugs(timezone.now() + timedelta(hours=2)) == 0
    assert not findings_of(slug).filter(kind=FindingKind.UNREPORTED_SLUG).exists()
    assert AuditEvent.objects.filter(action="record_slug_report").count() == 1


def test_late_report_is_overdue_and_report_checks(
    town: Town, tmp_path: Path, settings: Any
) -> None:
    settings.SEWER_USE_SLUG_REPORT_HOURS = 10**6
    slug = _slug(town, tmp_path)
    clerk, engineer = town.u("clerk"), town.u("engineer")
    with pytest.raises(services.Forbidden):
        services.record_slug_report(slug, clerk, reported_at=timezone.now(), channel="phone")
    with pytest.raises(services.Forbidden):
        services.record_slug_report(
            slug, town.u("other"), reported_at=timezone.now(), channel="phone"
        )
    with pytest.raises(services.InvalidInput) as e:
        services.record_slug_report(
            slug, engineer, reported_at=slug.start - timedelta(hours=1), channel="fax"
        )
    assert set(e.value.errors) == {"channel", "reported_at"}
    late = services.record_slug_report(
        slug, engineer, reported_at=slug.start + timedelta(hours=3), channel="phone"
    )
    assert late.received_by == engineer
    settings.SEWER_USE_SLUG_REPORT_HOURS = 2
    assert services.flag_unreported_slugs(timezone.now() + timedelta(hours=3)) == 1
    assert Finding.objects.filter(kind=FindingKind.UNREPORTED_SLUG).count() == 1


def test_register_meter_checks(town: Town) -> None:
    f = points(town)
    with pytest.raises(services.Forbidden):
        services.register_meter(
            town.u("clerk"), sampling_point=f.my_point, ident="X", parameter="flow"
        )
    with pytest.raises(services.InvalidInput) as e:
        services.register_meter(
            town.u("engineer"), sampling_point=f.my_point, ident="X", parameter="pH", unit="gpd"
        )
    assert "unit" in e.value.errors
    with pytest.raises(services.InvalidInput) as e2:
        services.register_meter(
            town.u("engineer"), sampling_point=f.my_point, ident="X", parameter="unobtainium"
        )
    assert "parameter" in e2.value.errors


def test_cli_exit_codes(town: Town, tmp_path: Path, capsys: Any) -> None:
    meter = flow_meter(town)
    good = csv_file(tmp_path / "good.csv", rows(START, day()))
    assert main(["import-readings", "NO-SUCH-METER", str(good)]) == 2
    assert main(["import-readings", meter.ident, str(tmp_path / "missing.csv")]) == 2
    assert main(["import-readings", meter.ident, str(good), "--as", "nobody"]) == 2
    assert main(["import-readings", meter.ident, str(good), "--as", "engineer"]) == 0
    assert "Stored 288 readings" in capsys.readouterr().out
    assert main(["import-readings", meter.ident, str(good)]) == 1  # the same file again
    bad = rows(START + timedelta(days=1), day())
    bad[0] = (bad[0][0], "oops")
    assert main(["import-readings", meter.ident, str(csv_file(tmp_path / "bad.csv", bad))]) == 1
    out = capsys.readouterr().out
    assert "row 2, value" in out and "nothing stored" in out
    junk = tmp_path / "junk.csv"
    junk.write_text("a,b\n1,2\n", encoding="utf-8")
    assert main(["import-readings", meter.ident, str(junk)]) == 2
    assert main(["import-readings", meter.ident, str(good), "--as", "clerk"]) == 1  # forbidden
    parquet = tmp_path / "next.parquet"
    import polars as pl

    nxt = rows(START + timedelta(days=1), with_slug(100))
    pl.DataFrame({"timestamp": [t for t, _ in nxt], "value": [v for _, v in nxt]}).write_parquet(
        parquet
    )
    assert main(["import-readings", meter.ident, str(parquet), "--as", "owner"]) == 0
    assert "1 slug(s)" in capsys.readouterr().out


def test_demo_meters(town: Town) -> None:
    import random
    from types import SimpleNamespace

    from sewer_office.demo.build import Town as DemoTown
    from sewer_office.demo.meters import load_demo_meters
    from sewer_office.meters.models import Excursion

    est = town.owner_restaurant
    est.code = "ACME-PLATING"
    est.save(update_fields=["code"])
    anchor = timezone.localdate()
    demo = DemoTown(anchor=anchor, rng=random.Random(4))
    demo.users = {"engineer": town.u("engineer"), "acme": town.u("owner")}
    load_demo_meters(SimpleNamespace(**{**demo.__dict__, "moment": demo.moment}))
    flow = Meter.objects.get(ident="ACME-FLOW-1")
    assert flow.sampling_point.establishment == est and flow.uploads.count() == 2
    first, second, long = flow.slugs.order_by("start")
    assert first.reports.get().reported_by == town.u("owner")
    assert not second.reports.exists()
    # the three-hour discharge is one slug: its readings are not normal operation
    assert long.duration_minutes == 180 and not long.reports.exists()
    assert Excursion.objects.get(meter__ident="ACME-PH-1").citation == "§ 196-19 C(3)"
    assert services.flag_unreported_slugs(timezone.now() + timedelta(days=2)) == 2
    assert findings_of(second).filter(kind=FindingKind.UNREPORTED_SLUG).exists()
    assert not findings_of(first).filter(kind=FindingKind.UNREPORTED_SLUG).exists()
    # judged again as the law is now read, the demo's meters change nothing
    from sewer_office.meters.reevaluation import reevaluate_slugs

    for meter in Meter.objects.all():
        assert not reevaluate_slugs(meter, None, dry_run=True).changed, meter.ident


def test_flag_overdue_command_records_unreported_slugs_once(
    town: Town, tmp_path: Path, capsys: Any
) -> None:
    """``sewer-use flag-overdue`` (daily cron) runs the slug and pump-out clocks."""
    slug = _slug(town, tmp_path)
    later = (timezone.localdate() + timedelta(days=3)).isoformat()
    assert main(["flag-overdue", "--date", later]) == 0
    out = capsys.readouterr().out
    assert "1 unreported slug finding(s) recorded" in out
    assert "overdue pump-out finding(s) recorded" in out
    assert main(["flag-overdue", "--date", later]) == 0
    assert "0 unreported slug finding(s) recorded" in capsys.readouterr().out
    assert findings_of(slug).filter(kind=FindingKind.UNREPORTED_SLUG).count() == 1
