"""The daily volumes (meters.MeterDay): kept by the readings upload in its transaction, a day
continued by the next upload added to, nothing kept by a refused upload, the clock changes,
``meter_days --check`` finding a changed day and ``--rebuild`` mending it (audited), the
migration's backfill, and the period totals equal to the sums of the minute readings."""

from __future__ import annotations

import importlib
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from sewer_engines.monitoring.daily import DayTotal
from sewer_office.core.models import AuditEvent
from sewer_office.meters import days, services
from sewer_office.meters.models import MeterDay, Reading

from .factories import Town
from .test_meters import csv_file, flow_meter

TZ = "America/New_York"
MINUTE = timedelta(minutes=1)


def minute_rows(start: datetime, values: list[str]) -> list[tuple[str, str]]:
    return [((start + i * MINUTE).isoformat(), v) for i, v in enumerate(values)]


def stored(meter: object) -> dict[date, DayTotal]:
    return {
        d.day: DayTotal(d.count, Decimal(d.total))
        for d in MeterDay.objects.filter(meter=meter).order_by("day")
    }


def test_a_day_continued_by_the_next_upload_is_added_to(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    start = datetime(2026, 3, 2, 5, 0, tzinfo=UTC)  # local midnight
    first = ["10.5"] * 600 + ["190.95000000000002"]  # to 10:00 local
    rest = ["11"] * (1440 - 601) + ["12"] * 30  # the rest of the day and half an hour
    services.upload_readings(
        meter, csv_file(tmp_path / "a.csv", minute_rows(start, first)), town.u("engineer")
    )
    assert stored(meter) == {date(2026, 3, 2): DayTotal(601, Decimal("6490.95000000000002"))}
    second = minute_rows(start + 601 * MINUTE, rest)
    services.upload_readings(meter, csv_file(tmp_path / "b.csv", second), town.u("engineer"))
    assert stored(meter) == {
        date(2026, 3, 2): DayTotal(1440, Decimal("6490.95000000000002") + 839 * 11),
        date(2026, 3, 3): DayTotal(30, Decimal(360)),
    }
    assert days.period_totals([meter.pk], date(2026, 3, 1), date(2026, 3, 31)) == (
        days.readings_totals([meter.pk], date(2026, 3, 1), date(2026, 3, 31), TZ)
    )
    assert days.check(TZ, [meter]) == []


def test_the_clock_changes_make_days_of_23_and_25_hours(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    start = datetime(2026, 3, 7, 5, 0, tzinfo=UTC)  # Saturday 00:00 EST
    n = (24 + 23 + 24) * 60  # Saturday, the 23-hour Sunday, Monday
    services.upload_readings(
        meter, csv_file(tmp_path / "s.csv", minute_rows(start, ["1"] * n)), town.u("engineer")
    )
    assert {d: t.count for d, t in stored(meter).items()} == {
        date(2026, 3, 7): 1440,
        date(2026, 3, 8): 1380,
        date(2026, 3, 9): 1440,
    }
    autumn = datetime(2026, 10, 31, 4, 0, tzinfo=UTC)  # Saturday 00:00 EDT
    n = (24 + 25) * 60
    services.upload_readings(
        meter, csv_file(tmp_path / "f.csv", minute_rows(autumn, ["2"] * n)), town.u("engineer")
    )
    got = stored(meter)
    assert got[date(2026, 10, 31)] == DayTotal(1440, Decimal(2880))
    assert got[date(2026, 11, 1)] == DayTotal(1500, Decimal(3000))
    # a billing period that begins on the short day reads exactly its readings
    assert days.period_totals([meter.pk], date(2026, 3, 8), date(2026, 11, 1)) == (
        days.readings_totals([meter.pk], date(2026, 3, 8), date(2026, 11, 1), TZ)
    )


def test_a_refused_upload_keeps_no_day(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    start = datetime(2026, 3, 2, 5, 0, tzinfo=UTC)
    services.upload_readings(
        meter, csv_file(tmp_path / "a.csv", minute_rows(start, ["5"] * 100)), town.u("engineer")
    )
    before = stored(meter)
    bad = [
        *minute_rows(start + 100 * MINUTE, ["5"] * 50),
        ((start + 151 * MINUTE).isoformat(), "x"),
    ]
    with pytest.raises(services.UploadRefused):
        services.upload_readings(meter, csv_file(tmp_path / "bad.csv", bad), town.u("engineer"))
    overlap = minute_rows(start + 50 * MINUTE, ["5"] * 100)
    with pytest.raises(services.UploadRefused):
        services.upload_readings(meter, csv_file(tmp_path / "o.csv", overlap), town.u("engineer"))
    assert stored(meter) == before == {date(2026, 3, 2): DayTotal(100, Decimal(500))}


def test_check_finds_a_changed_day_and_rebuild_mends_it(
    town: Town, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    meter = flow_meter(town)
    start = datetime(2026, 3, 2, 5, 0, tzinfo=UTC)
    services.upload_readings(
        meter, csv_file(tmp_path / "a.csv", minute_rows(start, ["4"] * 2000)), town.u("engineer")
    )
    call_command("meter_days", "--check")
    assert "OK: every meter's daily volumes match" in capsys.readouterr().out
    MeterDay.objects.filter(meter=meter, day=date(2026, 3, 2)).update(total="1.0")
    MeterDay.objects.filter(meter=meter, day=date(2026, 3, 3)).delete()
    with pytest.raises(CommandError, match="2 day"):
        call_command("meter_days", "--check", "--meter", meter.ident)
    out = capsys.readouterr().out
    assert "2026-03-02: stored 1440 reading(s), sum 1.0; the readings give 1440" in out
    assert "2026-03-03: stored none" in out
    call_command("meter_days", "--rebuild")
    assert "Rebuilt: 2 day(s) mended." in capsys.readouterr().out
    assert stored(meter) == {
        date(2026, 3, 2): DayTotal(1440, Decimal(5760)),
        date(2026, 3, 3): DayTotal(560, Decimal(2240)),
    }
    [event] = AuditEvent.objects.filter(action="rebuild_meter_days", object_id=str(meter.pk))
    assert event.before == {"days_differing": 2, "first": "2026-03-02"}
    call_command("meter_days", "--check")
    with pytest.raises(CommandError, match="no meter"):
        call_command("meter_days", "--check", "--meter", "NOPE")


def test_the_migration_backfills_the_days_of_stored_readings(town: Town, tmp_path: Path) -> None:
    meter = flow_meter(town)
    start = datetime(2026, 3, 7, 5, 0, tzinfo=UTC)
    values = [str(Decimal(i % 97) / 8) for i in range(4000)]
    services.upload_readings(
        meter, csv_file(tmp_path / "a.csv", minute_rows(start, values)), town.u("engineer")
    )
    kept = stored(meter)
    MeterDay.objects.all().delete()
    migration = importlib.import_module("sewer_office.meters.migrations.0003_meter_days")
    migration.backfill(apps, None)
    assert stored(meter) == kept and len(kept) == 3
    assert Reading.objects.filter(meter=meter).count() == sum(t.count for t in kept.values())
