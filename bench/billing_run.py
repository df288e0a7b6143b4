"""A billing run's computation at scale: bulk reads against a per-facility ORM loop.

    .venv/bin/python bench/billing_run.py [--facilities 2000] [--metered 2000] [--stored 20] [--days 90] [--profile]

Builds a throw-away SQLite test database (in memory) with ``--facilities`` establishments,
each with its operator, property, building, control manhole and an approved industrial
discharge approval declaring a flow.

A run bills a facility only for the days a § 196-19 E(1)(d) decision of the Superintendent or
a § 196-19 J agreement is in force (docs/surcharges.md), so the bench records them, by the
facility's position ``i`` in the list (``i % 20``), the same in both shapes:

- 15 in 20 (75 %): a decision (``instead_of_pretreatment`` or ``beside_pretreatment``) in force
  from a day before the quarter, open-ended: the whole quarter is one span;
- 1 in 20 (``i % 20 == 3``): an agreement with its own $/lb rates, from before the quarter;
- 1 in 20 (``== 13``): an agreement without rates (the Town Board's dated rates);
- 1 in 20 (``== 7``): a decision from before the quarter, and an agreement with rates from
  2026-02-15 that then governs: two spans, each billed on its own days' values;
- 1 in 20 (``== 9``): a decision that starts mid-quarter (2026-01-20, 2026-02-01 or 2026-03-02):
  the days before it are not billed;
- 1 in 20 (``== 19``): none. Of abnormal strength, they are listed as ``no_decision`` ("abnormal
  strength, no surcharge decision") and never billed.

Then two shapes of data, one after the other:

- **dense**: every facility sampled every day of the quarter 2026-Q1 (``--days``): a 24-hour
  composite analysed for BOD and suspended solids, and a grab sample (its own sample) analysed
  for oil and grease, as the strength rule reads them (BOD and suspended solids from composites
  only, grease or oil from grabs only): ``--days`` × 3 results and ``--days`` × 2 samples per
  facility; and ``--metered`` facilities with a flow meter reading every minute for the whole
  quarter (the others bill on the declared flow);
- **sparse**: the same facilities and records, a composite and a grab every 14 days for one
  facility in three, and no declared flow for half of the facilities (their lines are "cannot
  be computed", as are the lines of decided facilities without any sample).

For each shape it times :func:`sewer_office.billing.runs.compute_lines` (a handful of bulk
queries, values_list) and :func:`~sewer_office.billing.runs.compute_lines_per_facility` (the
ORM loop, several queries per facility) in the same run, checks that both list the same
facilities with the same status and amount, and prints both times, the ratio and the count of
lines by status (what was billed, what was only listed). Target: the bulk run of the dense
shape under 30 s on SQLite. ``--profile`` prints where the dense bulk run spends its time
(cProfile, by cumulative time).

Every one of the 2,000 facilities has a flow meter reading every minute (``--metered``): 259
million readings over a quarter. The run reads the meters' daily volumes (``meters.MeterDay``,
kept by the readings upload), never the minute readings; ``--stored`` meters (20: 2.6 million
readings) have every reading stored and their days made by the upload's own code, the others
only the days those readings give (see :func:`add_meters`).

``--smoke``: tiny sizes on SQLite in a temporary directory, seconds, no timing asserted (the
test suite runs it so that the benchmark cannot rot unseen).
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


def add_bases(ests: list[Any]) -> dict[str, int]:
    """The decisions and agreements of the module's mix (by position ``i % 20``), bulk-inserted
    as the services would record them (a decision's first day not before its date; recorded by
    the Superintendent). Returns the count of facilities of each kind."""
    from decimal import Decimal

    from django.db import connection

    from sewer_office.accounts.roles import SUPERINTENDENT
    from sewer_office.accounts.services import create_user
    from sewer_office.billing.basis_models import SurchargeAgreement, SurchargeDecision
    from sewer_office.billing.choices import DecisionBasis

    user = create_user("bench-superintendent", "bench-not-a-login", (SUPERINTENDENT,))
    day = connection.ops.adapt_datefield_value
    mid_quarter = (date(2026, 1, 20), date(2026, 2, 1), date(2026, 3, 2))
    decisions: list[tuple[Any, ...]] = []
    agreements: list[tuple[Any, ...]] = []
    kinds = dict.fromkeys(
        (
            "decision",
            "agreement with rates",
            "agreement, Board's rates",
            "decision then agreement",
            "decision mid-quarter",
            "none",
        ),
        0,
    )

    def decision(e: Any, first: date, basis: str) -> None:
        decisions.append(
            (
                e.pk,
                basis,
                day(first),
                day(first),
                f"BOD and solids of {e.name} above normal strength; added cost of treatment",
                f"SUP-{e.pk}",
                user.pk,
            )
        )

    def agreement(e: Any, first: date, rates: tuple[str, str, str] | None) -> None:
        bod, ss, grease = (None, None, None) if rates is None else map(Decimal, rates)
        agreements.append(
            (
                e.pk,
                f"Town of Wappinger and {e.operator.name}",
                "high-strength process waste accepted, payment by the pound",
                day(first),
                day(first),
                "Supervisor; owner",
                f"TB resolution {first.year}-{e.pk}",
                bod,
                ss,
                grease,
                user.pk,
            )
        )

    for i, e in enumerate(ests):
        k = i % 20
        before = date(2025, 7 + i % 6, 1)  # at or before the quarter's first day
        if k == 19:
            kinds["none"] += 1
        elif k == 3:
            agreement(e, before, ("0.50", "0.42", "0.60"))
            kinds["agreement with rates"] += 1
        elif k == 13:
            agreement(e, before, None)
            kinds["agreement, Board's rates"] += 1
        elif k == 7:
            decision(e, before, DecisionBasis.BESIDE)
            agreement(e, date(2026, 2, 15), ("0.48", "0.40", "0.58"))
            kinds["decision then agreement"] += 1
        elif k == 9:
            decision(e, mid_quarter[(i // 20) % 3], DecisionBasis.INSTEAD)
            kinds["decision mid-quarter"] += 1
        else:
            decision(e, before, DecisionBasis.INSTEAD if i % 2 else DecisionBasis.BESIDE)
            kinds["decision"] += 1
    _insert(
        SurchargeDecision,
        decisions,
        [
            "establishment_id",
            "basis",
            "first_day",
            "decided_on",
            "reasons",
            "reference",
            "recorded_by_id",
        ],
    )
    _insert(
        SurchargeAgreement,
        agreements,
        [
            "establishment_id",
            "parties",
            "terms",
            "first_day",
            "signed_on",
            "signed_by",
            "board_approval",
            "rate_bod",
            "rate_suspended_solids",
            "rate_grease_oil",
            "recorded_by_id",
        ],
    )
    return kinds


#: What each sample is analysed for (the strength rule's sample types: BOD and suspended solids
#: from 24-hour composites, oil and grease from grabs), with the low end of the bench's values.
ANALYSES: dict[str, tuple[tuple[str, int], ...]] = {
    "composite": (("bod5", 150), ("tss", 200)),
    "grab": (("oil_grease", 20),),
}


def add_samples(ests: list[Any], days: int, every: int, share: int, seed: int) -> None:
    """Every ``every`` days, for the facilities whose pk is a multiple of ``share``: a composite
    (collected 09:00) with BOD and suspended solids, and a grab (10:00) with oil and grease."""
    from django.db import connection

    from sewer_office.monitoring.models import LabResult, SamplingEvent, SamplingPoint

    points = dict(SamplingPoint.objects.values_list("establishment_id", "id"))
    adapt = connection.ops.adapt_datetimefield_value
    events: list[tuple[Any, ...]] = []
    first = datetime(2026, 1, 1, 9, tzinfo=TOWN)
    for kind, hour in (("composite", 0), ("grab", 1)):
        stamps = {d: adapt(first + timedelta(days=d, hours=hour)) for d in range(0, days, every)}
        for e in ests:
            if e.pk % share:
                continue
            for d, stamp in stamps.items():
                events.append((e.pk, points[e.pk], f"S{seed}-{kind[0]}-{e.pk}-{d}", kind, stamp))
    _insert(
        SamplingEvent,
        events,
        ["establishment_id", "sampling_point_id", "sample_id", "sample_type", "collected_at"],
    )
    ids = SamplingEvent.objects.filter(sample_id__startswith=f"S{seed}-").values_list(
        "id", "establishment_id", "collected_at", "sample_type"
    )
    results: list[tuple[Any, ...]] = []
    for ev, est, at, kind in ids.iterator(chunk_size=20000):
        k = (ev * 7919 + est) % 1000
        for param, lo in ANALYSES[kind]:
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
    from sewer_rules.monitoring.instants import to_us

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


def compare(label: str, profile: bool = False) -> None:
    """Time the bulk run and the per-facility loop of 2026-Q1; refuse unless they agree."""
    from sewer_office.billing import runs

    start, end = runs.parse_period("2026-Q1")
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    t0 = time.perf_counter()
    bulk = runs.compute_lines(start, end)
    t_bulk = time.perf_counter() - t0
    if prof is not None:
        import pstats

        prof.disable()
    t0 = time.perf_counter()
    loop = runs.compute_lines_per_facility(start, end)
    t_loop = time.perf_counter() - t0
    a = {ln.establishment_id: (ln.result.status, ln.result.amount) for ln in bulk}
    b = {ln.establishment_id: (ln.result.status, ln.result.amount) for ln in loop}
    if a != b:
        diff = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        raise SystemExit(
            f"{label}: bulk and loop disagree on {len(diff)} facilities, e.g. {diff[:5]}"
        )
    statuses: dict[str, int] = {}
    for s, _ in a.values():
        statuses[s] = statuses.get(s, 0) + 1
    total = sum((amt for s, amt in a.values() if s == "charged" and amt is not None), 0)
    spans = sum(len(ln.result.spans) for ln in bulk)
    partial = sum(1 for ln in bulk if ln.result.spans and ln.result.uncovered_days)
    by_status = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items(), key=lambda x: -x[1]))
    print(
        f"{label}: {len(a)} lines ({by_status}), {spans} spans billed, {partial} lines with "
        f"days under no decision or agreement; total USD {total}; bulk {t_bulk:.2f} s, "
        f"per-facility ORM loop {t_loop:.2f} s, ratio {t_loop / t_bulk:.1f}x (statuses and "
        "amounts agree)"
    )
    if prof is not None:
        pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(25)


def _samples() -> str:
    """The stored samples and results, by sample type (what the strength rule reads)."""
    from django.db.models import Count

    from sewer_office.monitoring.models import LabResult, SamplingEvent

    events = dict(
        SamplingEvent.objects.values_list("sample_type").annotate(n=Count("id")).order_by()
    )
    results = dict(
        LabResult.objects.values_list("event__sample_type").annotate(n=Count("id")).order_by()
    )
    return ", ".join(
        f"{events.get(k, 0):,} {k} samples ({results.get(k, 0):,} results: "
        f"{' and '.join(p for p, _ in ANALYSES[k])})"
        for k in ANALYSES
    )


def main() -> int:
    import office_pages  # bench helpers: the --smoke database

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
    parser.add_argument(
        "--profile", action="store_true", help="profile the dense shape's bulk run (cProfile)"
    )
    parser.add_argument("--smoke", action="store_true", help=office_pages.SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.facilities, args.metered, args.stored, args.days = 6, 4, 2, 3
        office_pages.smoke_environment()
    setup_django()
    from django.db import connection

    from sewer_office.meters.models import Reading
    from sewer_office.monitoring.models import LabResult
    from sewer_office.permits.models.industrial import IndustrialDischargeApproval

    state = office_pages.bench_database(args.smoke)
    try:
        t0 = time.perf_counter()
        ests = build(args.facilities)
        kinds = add_bases(ests)
        add_samples(ests, args.days, every=1, share=1, seed=1)
        readings, by_days = add_meters(ests, args.metered, args.stored, args.days)
        from sewer_office.meters import days
        from sewer_office.meters.models import Meter, MeterDay

        stored_meters = Meter.objects.filter(readings__isnull=False).distinct()
        if days.check(str(TOWN), stored_meters):
            raise SystemExit("the stored meters' daily volumes differ from their readings")
        print(
            f"database: {connection.vendor}; {args.facilities} facilities; surcharge records "
            f"({', '.join(f'{k}: {n}' for k, n in kinds.items())}); {_samples()}; "
            f"{args.metered} flow meters "
            f"reading every minute ({args.metered * args.days * 1440:,} minute readings): "
            f"{readings:,} of them stored ({args.stored} meters, their days checked against "
            f"them), {by_days} meters by their {MeterDay.objects.count():,} daily volumes; "
            f"built in {time.perf_counter() - t0:.1f} s"
        )
        compare("dense (daily composite and grab, minute flow or declared flow)", args.profile)
        LabResult.objects.all().delete()
        from sewer_office.monitoring.models import SamplingEvent

        SamplingEvent.objects.all().delete()
        MeterDay.objects.all().delete()
        Reading.objects.all().delete()
        IndustrialDischargeApproval.objects.filter(id__in=[e.pk for e in ests[1::2]]).update(
            flow_gpd=None
        )
        add_samples(ests, args.days, every=14, share=3, seed=2)
        print(f"sparse: {_samples()}, no meter readings")
        compare("sparse (composite and grab every 14 days for 1 in 3, half without any flow)")
    finally:
        office_pages.drop_bench_database(state)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
