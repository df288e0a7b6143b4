"""Page latency and queries per page of the sewer office with a large town.

    python bench/office_pages.py [--properties 5000] [--permits 20000] [--repeat 40]
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sewer_office_dev python bench/office_pages.py

Creates a throw-away test database (``test_<name>`` on PostgreSQL, in memory on SQLite), fills
it with a large town by bulk insertion (5,000 properties; 20,000 permits — building sewer
permits and private systems in every state — each with its history of audit events), then
measures through the Django test client (middleware, templates and serializers included):
the dashboard (clerk and engineer), the permit list (filtered, paginated), a property page and
the API list. It prints median and 95th percentile latency, the ratio of each to ``/healthz``
measured in the same run (the baseline; ratios travel between machines, milliseconds do not),
and the number of SQL queries per page — measured again with 5 rows shown instead of 25 to
show that queries do not grow with the rows shown (no N+1). Targets: p95 under 100 ms.
``--smoke``: a tiny town on SQLite in a temporary directory (the test suite runs it).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

TOWN = ZoneInfo("America/New_York")
SMOKE_HELP = "tiny sizes on SQLite in a temporary directory: that it works, no timing (seconds)"

BSP_PATH = [
    ("submitted", "file", "clerk", "§ 196-18 B"),
    ("plan_review", "record_fee_payment", "clerk", "§ 196-18 B"),
    ("plans_approved", "approve_plans", "engineer", "§ 196-18 F"),
    ("road_opening_permitted", "record_road_opening_permit", "highway", "§ 196-18 K"),
    ("ready_for_inspection", "notify_ready", "clerk", "§ 196-18 J"),
    ("completed", "complete_connection", "superintendent", "§ 196-18 J"),
]
PDS_PATH = [
    ("proposed", "file", "clerk", "§ 196-17 A"),
    ("health_approved", "record_health_approval", "clerk", "§ 196-17 B"),
    ("in_service", "record_completion", "inspector", "§ 196-17 C"),
]


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    os.environ.setdefault("SEWER_USE_DATA_DIR", str(ROOT / "bench" / "out" / "office-data"))
    os.environ["SEWER_USE_DEBUG"] = "0"
    os.environ.setdefault("SEWER_USE_JURISDICTION", "demo")
    import django

    django.setup()


#: ``--smoke``: a migrated, empty database file the office benches copy instead of migrating
#: their own (tests/test_benches.py names one for its run; the first bench writes it).
SCHEMA_ENV = "SEWER_BENCH_SCHEMA"


def smoke_environment() -> Path:
    """For ``--smoke``, before Django is set up: a temporary data directory (removed at exit)
    and SQLite, whatever ``DATABASE_URL`` says. The directory is returned."""
    import atexit
    import shutil
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="bench-smoke-"))
    atexit.register(shutil.rmtree, tmp, True)
    SMOKE_TMP.append(tmp)
    os.environ["SEWER_USE_DATA_DIR"] = str(tmp / "data")
    os.environ.pop("DATABASE_URL", None)
    return tmp


def smoke_database(tmp: Path) -> bool:
    """For ``--smoke``, after Django is set up and before ``setup_databases``: the test
    database a file in ``tmp``, a copy of the migrated schema when :data:`SCHEMA_ENV` names
    one (migrating takes most of a smoke run). Returns ``keepdb`` for ``setup_databases``."""
    import shutil

    from django.conf import settings

    name = tmp / "smoke.sqlite3"
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = str(name)
    schema = os.environ.get(SCHEMA_ENV, "")
    if schema and Path(schema).is_file():
        shutil.copyfile(schema, name)
        return True
    return False


def keep_schema() -> None:
    """For ``--smoke``, right after ``setup_databases`` migrated a new database: keep it as
    the schema the next bench copies (when :data:`SCHEMA_ENV` names a file not yet written)."""
    from django.db import connection

    schema = os.environ.get(SCHEMA_ENV, "")
    if schema and not Path(schema).exists() and connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM INTO %s", [schema])


def bench_database(smoke: bool) -> tuple[Any, bool]:
    """``setup_databases`` for a bench: a throw-away test database (``test_<name>`` on
    PostgreSQL), or with ``smoke`` a file copied from the migrated schema. Returns what
    :func:`drop_bench_database` takes. Nothing is serialized: a bench rolls nothing back, and
    serializing a kept database of two million results took minutes before every run."""
    from django.test.utils import setup_databases, setup_test_environment

    keep = smoke_database(SMOKE_TMP[0]) if smoke else False
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False, keepdb=keep, serialized_aliases=set())
    if smoke and not keep:
        keep_schema()
    return old, keep


def volume_parser(doc: str | None) -> argparse.ArgumentParser:
    """The options the full-volume benches share: ``--repeat``, ``--explain``, ``--keepdb``
    and ``--smoke``; each bench adds its sizes."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument(
        "--keepdb", action="store_true", help="keep the test database; reuse it when built"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes, SQLite in a temporary directory"
    )
    return parser


