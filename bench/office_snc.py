"""Benchmark of significant noncompliance in the office: 200 facilities × 2 years of results.

    .venv/bin/python bench/office_snc.py [--facilities 200] [--results 500000]
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sewer_bench .venv/bin/python bench/office_snc.py

Creates a throw-away database (as ``bench/office_monitoring.py``), registers ``--facilities``
industrial users, each with a sampling point, five permit limits (copper, zinc, chromium,
nickel daily maxima; pH instantaneous minimum) and a copper monthly average, and stores
``--results`` results over 2025–2026 (one sample a day per facility, five parameters each;
a tenth of the facilities discharge copper over its limit most days, so they are chronic). It
then times, in one run:

1. **The office**: ``pretreatment.snc.compute_snc`` over 2025-01..2026-12 (four calendar
   halves): bulk reads of limits, results and report due dates, the rules' determination
   (``sewer_rules.federal.snc_determination.determine``), one stored determination per
   facility, the violations opened. Target: under 10 s.
2. **The per-row loop**, same run, same rows: every result read as an ORM object, its value
   converted and compared with its facility's limits in plain Python, row by row, counting
   (A) and (B) per facility × parameter × limit × half — the daily-maximum and minimum series
   only (no monthly averages, no storage), so it does less than the office.

Both answers are compared: every (facility, parameter, limit type, half) count of measurements
and exceedances of the loop must equal the office's; the run fails otherwise.

``--smoke``: tiny sizes on SQLite in a temporary directory, seconds, no timing asserted (the
test suite runs it so that the benchmark cannot rot unseen).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time as clock
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

LIMITS = (  # parameter, limit type, value, unit, typical low, high
    ("copper", "daily_maximum", "1.0", "mg/l", 0.2, 0.95),
    ("zinc", "daily_maximum", "2.0", "mg/l", 0.1, 1.9),
    ("chromium", "daily_maximum", "0.5", "mg/l", 0.01, 0.45),
    ("nickel", "daily_maximum", "0.8", "mg/l", 0.01, 0.7),
    ("ph", "instantaneous_minimum", "6.0", "SU", 6.2, 9.0),
)
MONTHLY = ("copper", "monthly_average", "0.6", "mg/l")
FIRST = date(2025, 1, 1)
DAYS = 730


def setup_django(tmp: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    os.environ.setdefault("SEWER_USE_DATA_DIR", str(tmp / "data"))
    os.environ["SEWER_USE_DEBUG"] = "0"
    os.environ.setdefault("SEWER_USE_JURISDICTION", "demo")
    import django
    from django.conf import settings

    django.setup()
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        db.setdefault("TEST", {})["NAME"] = str(tmp / "bench.sqlite3")


def populate(n_fac: int, n_results: int, seed: int) -> tuple[Any, list[Any]]:
    from django.db import transaction
    from django.utils import timezone

    from sewer_office.accounts import roles
    from sewer_office.accounts.services import create_user
    from sewer_office.monitoring.models import (
        DischargeLimit,
        LabResult,
        SamplingBasis,
        SamplingEvent,
        SamplingPoint,
    )
    from sewer_office.pretreatment.services import designate
    from sewer_office.registry.models import Building, Establishment, Person, Property

    sup = create_user("superintendent", "x", (roles.SUPERINTENDENT,))
    tz = timezone.get_current_timezone()
    rng = random.Random(seed)
    per_fac = n_results // (n_fac * len(LIMITS))
    step = DAYS / per_fac
    ests = []
    with transaction.atomic():
        for i in range(n_fac):
            person = Person.objects.create(name=f"Works {i} Inc.")
            prop = Property.objects.create(
                parcel_id=f"IU-{i:05d}", address=f"{i} Works Rd", owner=person
            )
            building = Building.objects.create(property=prop, use="industrial")
            est = Establishment.objects.create(
                name=f"Works {i:03d}",
                code=f"F{i:04d}",
                operator=person,
                building=building,
                kind="industrial",
            )
            SamplingPoint.objects.create(
                establishment=est, code="CM-1", basis=SamplingBasis.CONTROL_MANHOLE
            )
            for param, kind, value, unit, *_ in (*LIMITS, (*MONTHLY, 0, 0)):
                DischargeLimit.objects.create(
                    establishment=est,
                    parameter=param,
                    limit_type=kind,
                    value=value,
                    unit=unit,
                    effective_from=date(2020, 1, 1),
                )
            ests.append(est)
            # (A), (B), (E), (F), (G) count only on days the user was an SIU (40 CFR
            # 403.8(f)(2)(viii)); the loop counts every day, so each works is one from before
            # the period.
            designate(sup, est, basis="designated", reason="plating line", on=date(2024, 12, 1))
        points = {p.establishment_id: p.pk for p in SamplingPoint.objects.all()}
        events = []
        for est in ests:
            for k in range(per_fac):
                day = FIRST + timedelta(days=int(k * step))
                events.append(
                    SamplingEvent(
                        establishment_id=est.pk,
                        sampling_point_id=points[est.pk],
                        sample_id=f"{est.code}-{k}",
                        sample_type="grab",
                        collected_at=datetime.combine(day, time(9), tzinfo=tz),
                    )
                )
        SamplingEvent.objects.bulk_create(events, batch_size=5000)
        ids = dict(SamplingEvent.objects.values_list("sample_id", "id"))
        results = []
        for i, ev in enumerate(events):
            chronic = (ev.establishment_id % 10) == 0
            for param, _kind, _value, unit, lo, hi in LIMITS:
                if param == "copper" and chronic and rng.random() < 0.8:
                    v = rng.uniform(1.01, 1.5)
                else:
                    v = rng.uniform(lo, hi)
                results.append(
                    LabResult(
                        event_id=ids[ev.sample_id],
                        establishment_id=ev.establishment_id,
                        row=i,
                        sampled_at=ev.collected_at,
                        parameter=param,
                        value_text=f"{v:.3g}",
                        unit=unit,
                        status="compliant",
                    )
                )
            if len(results) >= 50_000:
                LabResult.objects.bulk_create(results, batch_size=5000)
                results = []
        LabResult.objects.bulk_create(results, batch_size=5000)
    return sup, ests


def per_row_loop() -> dict[tuple[str, str, str, date], tuple[int, int]]:
    """(A)/(B) counts, row by row over ORM objects, for the daily and instantaneous series."""
    from django.utils import timezone

    from sewer_office.monitoring.models import DischargeLimit, LabResult
    from sewer_rules.units import convert

    limits: dict[tuple[int, str], list[Any]] = defaultdict(list)
    for lim in DischargeLimit.objects.exclude(limit_type="monthly_average"):
        limits[(lim.establishment_id, lim.parameter)].append(lim)
    counts: dict[tuple[str, str, str, date], list[int]] = defaultdict(lambda: [0, 0])
    codes: dict[int, str] = {}
    for r in (
        LabResult.objects.select_related("establishment")
        .exclude(state="superseded")
        .iterator(chunk_size=5000)
    ):
        codes.setdefault(r.establishment_id, r.establishment.code)
        day = timezone.localtime(r.sampled_at).date()
        half = date(day.year, 1 if day.month <= 6 else 7, 1)
        value = Decimal(r.value_text)
        for lim in limits.get((r.establishment_id, r.parameter), ()):
            v = value if r.unit == lim.unit else Decimal(convert(value, r.unit, lim.unit))
            bound = Decimal(lim.value)
            over = v < bound if lim.limit_type == "instantaneous_minimum" else v > bound
            c = counts[(codes[r.establishment_id], r.parameter, lim.limit_type, half)]
            c[0] += 1
            c[1] += over
    return {k: (n, e) for k, (n, e) in counts.items()}


def office_counts(run: Any) -> dict[tuple[str, str, str, date], tuple[int, int]]:
    out = {}
    for det in run.determinations:
        code = det.establishment.code
        for d in det.determinations:
            if d["limit_type"] == "monthly_average":
                continue
            for w in d["windows"]:
                key = (code, d["parameter"], d["limit_type"], date.fromisoformat(w["start"]))
                out[key] = (w["measurements"], w["exceeding"])
    return out


def main() -> int:
    import office_pages  # bench helpers: the --smoke database

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--facilities", type=int, default=200)
    parser.add_argument("--results", type=int, default=500_000)
    parser.add_argument("--profile", action="store_true", help="profile the office's run")
    parser.add_argument("--smoke", action="store_true", help=office_pages.SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.facilities, args.results = 3, 600
        office_pages.smoke_environment()
    tmp = Path(tempfile.mkdtemp(prefix="sewer-bench-snc-"))
    setup_django(tmp)
    from django.db import connection

    state = office_pages.bench_database(args.smoke)
    try:
        from sewer_office.monitoring.models import LabResult
        from sewer_office.pretreatment.snc import compute_snc

        t0 = clock.perf_counter()
        sup, _ = populate(args.facilities, args.results, seed=3)
        n = LabResult.objects.count()
        print(
            f"database: {connection.vendor}; {args.facilities} facilities, {n:,} results "
            f"2025-01..2026-12 stored in {clock.perf_counter() - t0:.1f} s"
        )
        if connection.vendor == "postgresql":
            with connection.cursor() as c:
                c.execute("ANALYZE")
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            compute_snc(sup, "2025-01..2026-12")
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
            return 0
        t0, c0 = clock.perf_counter(), clock.process_time()
        run = compute_snc(sup, "2025-01..2026-12")
        office, office_cpu = clock.perf_counter() - t0, clock.process_time() - c0
        print(
            f"office: SNC of {len(run.determinations)} facilities over 4 halves from "
            f"{run.measurements:,} measurements in {office:.2f} s wall, {office_cpu:.2f} s CPU "
            f"— {len(run.in_snc)} in SNC, {run.violations_opened} violations opened "
            "(target < 10 s)"
        )
        t0, c0 = clock.perf_counter(), clock.process_time()
        loop = per_row_loop()
        slow, slow_cpu = clock.perf_counter() - t0, clock.process_time() - c0
        print(
            f"per-row loop over ORM objects (daily and instantaneous series only, nothing "
            f"stored): {slow:.2f} s wall, {slow_cpu:.2f} s CPU — the office is "
            f"{slow / office:.1f}× faster (CPU {slow_cpu / office_cpu:.1f}×)"
        )
        print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        mine = office_counts(run)
        if mine != loop:
            diff = sorted(set(mine.items()) ^ set(loop.items()))[:5]
            print(f"MISMATCH between the office and the loop: {diff}")
            return 1
        print(f"counts agree on all {len(loop):,} facility × parameter × limit × half series")
    finally:
        office_pages.drop_bench_database(state)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
