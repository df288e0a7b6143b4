"""Meters under their own town's values: an upload is judged, and its days counted, under the
meter's town's parameter set and time zone (``meter_days`` too, each meter in its own town's);
and a meter of a town whose law is its own is refused the article's slug judgement
(§ 196-15 SLUG, § 196-19 D(9))."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from sewer_office.accounts.services import grant_jurisdiction
from sewer_office.core.town_law import OtherLaw
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import findings_of
from sewer_office.meters import charts, services
from sewer_office.meters.models import Meter, MeterDay, Reading, ReadingUpload
from sewer_office.meters.reevaluation import reevaluate_slugs
from sewer_office.monitoring.models import SamplingPoint
from sewer_office.registry.models import Establishment

from .factories import Town
from .jurisdiction_support import OTHER, moved

START = datetime(2026, 3, 2, 0, 0, tzinfo=UTC)
STEP = timedelta(minutes=5)
#: A town of the article in another time zone: a parameters.yaml of its own, by its path.
WEST = "west.yaml"
WEST_YAML = """jurisdiction: west
name: West town (Wappinger's article, Pacific time)
extends: wappinger
timezone: America/Los_Angeles
parameters: {}
"""


def readings(path: Path, values: list[str], start: datetime = START) -> Path:
    lines = [f"{(start + i * STEP).isoformat()},{v}" for i, v in enumerate(values)]
    path.write_text("timestamp,value\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def two_days(slug_at: int | None = None) -> list[str]:
    values = ["10"] * 576
    if slug_at is not None:
        values[288 + slug_at : 288 + slug_at + 6] = ["100"] * 6
    return values


def meter_of(town: Town, est: Establishment, ident: str) -> Meter:
    point = SamplingPoint.objects.get(establishment=est)
    return services.register_meter(
        town.u("engineer"), sampling_point=point, ident=ident, parameter="flow", unit="gpd"
    )


def days_of(meter: Meter) -> dict[date, int]:
    return dict(MeterDay.objects.filter(meter=meter).values_list("day", "count"))


def test_an_upload_is_judged_under_its_meters_towns_values(
    article_towns: Town, tmp_path: Path
) -> None:
    t = article_towns
    demo = meter_of(t, t.owner_restaurant, "DEMO-FLOW")  # type: ignore[arg-type]
    wapp = meter_of(t, t.other_plant, "WAPP-FLOW")  # type: ignore[arg-type]
    for meter in (demo, wapp):
        services.upload_readings(
            meter, readings(tmp_path / f"{meter.ident}.csv", two_days(144)), t.u("engineer")
        )
    by_meter = {u.meter_id: u for u in ReadingUpload.objects.all()}
    assert by_meter[demo.pk].parameters_version.startswith("demo@")
    assert by_meter[wapp.pk].parameters_version.startswith("wappinger@")
    assert by_meter[wapp.pk].jurisdiction == "wappinger"
    [slug] = wapp.slugs.all()
    [finding] = findings_of(slug)
    assert finding.parameters_version.startswith("wappinger@")


def test_a_meters_days_are_its_towns_days(
    article_towns: Town, tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = article_towns
    monkeypatch.chdir(tmp_path)
    (tmp_path / WEST).write_text(WEST_YAML, encoding="utf-8")
    settings.SEWER_USE_JURISDICTIONS = ["demo", "wappinger", WEST]
    for name in ("engineer", "superintendent"):  # the third town's staff too
        grant_jurisdiction(t.u(name), WEST)
    plant = moved(t, t.other_plant, WEST)  # type: ignore[arg-type]
    east = meter_of(t, t.owner_restaurant, "EAST-FLOW")  # type: ignore[arg-type]
    west = meter_of(t, plant, "WEST-FLOW")
    for meter in (east, west):
        services.upload_readings(
            meter, readings(tmp_path / f"{meter.ident}.csv", two_days(144)), t.u("engineer")
        )
    # 2026-03-02 00:00 UTC is 19:00 on 03-01 in New York, 16:00 in Los Angeles
    assert days_of(east) == {date(2026, 3, 1): 60, date(2026, 3, 2): 288, date(2026, 3, 3): 228}
    assert days_of(west) == {date(2026, 3, 1): 96, date(2026, 3, 2): 288, date(2026, 3, 3): 192}
    call_command("meter_days", "--check")  # each meter against its own town's days
    call_command("meter_days", "--rebuild")
    assert days_of(west)[date(2026, 3, 1)] == 96  # nothing to mend, nothing moved
    # the unreported slug's finding says its times in the meter's town's time
    assert services.flag_unreported_slugs(timezone.now() + timedelta(days=2)) == 2
    west_finding = Finding.objects.get(kind=FindingKind.UNREPORTED_SLUG, establishment=plant)
    assert "-08:00" in west_finding.message and "-05:00" not in west_finding.message


# --- a town whose law is its own -----------------------------------------------------------


def test_a_meter_of_an_own_law_town_is_not_judged(two_towns: Town, tmp_path: Path) -> None:
    t = two_towns
    plant = Establishment.objects.get(pk=t.other_plant.pk)  # type: ignore[union-attr]
    assert plant.jurisdiction == OTHER
    meter = meter_of(t, plant, "PK-FLOW")  # a meter is a fact; judging it is the article's
    with pytest.raises(OtherLaw) as refused:
        services.upload_readings(
            meter, readings(tmp_path / "r.csv", two_days(144)), t.u("engineer")
        )
    assert "Town of Poughkeepsie" in refused.value.message
    assert "§ 196-15 SLUG" in refused.value.message and "Article VII" in refused.value.message
    assert not Reading.objects.exists() and not ReadingUpload.objects.exists()
    with pytest.raises(OtherLaw):
        reevaluate_slugs(meter, t.u("engineer"))
    with pytest.raises(OtherLaw):
        charts.chart(meter, "svg")


def test_a_slug_of_a_meter_moved_to_an_own_law_town_is_not_flagged(
    two_towns: Town, tmp_path: Path
) -> None:
    t = two_towns
    diner = t.owner_restaurant
    assert diner is not None
    meter = meter_of(t, diner, "DINER-FLOW")
    services.upload_readings(meter, readings(tmp_path / "r.csv", two_days(144)), t.u("engineer"))
    assert meter.slugs.count() == 1
    moved(t, diner, OTHER, date(2026, 3, 10))
    assert services.flag_unreported_slugs(timezone.now() + timedelta(days=2)) == 0
    assert not Finding.objects.filter(kind=FindingKind.UNREPORTED_SLUG).exists()
