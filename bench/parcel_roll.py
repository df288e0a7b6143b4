"""Benchmark of the parcel roll import: a county's roll of 100,000 parcels, previewed and
applied, then read again unchanged, then next year's roll — beside a plain per-row ORM loop.

    .venv/bin/python bench/parcel_roll.py [--parcels 100000] [--baseline-parcels N]
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/h_parcels .venv/bin/python bench/parcel_roll.py

Creates a throw-away database (``test_<name>`` on PostgreSQL; a temporary file on SQLite),
writes a generated roll in the State's shape (``tests/parcel_rolls.py``: GeoJSON in State
Plane feet, EPSG:2260, owners of several parcels, the class mix) and measures, in one run:

1. **Preview** of the roll: read (``sewer_io.parcels.read_parcels``: the layer, the polygons
   checked and moved to WGS 84) and classified against the register (``services.preview``).
   Target ≤ 30 s.
2. **Apply** of that preview into an empty register (persons and properties in bulk: COPY on
   PostgreSQL, executemany on SQLite; one audit event). Target ≤ 60 s.
3. **Unchanged re-import**: the same roll with other bytes (a newline more), read, classified
   and applied: 0 changes. Target ≤ 20 s.
4. **Next year's roll** (300 owner changes, a split, a merge), read, classified and applied.
5. **Baseline**, in the same run: a plain per-row ORM loop — ``get_or_create`` of the owner
   and of the property, ``save`` per row, in one transaction (rolled back) — on the first roll
   into the empty register, and on the unchanged roll (``get`` the property and the owner per
   row, compare, ``save`` what differs). ``--baseline-parcels`` runs it on the first N rows
   only and extrapolates per row (said so in the output); by default the whole roll.

``--smoke``: tiny sizes on SQLite in a temporary directory, seconds, no timing asserted (the
test suite runs it so that the benchmark cannot rot unseen).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))


def setup_django(tmp: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    os.environ.setdefault("SEWER_USE_DATA_DIR", str(tmp / "data"))
    os.environ["SEWER_USE_DEBUG"] = "0"
    import django
    from django.conf import settings

    django.setup()
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        db.setdefault("TEST", {})["NAME"] = str(tmp / "bench.sqlite3")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


class Rollback(Exception):
    """Raised at the end of a baseline run: its transaction is undone."""


def baseline(parcels: Any, limit: int | None, *, unchanged: bool) -> tuple[float, int]:
    """The per-row ORM loop over the first ``limit`` rows (all when None): seconds, rows."""
    from django.db import transaction

    from sewer_office.registry.models import Person, Property

    rows = parcels if limit is None else parcels.head(limit)
    t0 = time.perf_counter()
    try:
        with transaction.atomic():
            for rec in rows.iter_rows(named=True):
                owner, _ = Person.objects.get_or_create(
                    name=rec["owner"],
                    mail_street=rec["mail_street"] or "",
                    mail_zip=rec["mail_zip"] or "",
                    defaults={
                        "mail_city": rec["mail_city"] or "",
                        "mail_state": rec["mail_state"] or "",
                    },
                )
                values = {
                    "parcel_id": rec["parcel_id"],
                    "property_class": rec["property_class"] or "",
                    "address": rec["address"] or "",
                    "city": rec["city"] or "",
                    "state": rec["state"] or "",
                    "zip": rec["zip"] or "",
                    "acreage": rec["acreage"],
                    "geometry": rec["geometry"] or "",
                    "lon": rec["lon"],
                    "lat": rec["lat"],
                    "owner": owner,
                }
                if unchanged:
                    prop = Property.objects.get(swis=rec["swis"], sbl=rec["sbl"])
                    differs = [
                        k for k, v in values.items() if k != "acreage" and getattr(prop, k) != v
                    ]
                    if differs:
                        for k in differs:
                            setattr(prop, k, values[k])
                        prop.save()
                else:
                    prop, created = Property.objects.get_or_create(
                        swis=rec["swis"], sbl=rec["sbl"], defaults=values
                    )
                    if not created:
                        prop.save()
            raise Rollback
    except Rollback:
        pass
    return time.perf_counter() - t0, rows.height


def main() -> int:
    import office_pages  # bench helpers: the --smoke database

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parcels", type=int, default=100_000)
    parser.add_argument(
        "--baseline-parcels",
        type=int,
        default=None,
        help="run the ORM baseline on the first N rows and extrapolate (default: all rows)",
    )
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--smoke", action="store_true", help=office_pages.SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.parcels, args.baseline_parcels = 1000, 50
        office_pages.smoke_environment()
    tmp = Path(tempfile.mkdtemp(prefix="sewer-bench-parcels-"))
    setup_django(tmp)
    from django.db import connection
    from tests.parcel_rolls import next_year, write_roll

    from sewer_io.parcels import read_parcels
    from sewer_office.parcels import services
    from sewer_office.registry.models import Person, Property

    state = office_pages.bench_database(args.smoke)
    table: list[tuple[str, float, str]] = []
    try:
        (tmp / "a").mkdir()
        (tmp / "b").mkdir()
        t_gen, roll = timed(lambda: write_roll(tmp / "a", parcels=args.parcels, bad_rows=False))
        t_next, nxt = timed(lambda: next_year(roll, tmp / "b"))
        again = tmp / "again.geojson"
        again.write_bytes(roll.read_bytes() + b"\n")
        size = roll.stat().st_size / 1e6
        print(
            f"database: {connection.vendor}; roll of {args.parcels:,} parcels ({size:.0f} MB "
            f"GeoJSON) written in {t_gen:.1f} s, next year's in {t_next:.1f} s"
        )

        t_read, read = timed(lambda: read_parcels(roll))
        t_class, preview = timed(lambda: services.preview(read))
        assert preview.ok, preview.report_lines()[:3]
        table.append(("preview (read + classify)", t_read + t_class, "≤ 30 s"))
        print(f"  read {t_read:.1f} s, classify {t_class:.1f} s")

        if not args.skip_baseline:
            t_base, n = baseline(read.parcels, args.baseline_parcels, unchanged=False)
            whole = t_base * read.parcels.height / n
            note = "" if n == read.parcels.height else f" (ran {n:,} rows, extrapolated)"
            table.append((f"baseline: per-row ORM loop, first import{note}", whole, ""))

        t_apply, imp = timed(lambda: services.apply(preview, None, date(2026, 3, 1)))
        table.append(("apply (first import, empty register)", t_apply, "≤ 60 s"))
        print(
            f"  applied: {imp.new_count:,} new properties, {imp.persons_created:,} persons "
            f"({Property.objects.count():,} properties, {Person.objects.count():,} persons)"
        )

        def steps(path: Path, on: date) -> Any:
            t_r, r = timed(lambda: read_parcels(path))
            t_c, p = timed(lambda: services.preview(r))
            t_a, imp = timed(lambda: services.apply(p, None, on))
            print(f"  {path.name}: read {t_r:.1f} s, classify {t_c:.1f} s, apply {t_a:.1f} s")
            return imp

        t_same, same = timed(lambda: steps(again, date(2026, 3, 2)))
        assert same.changed_count == same.new_count == same.owner_change_count == 0
        table.append(
            (f"unchanged re-import (read + classify + apply; {same.unchanged_count:,} unchanged)",
             t_same, "≤ 20 s")
        )  # fmt: skip
        if not args.skip_baseline:
            t_base, n = baseline(read.parcels, args.baseline_parcels, unchanged=True)
            whole = t_base * read.parcels.height / n
            note = "" if n == read.parcels.height else f" (ran {n:,} rows, extrapolated)"
            table.append((f"baseline: per-row ORM loop, unchanged roll{note}", whole, ""))

        t_nextimp, n_imp = timed(lambda: steps(nxt, date(2027, 3, 1)))
        table.append(
            (f"next year (read + classify + apply; {n_imp.owner_change_count} owner changes, "
             f"{n_imp.review_count} parcels held for review)", t_nextimp, "")
        )  # fmt: skip
    finally:
        office_pages.drop_bench_database(state)
        shutil.rmtree(tmp, ignore_errors=True)  # the rolls written (some 200 MB)
    width = max(len(name) for name, _, _ in table)
    print()
    print(f"{'step':<{width}}  {'seconds':>8}  target")
    for name, seconds, target in table:
        print(f"{name:<{width}}  {seconds:8.1f}  {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
