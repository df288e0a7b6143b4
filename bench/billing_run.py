"""A billing run's computation at scale: bulk reads against a per-facility ORM loop.

    .venv/bin/python bench/billing_run.py [--facilities 2000] [--metered 2000] [--stored 20] [--days 90]

Builds a throw-away SQLite test database (in memory) with ``--facilities`` establishments,
each with its operator, property, building, control manhole and an approved industrial
discharge approval declaring a flow, and then two shapes of data, one after the other:

- **dense**: a daily composite sample of BOD, suspended solids and grease for every facility
  over the quarter 2026-Q1 (``--days`` × 3 results each), and ``--metered`` facilities with a
  flow meter reading every minute for the whole quarter (the others bill on the declared flow);
- **sparse**: the same facilities, a composite only every 14 days for one facility in three,
  and no declared flow for half of the facilities (their lines are "cannot be computed").

For each shape it times :func:`sewer_office.billing.runs.compute_lines` (a handful of bulk
queries, values_list) and :func:`~sewer_office.billing.runs.compute_lines_per_facility` (the
ORM loop, several queries per facility) in the same run, checks that both give the same
status and amount for every facility, and prints both times and the ratio. Target: the bulk
run of the dense shape under 30 s on SQLite.

Every one of the 2,000 facilities has a flow meter reading every minute (``--metered``): 259
million readings over a quarter. The run reads the meters' daily volumes (``meters.MeterDay``,
kept by the readings upload), never the minute readings; ``--stored`` meters (20: 2.6 million
readings) have every reading stored and their days made by the upload's own code, the others
only the days those readings give (see :func:`add_meters`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
TOWN = ZoneInfo("America/New_York")
START = date(2026, 1, 1)


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    os.environ.setdefault("SEWER_USE_DATA_DIR", str(ROOT / "bench" / "out" / "office-data"))
    os.environ["SEWER_USE_DEBUG"] = "0"
    os.environ["SEWER_USE_JURISDICTION"] = "demo"
    os.environ.pop("DATABASE_URL", None)  # SQLite
    import django

    django.setup()


def _insert(model: Any, rows: list[tuple[Any, ...]], columns: list[str]) -> None:
    """Raw executemany of ``rows`` into ``model``'s table, other columns from a prototype."""
    from django.db import connection

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    proto = model()
    base = {f.column: f.get_db_prep_save(getattr(proto, f.attname), connection) for f in fields}
    now = connection.ops.adapt_datetimefield_value(datetime.now(TOWN))
    for f in fields:  # auto_now stamps (TimeStamped) are set by save(), not by the prototype
        if base[f.column] is None and not f.null and f.get_internal_type() == "DateTimeField":
            base[f.column] = now
    cols = [f.column for f in fields]
    idx = [cols.index(c) for c in columns]
    template = [base[c] for c in cols]
    sql = (
        f'INSERT INTO "{model._meta.db_table}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) '
        f"VALUES ({', '.join(['%s'] * len(cols))})"
    )
    with connection.cursor() as cur:
        batch: list[list[Any]] = []
        for r in rows:
            row = list(template)
            for i, v in zip(idx, r, strict=True):
                row[i] = v
            batch.append(row)
            if len(batch) >= 50000:
                cur.executemany(sql, batch)
                batch = []
        if batch:
            cur.executemany(sql, batch)


def build(n: int) -> list[Any]:
    from sewer_office.permits.models.industrial import IndustrialDischargeApproval
    from sewer_office.registry.models import Building, Establishment, Person, Property

    persons = Person.objects.bulk_create([Person(name=f"Operator {i:04d}") for i in range(n)])
    props = Property.objects.bulk_create(
        [
            Property(parcel_id=f"B-{i:05d}", address=f"{i} Industrial Way", owner=p)
            for i, p in enumerate(persons)
        ]
    )
    buildings = Building.objects.bulk_create(
        [Building(property=p, use="industrial") for p in props]
    )
    ests = Establishment.objects.bulk_create(
        [
            Establishment(name=f"Plant {i:04d}", operator=p, building=b, kind="industrial")
            for i, (p, b) in enumerate(zip(persons, buildings, strict=True))
        ]
    )
    from sewer_office.monitoring.models import SamplingPoint

    SamplingPoint.objects.bulk_create(
        [SamplingPoint(establishment=e, code="CM-1", basis="control_manhole") for e in ests]
    )
    IndustrialDischargeApproval.objects.bulk_create(
        [
            IndustrialDischargeApproval(
                number=f"IDA-2025-{i:05d}",
                state="approved",
                applicant=e.operator,
                property=props[i],
                filed_on=date(2025, 6, 1),
                decided_on=date(2025, 7, 1),
                establishment=e,
                discharge_kind="new",
                flow_gpd=8000 + (i % 50) * 500,
            )
            for i, e in enumerate(ests)
        ]
    )
    return ests


