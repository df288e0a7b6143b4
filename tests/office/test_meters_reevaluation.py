"""Slugs by normal operation in the office: an upload is judged with the whole stored series
(whether a stored reading was normal operation depends on the readings before it), and the
slugs stored under the old reading are re-evaluated — superseded with a reason, never edited.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from sewer_cli.main import main
from sewer_engines.monitoring import kernel
from sewer_engines.monitoring import slugs as slug_rules
from sewer_office.core.errors import Forbidden
from sewer_office.core.models import AuditEvent
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of
from sewer_office.meters import judging, reevaluation, services
from sewer_office.meters.models import SlugEvent, SlugReevaluation

from .factories import Town
from .test_meters import START, csv_file, day, flow_meter, rows, with_slug

pytestmark = pytest.mark.django_db


def test_a_discharge_stored_the_day_before_stays_out_of_the_baseline(
    town: Town, tmp_path: Path
) -> None:
    """Five hours at ten times the flow on day 2, then 30 minutes at 100 early on day 3: the
    plain mean of the day before (28.75, threshold 143.75) would hide it; the mean of normal
    operation (10) does not — the discharge's readings were not normal operation."""
    meter = flow_meter(town)
    first = rows(START, day()) + rows(START + timedelta(days=1), with_slug(200, 60))
    services.upload_readings(meter, csv_file(tmp_path / "a.csv", first), None)
    second = rows(START + timedelta(days=2), with_slug(2))
    result = services.upload_readings(meter, csv_file(tmp_path / "b.csv", second), None)
    [slug] = result.slugs
    assert slug.start == START + timedelta(days=2, minutes=10)
    assert (slug.baseline, slug.threshold) == ("10", "50")


def _old_reading_upload(town: Town, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SlugEvent:
    """A 300-minute discharge stored under the old reading (the plain trailing mean): 160
    minutes of it were a slug then."""
    meter = flow_meter(town)
    data = rows(START, day()) + rows(START + timedelta(days=1), with_slug(100, 60))
    with monkeypatch.context() as mp:
        mp.setattr(slug_rules, "normal_exceedances", kernel.trailing_exceedances)
        [old] = services.upload_readings(meter, csv_file(tmp_path / "r.csv", data), None).slugs
    assert old.duration_minutes == 160
    return old


def test_reevaluation_supersedes_old_slugs_and_never_edits_them(
    town: Town, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _old_reading_upload(town, tmp_path, monkeypatch)
    meter = old.meter
    before = (old.start, old.end, old.peak, old.baseline, old.threshold, old.readings)
    acme_report = services.record_slug_report(
        old, town.u("engineer"), reported_at=old.start + timedelta(minutes=10), channel="phone"
    )

    plan = reevaluation.reevaluate_slugs(meter, None, dry_run=True)
    assert [e.pk for e in plan.superseded] == [old.pk] and len(plan.new) == 1
    assert SlugReevaluation.objects.count() == 0 and SlugEvent.objects.count() == 1

    done = reevaluation.reevaluate_slugs(meter, town.u("engineer"), reason="normal operation")
    record = done.record
    assert record is not None and record.reason == "normal operation" and record.kept == 0
    old.refresh_from_db()
    assert (old.start, old.end, old.peak, old.baseline, old.threshold, old.readings) == before
    assert old.superseded_by == record
    assert not findings_of(old).filter(current=True).exists()
    [new] = judging.current_slugs(meter)
    assert new.found_by == record and new.duration_minutes == 300 and new.readings == 60
    assert new.start == old.start and new.baseline == "10"
    [finding] = findings_of(new)
    assert finding.kind == FindingKind.SLUG and finding.current
    # the user's report of the discharge still counts: no unreported-slug finding
    assert services.reported_in_time(new) and new.first_report == acme_report
    assert services.flag_unreported_slugs(new.start + timedelta(days=30)) == 0
    events = AuditEvent.objects.filter(action__in=["reevaluate_slugs", "supersede_slug"])
    assert sorted(events.values_list("action", flat=True)) == ["reevaluate_slugs", "supersede_slug"]
    assert all(e.reason == "normal operation" for e in events)

    again = reevaluation.reevaluate_slugs(meter, None)
    assert not again.changed and [e.pk for e in again.kept] == [new.pk]
    assert SlugReevaluation.objects.count() == 1


def test_only_officers_reevaluate(
    town: Town, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _old_reading_upload(town, tmp_path, monkeypatch)
    for role in ("clerk", "viewer"):
        with pytest.raises(Forbidden):
            reevaluation.reevaluate_slugs(old.meter, town.u(role))
    assert SlugEvent.objects.get().superseded_by is None


def test_the_command(
    town: Town, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _old_reading_upload(town, tmp_path, monkeypatch)
    assert main(["reevaluate-slugs", "--meter", old.meter.ident, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "1 would supersede, 1 found anew" in out
    assert SlugEvent.objects.get().superseded_by is None
    assert main(["reevaluate-slugs"]) == 1
    assert "1 superseded, 1 found anew" in capsys.readouterr().out
    assert main(["reevaluate-slugs"]) == 0
    assert main(["reevaluate-slugs", "--meter", "NOPE"]) == 2


def test_the_demo_town_meters_follow_the_new_reading(demo_town: Any) -> None:
    """The demo's three-hour discharge is one 180-minute slug, and judging the demo's stored
    readings again changes nothing: its slugs are those of the new reading."""
    from datetime import date

    from sewer_office.meters.models import Meter

    demo_town(seed=4, anchor=date(2026, 12, 1))
    flow = Meter.objects.get(ident="ACME-FLOW-1")
    minutes = [s.duration_minutes for s in judging.current_slugs(flow).order_by("start")]
    assert minutes == [30, 25, 180]
    for meter in Meter.objects.all():
        assert not reevaluation.reevaluate_slugs(meter, None, dry_run=True).changed


def test_an_upload_reads_exported_floats_exactly(town: Town, tmp_path: Path) -> None:
    """A historian's float export is a reading of that exact decimal, stored exactly (at the
    series' decimal places)."""
    from decimal import Decimal

    from sewer_office.meters.models import Reading

    meter = flow_meter(town)
    values = ["190.95000000000002", "0.30000000000000004", "123456789012345678901234567890.5"]
    data = rows(START, values)
    services.upload_readings(meter, csv_file(tmp_path / "f.csv", data), None)
    stored = Reading.objects.filter(meter=meter).order_by("at").values_list("value", flat=True)
    assert [Decimal(x) for x in stored] == [Decimal(x) for x in values]
