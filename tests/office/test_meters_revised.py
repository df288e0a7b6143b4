"""Slugs as now read, in the office: meter uploads, ``sewer-use reevaluate-slugs`` and
``sewer-use slugs`` judge the same readings with the same engine and agree (a 30-hour
discharge spread over two uploads; a 15-minute logger; a baseline recorded for a meter), and
re-evaluation supersedes old slug records with a reason, never deleting them.

Readings every 5 minutes from 2026-03-02 00:00 UTC unless a test says otherwise; expected
values are derived by hand in each docstring.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse

from sewer_cli.main import main
from sewer_engines.monitoring import series as series_rules
from sewer_office.accounts.towns import primary
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.models import AuditEvent
from sewer_office.meters import judging, reevaluation, services
from sewer_office.meters.baselines import record_meter_baseline
from sewer_office.meters.models import Meter, SlugEvent, SlugReevaluation

from .factories import Town
from .test_meters import START, csv_file, flow_meter, rows

pytestmark = pytest.mark.django_db


def _cli(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    # the one town's jurisdiction, as its meters' uploads are judged
    jurisdiction = services.params(primary()).jurisdiction
    main(["slugs", str(path), "--format", "json", "--jurisdiction", jurisdiction, *args])
    doc: dict = json.loads(capsys.readouterr().out)  # type: ignore[type-arg]
    return doc


def _stored(meter: Meter) -> list[tuple[str, str, int, str, str, str | None]]:
    return [
        (
            e.start.isoformat(),
            e.end.isoformat(),
            e.readings,
            e.baseline,
            e.threshold,
            e.baseline_carried_from.isoformat() if e.baseline_carried_from else None,
        )
        for e in judging.current_slugs(meter).order_by("start")
    ]


def _found(doc: dict) -> list[tuple[str, str, int, str, str, str | None]]:  # type: ignore[type-arg]
    from datetime import datetime

    def utc(text: str) -> str:
        return datetime.fromisoformat(text).astimezone(START.tzinfo).isoformat()

    return [
        (
            utc(s["start"]),
            utc(s["end"]),
            s["readings"],
            s["baseline"],
            s["threshold"],
            utc(s["baseline_carried_from"]) if s["baseline_carried_from"] else None,
        )
        for s in doc["series"][0]["slugs"]
    ]


def test_a_30_hour_discharge_over_two_uploads_is_the_slug_the_command_finds(
    town: Town, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two days of 10, then 100 for 30 hours (360 readings) from 2026-03-04 00:00, then six
    hours of 10. The first upload ends ten hours into the discharge (a slug of 10 hours as far
    as it goes); the second brings the rest. The office then holds one current slug of 30
    hours — 00:00 on the 4th to 06:00 on the 5th, 360 readings, baseline 10, threshold 50,
    its second day judged on the baseline carried from the day ending 23:55 on the 3rd — the
    10-hour record superseded with its reason; ``sewer-use slugs`` on the same readings finds
    the same slug and says the first day (288 readings) was not judged; a re-evaluation
    changes nothing."""
    meter = flow_meter(town)
    data = rows(START, ["10"] * 576 + ["100"] * 360 + ["10"] * 72)
    cut = 576 + 120
    services.upload_readings(meter, csv_file(tmp_path / "a.csv", data[:cut]), None)
    [partial] = judging.current_slugs(meter)
    assert partial.duration_minutes == 600
    result = services.upload_readings(meter, csv_file(tmp_path / "b.csv", data[cut:]), None)
    assert _stored(meter) == [
        (
            "2026-03-04T00:00:00+00:00",
            "2026-03-05T06:00:00+00:00",
            360,
            "10",
            "50",
            "2026-03-03T23:55:00+00:00",
        )
    ]
    assert [s.pk for s in result.slugs] == [judging.current_slugs(meter).get().pk]
    partial.refresh_from_db()
    assert partial.superseded_by is not None and partial.duration_minutes == 600
    assert SlugEvent.objects.filter(meter=meter).count() == 2  # nothing deleted

    doc = _cli(capsys, csv_file(tmp_path / "all.csv", data))
    assert _found(doc) == _stored(meter)
    (s,) = doc["series"]
    assert (s["not_judged"]["count"], s["not_judged"]["no_history"]) == (288, 288)
    # carried: the 72 discharge readings of its second day after 24 hours (1440 to 1795
    # minutes in) and the first reading of 10 after it
    assert s["baseline_carried_readings"] == 73
    again = reevaluation.reevaluate_slugs(meter, None)
    assert not again.changed and len(again.kept) == 1