def add_composites(ests: list[Any], days: int, every: int, share: int, seed: int) -> None:
    from django.db import connection

    from sewer_office.monitoring.models import LabResult, SamplingEvent, SamplingPoint

    points = dict(SamplingPoint.objects.values_list("establishment_id", "id"))
    adapt = connection.ops.adapt_datetimefield_value
    events: list[tuple[Any, ...]] = []
    stamps = {
        d: adapt(datetime(2026, 1, 1, 9, tzinfo=TOWN) + timedelta(days=d))
        for d in range(0, days, every)
    }
    for e in ests:
        if e.pk % share:
            continue
        for d, at in stamps.items():
            events.append((e.pk, points[e.pk], f"S{seed}-{e.pk}-{d}", "composite", at))
    _insert(
        SamplingEvent,
        events,
        ["establishment_id", "sampling_point_id", "sample_id", "sample_type", "collected_at"],
    )
    ids = SamplingEvent.objects.filter(sample_id__startswith=f"S{seed}-").values_list(
        "id", "establishment_id", "collected_at"
    )
    results: list[tuple[Any, ...]] = []
    for ev, est, at in ids.iterator(chunk_size=20000):
        k = (ev * 7919 + est) % 1000
        for param, lo in (("bod5", 150), ("tss", 200), ("oil_grease", 20)):
            value = f"{lo + (k * 37 + len(param) * 11) % (lo * 3)}.{k % 10}"
            results.append((ev, est, adapt(at), param, value, "mg/l", "ok"))
    _insert(
        LabResult,
        results,
        ["event_id", "establishment_id", "sampled_at", "parameter", "value_text", "unit", "status"],
    )


def value_tenths(m: Any, pk: int) -> Any:
    """The bench's flow value at minute ``m`` of meter ``pk``, in tenths (an integer)."""
    return (9000 + (m * 13 + pk) % 4000) * 10 + m % 10


def add_meters(ests: list[Any], metered: int, stored: int, days_: int) -> tuple[int, int]:
    """Flow meters on the first ``metered`` facilities, a reading every minute of the quarter.

    The first ``stored`` meters have every minute reading stored, and their daily volumes
    made by the upload's own code (:func:`sewer_office.meters.days.record_upload`). For the
    others, the daily volumes those readings give are stored without the readings: 259
    million rows would not fit a benchmark, and billing reads only the days. They are the
    same sums (numpy over the same values, the same town days as the upload's), and
    ``days.check`` confirms the stored meters' days against their readings."""
    import numpy as np
    import polars as pl
    from django.db import connection

    from sewer_office.meters import days
    from sewer_office.meters.models import Meter, MeterDay, Reading, ReadingUpload
    from sewer_office.monitoring.models import SamplingPoint
    from sewer_rules.monitoring.series import to_us

    points = dict(SamplingPoint.objects.values_list("establishment_id", "id"))
    first = datetime(2026, 1, 1, tzinfo=TOWN)
    minutes = days_ * 1440
    adapt = connection.ops.adapt_datetimefield_value
    utc = first.astimezone(ZoneInfo("UTC"))  # minutes in UTC: no repeated or missing hour at DST
    stamps = [adapt(utc + timedelta(minutes=m)) for m in range(minutes)]
    times = [to_us(utc + timedelta(minutes=m)) for m in range(minutes)]
    # the town day of every minute, and where each day begins (the days of the upload)
    local = pl.Series(times, dtype=pl.Int64).cast(pl.Datetime("us", "UTC"))
    runs = local.dt.convert_time_zone(str(TOWN)).dt.date().rle().struct.unnest()
    day_list = runs.get_column("value").to_list()
    lens = runs.get_column("len").to_numpy().astype(np.int64)
    starts = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(lens)[:-1]])
    m = np.arange(minutes, dtype=np.int64)
    total = 0
    for k, e in enumerate(ests[:metered]):
        meter = Meter.objects.create(
            sampling_point_id=points[e.pk], ident=f"FLOW-{e.pk}", parameter="flow", unit="gpd"
        )
        if k < stored:
            up = ReadingUpload.objects.create(
                meter=meter,
                sha256=f"b{meter.pk}",
                first_at=first,
                last_at=first + timedelta(minutes=minutes - 1),
                count=minutes,
                jurisdiction="demo",
                parameters_version="demo@bench",
            )
            values = [f"{v // 10}.{v % 10}" for v in value_tenths(m, e.pk).tolist()]
            _insert(
                Reading,
                ((meter.pk, up.pk, stamps[i], values[i]) for i in range(minutes)),  # type: ignore[arg-type]
                ["meter_id", "upload_id", "at", "value"],
            )
            days.record_upload(meter, times, values, str(TOWN))
            total += minutes
            continue
        sums = np.add.reduceat(value_tenths(m, e.pk), starts)
        MeterDay.objects.bulk_create(
            [
                MeterDay(meter=meter, day=d, count=n, total=f"{v // 10}.{v % 10}")
                for d, n, v in zip(day_list, lens.tolist(), sums.tolist(), strict=True)
            ],
            batch_size=2000,
        )
    return total, metered - stored


