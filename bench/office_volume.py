"""Staff dashboards and facility pages at full volume: do their costs grow with the data?

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sewer_bench .venv/bin/python bench/office_volume.py
    .venv/bin/python bench/office_volume.py --results 200000 --repeat 20      # quicker, SQLite

Creates a throw-away test database (``test_<name>`` on PostgreSQL), builds the large town of
``bench/office_pages.py`` (5,000 properties, 20,000 permits with their audit histories) and
``--facilities`` industrial facilities, then measures every page below through the Django test
client **twice in the same run**:

1. the *baseline*: the same pages on the same database before any laboratory result or
   violation is stored (the small database);
2. after ``--results`` laboratory results (default 2,000,000, imported through the office's own
   ``import_lab_file`` in files of 1,000,000, findings included) and ``--violations``
   violations (default 5,000, in every open and closed stage, with their notices) are stored.

It prints, per page, median and p95 in both states, the ratio of the p95s (≈ 1 when the cost
does not grow with the data) and the SQL queries per page. Target: p95 ≤ 100 ms at full volume
(single user, PostgreSQL). ``--explain`` prints EXPLAIN ANALYZE of each query of each page at
full volume that takes more than 5 ms.

``--keepdb`` keeps the test database after the run and, when it already holds the town and its
results, measures that database again without rebuilding it (the full-volume columns only):
the way to measure a change of code against the same two million results. ``--smoke`` runs
every code path at a tiny size on SQLite in a temporary directory (seconds; nothing asserted
about time): the test suite runs it so that the benchmark cannot rot unseen.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import office_monitoring  # noqa: E402  (bench helpers: the laboratory file generator)
import office_pages  # noqa: E402  (bench helpers: the large town)

OPEN_MIX = ("open", "notice_issued", "served", "fines_accruing", "correction_reported")
CLOSED_MIX = ("corrected", "dismissed")


def register_facilities(n: int, users: dict[str, Any]) -> list[Any]:
    """The facilities of office_monitoring's town, their operator represented by the outside
    user (so that its pages are measured too)."""
    from sewer_office.registry.models import Person

    person = Person.objects.create(name="Industrial Users Inc.")
    person.representatives.add(users["owner"])
    return office_monitoring.add_facilities(n, person)


def store_violations(n: int, ests: list[Any], users: dict[str, Any], seed: int = 11) -> None:
    """``n`` violations, three in four closed (as a town's history is), the rest open in every
    stage; those past the first stage with the notice the stage implies."""
    from django.db import transaction

    from sewer_office.enforcement.models import Notice, Violation
    from sewer_office.registry.models import Property

    rng = random.Random(seed)
    props = list(Property.objects.select_related("owner").order_by("id")[:2000])
    from django.utils import timezone

    today = timezone.localdate()
    with transaction.atomic():
        rows = []
        for i in range(n):
            state = OPEN_MIX[i % len(OPEN_MIX)] if i % 4 == 0 else CLOSED_MIX[i % 2]
            observed = today - timedelta(days=rng.randint(1, 1500))
            if i % 3:
                est = ests[i % len(ests)]
                rows.append(
                    Violation(
                        kind="discharge_limit",
                        section="§ 196-19 C(3)",
                        description=f"Exceedance {i}",
                        establishment=est,
                        person_id=est.operator_id,
                        observed_on=observed,
                        opened_by=users["superintendent"],
                        state=state,
                    )
                )
            else:
                prop = props[i % len(props)]
                rows.append(
                    Violation(
                        kind="prohibited_connection",
                        section="§ 196-18 A",
                        description=f"Connection {i}",
                        property=prop,
                        person=prop.owner,
                        observed_on=observed,
                        opened_by=users["superintendent"],
                        state=state,
                    )
                )
        made = Violation.objects.bulk_create(rows, batch_size=2000)
        notices = []
        for v in made:
            if v.state == "open" or (v.state == "dismissed" and v.pk % 2):
                continue
            issued = v.observed_on + timedelta(days=5)
            served = v.state != "notice_issued"
            notices.append(
                Notice(
                    violation=v,
                    response="NOV",
                    response_label="Notice of violation",
                    citation="§ 196-22 A",
                    nature=v.description,
                    section=v.section,
                    period_days=30,
                    issued_on=issued,
                    issued_by=users["superintendent"],
                    served_on=issued + timedelta(days=2) if served else None,
                    served_by=users["superintendent"] if served else None,
                    service_method="personal" if served else "",
                    deadline=(today + timedelta(days=rng.randint(-40, 9))) if served else None,
                    daily_amount=100 if v.pk % 2 else None,
                )
            )
        Notice.objects.bulk_create(notices, batch_size=2000)


def measure(client: Any, url: str, repeat: int) -> tuple[list[float], int]:
    return office_pages.measure(client, url, repeat)


def explain_slow(client: Any, url: str, threshold_ms: float = 5.0) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    for q in ctx.captured_queries:
        if float(q["time"]) * 1000 < threshold_ms:
            continue
        print(f"--- {url}: {float(q['time']) * 1000:.1f} ms\n{q['sql'][:600]}")
        if connection.vendor == "postgresql" and q["sql"].lstrip().upper().startswith("SELECT"):
            with connection.cursor() as c:
                c.execute("EXPLAIN ANALYZE " + q["sql"])
                print("\n".join(r[0] for r in c.fetchall()))


def main() -> int:
    parser = office_pages.volume_parser(__doc__)
    parser.add_argument("--properties", type=int, default=5000)
    parser.add_argument("--permits", type=int, default=20000)
    parser.add_argument("--facilities", type=int, default=200)
    parser.add_argument("--results", type=int, default=2_000_000)
    parser.add_argument("--file-rows", type=int, default=1_000_000)
    parser.add_argument("--violations", type=int, default=5000)
    parser.add_argument("--profile", metavar="LABEL", help="cProfile this page at full volume")
    args = parser.parse_args()
    if args.smoke:
        args.properties, args.permits, args.facilities = 40, 80, 3
        args.results, args.file_rows, args.violations, args.repeat = 300, 200, 20, 1
        args.keepdb = False
        office_pages.smoke_django()
    else:
        office_pages.setup_django()
    from django.db import connection
    from django.test import Client

    state = office_pages.open_bench_database(args.keepdb, args.smoke)
    try:
        t0 = time.perf_counter()
        built = reuse(args) if args.keepdb else None
        if built is None:
            town = office_pages.generate(args.properties, args.permits)
            users = town["users"]
            ests = register_facilities(args.facilities, users)
            prop = town["property"]
            print(
                f"database: {connection.vendor}; town: {args.properties:,} properties, "
                f"{town['records']:,} permits, {args.facilities} facilities "
                f"({time.perf_counter() - t0:.0f} s)"
            )
        else:
            users, ests, prop = built
            print(f"database: {connection.vendor}; reused (--keepdb): the full volume only")
        busiest = ests[0]
        pages = [
            ("baseline /healthz", "clerk", "/healthz"),
            ("dashboard (clerk)", "clerk", "/"),
            ("dashboard (engineer)", "engineer", "/"),
            ("dashboard (superintendent)", "superintendent", "/"),
            ("dashboard (inspector)", "inspector", "/"),
            ("dashboard (owner)", "owner", "/"),
            (
                "facility page (superintendent)",
                "superintendent",
                f"/registry/establishments/{busiest.pk}/",
            ),
            ("facility page (clerk)", "clerk", f"/registry/establishments/{busiest.pk}/"),
            ("facility page (owner)", "owner", f"/registry/establishments/{busiest.pk}/"),
            ("property page (clerk)", "clerk", f"/registry/properties/{prop.pk}/"),
            ("findings list (superintendent)", "superintendent", "/monitoring/findings/"),
            ("violations list (superintendent)", "superintendent", "/enforcement/"),
        ]
        clients: dict[str, Any] = {}
        for name, user in users.items():
            clients[name] = Client()
            clients[name].force_login(user)
        for _, who, url in pages:  # warm templates and caches
            clients[who].get(url)
        from sewer_office.enforcement.models import Violation
        from sewer_office.findings.models import Finding
        from sewer_office.monitoring.models import LabResult

        t0 = time.perf_counter()
        if built is None:
            small = {label: measure(clients[who], url, args.repeat) for label, who, url in pages}
            store_results(args, ests, users)
        else:
            small = {}

        print(
            f"stored: {LabResult.objects.count():,} results, {Finding.objects.count():,} findings, "
            f"{Violation.objects.count():,} violations ({time.perf_counter() - t0:.0f} s)"
        )
        big = {label: measure(clients[who], url, args.repeat) for label, who, url in pages}
        print(
            f"{'page':<34} {'small p50':>9} {'p95':>7} {'full p50':>9} {'p95':>7} "
            f"{'p95 ×':>6} {'queries':>9}"
        )
        slow = []
        for label, _, _ in pages:
            (bt, bq) = big[label]
            (st, sq) = small.get(label, (bt, bq))
            sp, bp = office_pages.p95(st), office_pages.p95(bt)
            print(
                f"{label:<34} {statistics.median(st):>9.1f} {sp:>7.1f} {statistics.median(bt):>9.1f} "
                f"{bp:>7.1f} {bp / sp:>6.2f} {sq:>4}→{bq:<4}"
            )
            if bp > 100:
                slow.append(label)
        print(
            "p95 target (≤ 100 ms at full volume):",
            "met" if not slow else f"NOT met for {', '.join(slow)}",
        )
        if args.profile:
            import cProfile
            import pstats

            who, url = next((w, u) for label, w, u in pages if label == args.profile)
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(5):
                clients[who].get(url)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        if args.explain:
            for _, who, url in pages:
                explain_slow(clients[who], url)
    finally:
        office_pages.drop_bench_database(state)
    return 0


def store_results(args: argparse.Namespace, ests: list[Any], users: dict[str, Any]) -> None:
    """The laboratory results, imported as the operator's command imports them (a file of any
    size: the upload cap of the web pages does not apply), then the violations."""
    from django.db import connection

    left, k = args.results, 0
    while left > 0:
        n = min(left, args.file_rows)
        data = office_monitoring.lab_file(n, [e.code for e in ests], 2020 + k, seed=k + 1)
        office_monitoring.timed_import(data, f"volume-{k}.csv", users["superintendent"])
        left -= n
        k += 1
    store_violations(args.violations, ests, users)
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            # What autovacuum does after a bulk load: statistics and the visibility map.
            c.execute("VACUUM ANALYZE")


def reuse(args: argparse.Namespace) -> tuple[dict[str, Any], list[Any], Any] | None:
    """The users, facilities and busiest property of a database a previous ``--keepdb`` run
    built, or None when it holds no town yet (an empty database is built as usual)."""
    from django.contrib.auth import get_user_model

    from sewer_office.monitoring.models import LabResult
    from sewer_office.registry.models import Establishment, Property

    names = ("clerk", "engineer", "highway", "superintendent", "inspector", "owner")
    found = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
    if len(found) < len(names) or not LabResult.objects.exists():
        return None
    ests = list(Establishment.objects.filter(code__startswith="F").order_by("code"))
    prop = Property.objects.filter(parcel_id=f"61{0:06d}").get()
    return found, ests, prop


if __name__ == "__main__":
    sys.exit(main())