def test_a_15_minute_logger_in_the_office(
    town: Town, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A meter logging every 15 minutes: two days of 10, two readings of 100, then 10. The
    maximum gap is 3 x 15 = 45 minutes: the upload stores one 30-minute slug, as the command
    finds. Judged with the old fixed 5-minute gap (forced here) the upload stored none; the
    re-evaluation then finds it, with its record and reason."""
    meter = flow_meter(town)
    step = timedelta(minutes=15)
    values = ["10"] * 192 + ["100", "100"] + ["10"] * 20
    data = [((START + i * step).isoformat(), v) for i, v in enumerate(values)]
    path = csv_file(tmp_path / "q.csv", data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            series_rules, "max_gap_of", lambda interval, params, on, minimum_us=None: 300_000_000
        )
        assert services.upload_readings(meter, path, None).slugs == []
    done = reevaluation.reevaluate_slugs(meter, town.u("engineer"), reason="gap by logging")
    assert done.record is not None and done.record.reason == "gap by logging"
    [slug] = judging.current_slugs(meter)
    assert slug.duration_minutes == 30 and slug.readings == 2 and slug.found_by == done.record
    assert _found(_cli(capsys, path)) == _stored(meter)
    # a second meter given the same readings stores the slug at upload
    other = flow_meter(town, "OWN-FLOW-15")
    [stored] = services.upload_readings(other, path, None).slugs
    assert stored.duration_minutes == 30


def test_a_recorded_baseline_judges_the_first_day_and_agrees_with_the_command(
    town: Town, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline of 10 recorded from the approval for the meter from 2026-03-02 00:00: the
    first day's readings are judged against 50 — 30 minutes of 100 at 02:00 (six readings)
    are a slug, nothing is left unjudged. ``sewer-use slugs --baseline 10 --baseline-from``
    the same instant finds the same slug. Recording it is for the Superintendent or the
    engineer, audited; a bad value or a missing authority is refused by field."""
    meter = flow_meter(town)
    with pytest.raises(Forbidden):
        record_meter_baseline(
            meter, town.u("clerk"), value="10", effective_from=START, authority="IDA-1 cond. 4"
        )
    with pytest.raises(InvalidInput) as refused:
        record_meter_baseline(
            meter, town.u("engineer"), value="-3", effective_from=START, authority=""
        )
    assert set(refused.value.errors) == {"value", "authority"}
    record = record_meter_baseline(
        meter, town.u("engineer"), value="10", effective_from=START, authority="IDA-1 cond. 4"
    )
    assert AuditEvent.objects.filter(action="record_meter_baseline").count() == 1
    assert str(record.value) == "10"
    values = ["10"] * 24 + ["100"] * 6 + ["10"] * 258  # one day
    path = csv_file(tmp_path / "d.csv", rows(START, values))
    result = services.upload_readings(meter, path, None)
    assert result.upload.unjudged == 0
    [slug] = result.slugs
    assert (slug.start, slug.duration_minutes) == (START + timedelta(hours=2), 30)
    assert (slug.baseline, slug.threshold) == ("10", "50")
    doc = _cli(capsys, path, "--baseline", "10", "--baseline-from", START.isoformat())
    assert _found(doc) == _stored(meter)
    assert doc["series"][0]["unjudged"] == 0


def test_reevaluation_supersedes_with_a_reason_and_never_deletes(
    town: Town, tmp_path: Path
) -> None:
    """A 48-hour discharge judged the old way (no carried baseline: after a day the window
    holds none of the old level and the readings were not judged) was stored as a 24-hour
    slug. The re-evaluation finds one 48-hour slug: the old record stays, superseded by the
    re-evaluation that states its reason, its findings no longer current, with an audit event
    each; the API shows the carried baseline of the new slug."""
    meter = flow_meter(town)
    data = rows(START, ["10"] * 288 + ["100"] * 576 + ["10"] * 24)
    path = csv_file(tmp_path / "l.csv", data)
    with pytest.MonkeyPatch.context() as mp:
        # the old reading: the compiled loop unused, the passes never carrying
        mp.setenv("SEWER_USE_NATIVE", "0")
        from sewer_engines.monitoring import normal

        mp.setattr(normal, "_first_carried", lambda t, hit, per, start: None)
        [old] = services.upload_readings(meter, path, None).slugs
    assert old.duration_minutes == 24 * 60
    done = reevaluation.reevaluate_slugs(meter, None, reason="baseline carried past a day")
    record = done.record
    assert record is not None and [e.pk for e in done.superseded] == [old.pk]
    old.refresh_from_db()
    assert old.superseded_by == record and old.duration_minutes == 24 * 60
    [new] = judging.current_slugs(meter)
    assert new.duration_minutes == 48 * 60 and new.found_by == record
    assert new.baseline_carried_from == START + timedelta(hours=23, minutes=55)
    assert SlugEvent.objects.filter(meter=meter).count() == 2
    assert SlugReevaluation.objects.get().reason == "baseline carried past a day"
    events = AuditEvent.objects.filter(action="supersede_slug")
    assert [e.reason for e in events] == ["baseline carried past a day"]


def test_the_meter_page_shows_recorded_baselines_and_carried_ones(
    town: Town, tmp_path: Path, login: object
) -> None:
    """The page lists the meter's fixed baselines with their authority, and a slug whose
    baseline was carried says from when."""
    meter = flow_meter(town)
    data = rows(START, ["10"] * 288 + ["100"] * 300 + ["10"] * 6)
    services.upload_readings(meter, csv_file(tmp_path / "c.csv", data), None)
    record_meter_baseline(
        meter,
        town.u("engineer"),
        value="100",
        effective_from=START + timedelta(days=3),
        authority="IDA-1 amended",
    )
    response = login("engineer").get(reverse("meters:detail", args=[meter.pk]))  # type: ignore[operator]
    assert response.status_code == 200
    page = response.content.decode()
    # the page shows town time (UTC - 5 h in March before the clocks change)
    assert "100 gpd from 2026-03-04 19:00" in page and "IDA-1 amended" in page
    # the 300 readings of 100 from 00:00 UTC on the 3rd: those after 23:55 on the 3rd were
    # judged on the day ending with 23:55 UTC on the 2nd (18:55 in town)
    assert "baseline carried from the 24 h ending 2026-03-02 18:55" in page