def compare(label: str) -> None:
    from sewer_office.billing import runs

    start, end = runs.parse_period("2026-Q1")
    t0 = time.perf_counter()
    bulk = runs.compute_lines(start, end)
    t_bulk = time.perf_counter() - t0
    t0 = time.perf_counter()
    loop = runs.compute_lines_per_facility(start, end)
    t_loop = time.perf_counter() - t0
    a = {ln.establishment_id: (ln.result.status, ln.result.amount) for ln in bulk}
    b = {ln.establishment_id: (ln.result.status, ln.result.amount) for ln in loop}
    if a != b:
        diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)][:5]
        raise SystemExit(f"{label}: bulk and loop disagree, e.g. {diff}")
    statuses: dict[str, int] = {}
    for s, _ in a.values():
        statuses[s] = statuses.get(s, 0) + 1
    total = sum((amt for s, amt in a.values() if s == "charged" and amt is not None), 0)
    print(
        f"{label}: {len(a)} lines {statuses}, total USD {total}; bulk {t_bulk:.2f} s, "
        f"per-facility ORM loop {t_loop:.2f} s, ratio {t_loop / t_bulk:.1f}x (amounts agree)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--facilities", type=int, default=2000)
    parser.add_argument("--metered", type=int, default=2000)
    parser.add_argument(
        "--stored",
        type=int,
        default=20,
        help="metered facilities whose every minute reading is stored (the others: their days)",
    )
    parser.add_argument("--days", type=int, default=90)
    args = parser.parse_args()
    setup_django()
    from django.db import connection
    from django.test.utils import (
        setup_databases,
        setup_test_environment,
        teardown_databases,
        teardown_test_environment,
    )

    from sewer_office.meters.models import Reading
    from sewer_office.monitoring.models import LabResult
    from sewer_office.permits.models.industrial import IndustrialDischargeApproval

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        t0 = time.perf_counter()
        ests = build(args.facilities)
        add_composites(ests, args.days, every=1, share=1, seed=1)
        readings, by_days = add_meters(ests, args.metered, args.stored, args.days)
        from sewer_office.meters import days
        from sewer_office.meters.models import Meter, MeterDay

        stored_meters = Meter.objects.filter(readings__isnull=False).distinct()
        if days.check(str(TOWN), stored_meters):
            raise SystemExit("the stored meters' daily volumes differ from their readings")
        print(
            f"database: {connection.vendor}; {args.facilities} facilities, "
            f"{LabResult.objects.count()} composite results; {args.metered} flow meters "
            f"reading every minute ({args.metered * args.days * 1440:,} minute readings): "
            f"{readings:,} of them stored ({args.stored} meters, their days checked against "
            f"them), {by_days} meters by their {MeterDay.objects.count():,} daily volumes; "
            f"built in {time.perf_counter() - t0:.1f} s"
        )
        compare("dense (daily composites, minute flow or declared flow)")
        LabResult.objects.all().delete()
        from sewer_office.monitoring.models import SamplingEvent

        SamplingEvent.objects.all().delete()
        MeterDay.objects.all().delete()
        Reading.objects.all().delete()
        IndustrialDischargeApproval.objects.filter(id__in=[e.pk for e in ests[1::2]]).update(
            flow_gpd=None
        )
        add_composites(ests, args.days, every=14, share=3, seed=2)
        print(f"sparse: {LabResult.objects.count()} composite results, no meter readings")
        compare("sparse (composites every 14 days for 1 in 3, half without any flow)")
    finally:
        teardown_databases(old, verbosity=0)
        teardown_test_environment()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
