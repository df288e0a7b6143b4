"""The demo town's meters: a flow meter and a pH meter at Acme Plating's CM-1 with three days
of five-minute readings (deterministic for the town's seed), through the same services as
``sewer-use import-readings``.

The flow meter's readings come in two uploads — the first day by the engineer, the next two
by Acme's own representative (``acme``) — so that the second upload's slugs are judged with
the day stored before it (§ 196-15 SLUG). It holds three slugs: the first reported by Acme
through the portal twenty minutes after it began, the second never reported, which becomes
a finding of § 196-19 D(9)(d), and a three-hour discharge at about six times the flow — one
180-minute slug because its own readings are not "normal operation" and stay out of the
baseline (the plain 24-hour mean would have let it raise its own threshold and stop at about
an hour). The pH meter holds one dip below 5.5 (§ 196-19 C(3)).
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sewer_office.meters import services
from sewer_office.meters.models import Meter
from sewer_office.monitoring.choices import SamplingBasis
from sewer_office.monitoring.models import SamplingPoint
from sewer_office.registry.models import Establishment

STEP = timedelta(minutes=5)
PER_DAY = 288
#: (day, index of the first reading in the day, readings) of the flow slugs; the readings
#: begin at 9:00, so these are 14:00 on the second day and 10:00 on the third.
SLUGS = ((1, 5 * 12, 6), (2, 1 * 12, 5))
#: The long discharge: 15:00 on the third day, three hours (36 readings) at about 6 x.
LONG = (2, 6 * 12, 36)


def _acme_point() -> SamplingPoint:
    """Acme's CM-1 (made by the monitoring demo; made here if that demo did not run)."""
    point = SamplingPoint.objects.filter(establishment__code="ACME-PLATING", code="CM-1").first()
    if point is not None:
        return point
    est = Establishment.objects.filter(code="ACME-PLATING").first() or Establishment.objects.get(
        name="Acme Plating Corporation"
    )
    point, _ = SamplingPoint.objects.get_or_create(
        establishment=est,
        code="CM-1",
        defaults={"basis": SamplingBasis.CONTROL_MANHOLE, "description": "demo control manhole"},
    )
    return point


def _write(path: Path, start: datetime, values: list[str]) -> Path:
    lines = ["timestamp,value"]
    for i, v in enumerate(values):
        lines.append(f"{(start + i * STEP).astimezone(UTC).isoformat()},{v}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _flow(town: Any) -> list[str]:
    """Three days of flow (gpd) about 10,000 with a daily swing, and the two slugs."""
    values = []
    for i in range(3 * PER_DAY):
        hour = (9 + (i % PER_DAY) / 12) % 24
        swing = 2500 if 7 <= hour < 18 else 0
        values.append(str(8000 + swing + town.rng.randint(-600, 600)))
    for day, at, length in SLUGS:
        k = day * PER_DAY + at
        for j in range(length):
            values[k + j] = str(62000 + town.rng.randint(0, 9000))
    day, at, length = LONG
    k = day * PER_DAY + at
    for j in range(length):
        values[k + j] = str(58000 + town.rng.randint(0, 4000))
    return values


def _ph(town: Any) -> list[str]:
    values = [f"{7 + town.rng.randint(-4, 6) / 10:.1f}" for _ in range(3 * PER_DAY)]
    dip = PER_DAY + 7 * 12  # 16:00 on the second day
    values[dip : dip + 4] = ["5.4", "5.1", "5.2", "5.6"]
    return values


def load_demo_meters(town: Any) -> None:
    """Create the demo meters and their readings, slugs, reports and findings."""
    engineer, acme = town.users["engineer"], town.users["acme"]
    point = _acme_point()
    start = town.moment(4)  # 9:00 four days before the anchor; three days of readings
    flow = services.register_meter(
        engineer,
        sampling_point=point,
        ident="ACME-FLOW-1",
        parameter="flow",
        unit="gpd",
        description="Magnetic flow meter on the plating line discharge",
    )
    ph = services.register_meter(
        engineer,
        sampling_point=point,
        ident="ACME-PH-1",
        parameter="pH",
        description="pH probe at the control manhole",
    )
    values = _flow(town)
    with tempfile.TemporaryDirectory(prefix="sewer-demo-meters-") as folder:
        d = Path(folder)
        services.upload_readings(
            flow, _write(d / "acme-flow-day1.csv", start, values[:PER_DAY]), engineer
        )
        services.upload_readings(
            flow,
            _write(d / "acme-flow-day2-3.csv", start + PER_DAY * STEP, values[PER_DAY:]),
            acme,
        )
        services.upload_readings(ph, _write(d / "acme-ph.csv", start, _ph(town)), engineer)
    first = Meter.objects.get(pk=flow.pk).slugs.order_by("start").first()
    if first is not None:
        services.record_slug_report(
            first,
            acme,
            reported_at=first.start + timedelta(minutes=20),
            channel="portal",
            text="Rinse tank valve stuck open during changeover; closed at once.",
        )
    services.flag_unreported_slugs()