def open_bench_database(keepdb: bool, smoke: bool) -> tuple[Any, bool]:
    """The database a bench measures: with ``keepdb`` the kept test database (created and
    migrated when missing, kept at the end; nothing serialized), else :func:`bench_database`.
    Returns what :func:`drop_bench_database` takes."""
    if not keepdb:
        return bench_database(smoke)
    from django.test.utils import setup_databases, setup_test_environment

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False, keepdb=True, serialized_aliases=set())
    return old, True


def drop_bench_database(state: tuple[Any, bool]) -> None:
    from django.test.utils import teardown_databases, teardown_test_environment

    old, keep = state
    teardown_databases(old, verbosity=0, keepdb=keep)
    teardown_test_environment()


#: The temporary directory of a ``--smoke`` run (:func:`smoke_environment`).
SMOKE_TMP: list[Path] = []


def smoke_django() -> None:
    """``--smoke``: the temporary directory and SQLite, then Django set up."""
    smoke_environment()
    setup_django()


def generate(n_props: int, n_permits: int, seed: int = 7) -> dict[str, Any]:
    """A large town by bulk insertion (histories as audit events, as the services write them)."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import transaction

    from sewer_office.accounts import roles
    from sewer_office.accounts.services import create_user
    from sewer_office.core.models import AuditEvent
    from sewer_office.permits.models import BuildingSewerPermit, PrivateDisposalSystem
    from sewer_office.registry.models import Building, Person, Property, ServiceArea

    rng = random.Random(seed)
    users = {}
    for name, role in (
        ("clerk", roles.CLERK),
        ("engineer", roles.ENGINEER),
        ("highway", roles.HIGHWAY),
        ("superintendent", roles.SUPERINTENDENT),
        ("inspector", roles.BUILDING_INSPECTOR),
        ("owner", roles.APPLICANT),
    ):
        users[name] = create_user(name, "bench", (role,))
    with transaction.atomic():
        areas = [
            ServiceArea.objects.create(
                code=f"a{i}",
                name=f"Area {i}",
                kind="phase",
                public_sewer_available_from=date(1995, 1, 1) if i < 3 else None,
            )
            for i in range(4)
        ]
        persons = Person.objects.bulk_create(
            [Person(name=f"Owner {i:05d}") for i in range(n_props)], batch_size=2000
        )
        persons[0].representatives.add(users["owner"])
        props = Property.objects.bulk_create(
            [
                Property(
                    parcel_id=f"61{i:06d}",
                    address=f"{i} Road {i % 97}",
                    owner=persons[i],
                    service_area=areas[i % 4],
                )
                for i in range(n_props)
            ],
            batch_size=2000,
        )
        Building.objects.bulk_create(
            [Building(property=p, name="House", use="residential") for p in props], batch_size=2000
        )
        bsp_ct = ContentType.objects.get_for_model(BuildingSewerPermit)
        pds_ct = ContentType.objects.get_for_model(PrivateDisposalSystem)
        n_pds = n_permits // 5
        start = date(2023, 1, 2)
        bsps, pdss, plans = [], [], []
        for i in range(n_permits):
            filed = start + timedelta(days=rng.randint(0, 1400))
            if i < n_permits - n_pds:
                depth = rng.randint(0, len(BSP_PATH) - 1)
                prop = props[rng.randrange(n_props) if i % 50 else 0]
                bsps.append(
                    BuildingSewerPermit(
                        number=f"BSP-{filed:%Y}-{i:06d}",
                        state=BSP_PATH[depth][0],
                        applicant=prop.owner,
                        property=prop,
                        filed_on=filed,
                        permit_class=1,
                        design={},
                        fee_amount=Decimal("200.00"),
                    )
                )
                plans.append((bsp_ct, BSP_PATH[: depth + 1], filed))
            else:
                depth = rng.randint(0, len(PDS_PATH) - 1)
                prop = props[(rng.randrange(n_props // 4)) * 4 + 3]
                pdss.append(
                    PrivateDisposalSystem(
                        number=f"PDS-{filed:%Y}-{i:06d}",
                        state=PDS_PATH[depth][0],
                        applicant=prop.owner,
                        property=prop,
                        filed_on=filed,
                        system_type="septic",
                    )
                )
                plans.append((pds_ct, PDS_PATH[: depth + 1], filed))
        records = BuildingSewerPermit.objects.bulk_create(
            bsps, batch_size=2000
        ) + PrivateDisposalSystem.objects.bulk_create(pdss, batch_size=2000)
        events = []
        for rec, (ct, path, filed) in zip(records, plans, strict=True):
            prev = ""
            for k, (state, action, who, cite) in enumerate(path):
                at = datetime.combine(
                    filed + timedelta(days=3 * k), datetime.min.time(), tzinfo=TOWN
                ) + timedelta(hours=9)
                events.append(
                    AuditEvent(
                        at=at,
                        actor=users[who],
                        actor_name=who,
                        action=action,
                        content_type=ct,
                        object_id=str(rec.pk),
                        object_repr=rec.number,
                        state_from=prev,
                        state_to=state,
                        citation=cite,
                        after={"state": state},
                    )
                )
                prev = state
        AuditEvent.objects.bulk_create(events, batch_size=5000)
    # Statistics for the planner, as autovacuum (PostgreSQL) or a routine ANALYZE would keep.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    busiest = props[0]
    return {"users": users, "property": busiest, "events": len(events), "records": len(records)}


def measure(client: Any, url: str, repeat: int) -> tuple[list[float], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from sewer_office.core.heap import settle_start_up

    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    queries = len(ctx.captured_queries)
    # as a served worker is, once started (config/wsgi.py): what the bench built and warmed
    # is out of the collector's full passes, which would otherwise walk it every few requests
    settle_start_up()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - t0) * 1000)
    return times, queries


def p95(xs: list[float]) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--properties", type=int, default=5000)
    parser.add_argument("--permits", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.properties, args.permits, args.repeat = 40, 700, 1
        smoke_django()
    else:
        setup_django()
    from django.db import connection
    from django.test import Client

    state = bench_database(args.smoke)
    try:
        t0 = time.perf_counter()
        town = generate(args.properties, args.permits)
        built = time.perf_counter() - t0
        print(
            f"database: {connection.vendor}; town: {args.properties} properties, {town['records']} permits, "
            f"{town['events']} audit events (generated in {built:.1f} s)"
        )
        prop = town["property"]
        pages = [
            ("baseline /healthz", "clerk", "/healthz", None),
            ("dashboard (clerk)", "clerk", "/", None),
            ("dashboard (engineer)", "engineer", "/", None),
            ("dashboard (owner)", "owner", "/", None),
            (
                "permit list, filtered, page 3",
                "clerk",
                "/permits/building-sewer/?state=plan_review&state=submitted&page=3",
                "/permits/building-sewer/?q=BSP-2023-00000",
            ),
            ("permit list, search", "clerk", "/permits/building-sewer/?q=Road+1&open=true", None),
            ("property page", "clerk", f"/registry/properties/{prop.pk}/", None),
            (
                "API list, filtered",
                "clerk",
                "/api/permits/building-sewer/?state=completed&page=2",
                "/api/permits/building-sewer/?q=BSP-2023-00000",
            ),
            ("API list (owner)", "owner", "/api/permits/building-sewer/", None),
            ("permit detail", "engineer", "/permits/building-sewer/{bsp}/", None),
        ]
        from sewer_office.permits.models import BuildingSewerPermit

        bsp = BuildingSewerPermit.objects.filter(state="plan_review").order_by("id").first()
        clients: dict[str, Any] = {}
        for name, user in town["users"].items():
            clients[name] = Client()
            clients[name].force_login(user)
        rows = []
        base_median = 1.0
        for label, who, url, few_url in pages:
            url = url.format(bsp=bsp.pk if bsp else 0)
            times, queries = measure(clients[who], url, args.repeat)
            few = ""
            if few_url:
                few = str(measure(clients[who], few_url, 1)[1])
            med = statistics.median(times)
            if label.startswith("baseline"):
                base_median = med
            rows.append((label, med, p95(times), med / base_median, queries, few))
        print(
            f"{'page':<32} {'median ms':>10} {'p95 ms':>8} {'× healthz':>10} {'queries':>8} {'(few rows)':>10}"
        )
        for label, med, p, ratio, q, few in rows:
            print(f"{label:<32} {med:>10.1f} {p:>8.1f} {ratio:>10.1f} {q:>8} {few:>10}")
        slow = [r[0] for r in rows if r[2] >= 100]
        print("p95 target (< 100 ms):", "met" if not slow else f"NOT met for {', '.join(slow)}")
    finally:
        drop_bench_database(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
