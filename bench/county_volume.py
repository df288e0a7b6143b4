"""A county in one installation: do the pages of one member town stay fast among twenty?

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sewer_bench .venv/bin/python bench/county_volume.py
    ... bench/county_volume.py --keepdb            # keep the county; measure it again next time

Builds, in a throw-away test database (``test_<name>`` on PostgreSQL), a county of ``--towns``
member towns (default 20) in one office: ``--properties`` parcels (200,000) with
``--permits`` building permits and their histories, ``--facilities`` industrial users
(2,000), ``--years`` years of laboratory results (10; ``--results`` in all, imported through
the office's own importer, findings included) and ``--violations`` violations with their
notices. The parcels are dealt to the towns in turn; every record follows its parcel.

Then it measures, through the Django test client, the pages of a clerk and a Superintendent
who act for one town (their records are a twentieth of the county's) and of the plant's
pretreatment coordinator, who sees every town: p50 and p95 over ``--repeat`` requests and the
SQL queries of each. Target: p95 ≤ 100 ms for every page. ``--explain`` prints EXPLAIN ANALYZE
of each query over 5 ms; ``--smoke`` runs every code path at a tiny size on SQLite (the test
suite does, so the bench cannot rot unseen).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import office_monitoring  # noqa: E402  (bench helpers: the laboratory file generator)
import office_pages  # noqa: E402  (bench helpers: the large town)
import office_volume  # noqa: E402  (bench helpers: facilities, violations, EXPLAIN)

FIRST_YEAR = 2016


#: Where the generated towns' parameter files are written (the bench runs from there).
TOWN_FILES = Path(tempfile.gettempdir()) / "sewer-use-county-towns"


def towns(n: int) -> list[str]:
    """The member towns: the installation's primary (``demo``) and ``county-town-02.yaml`` … :
    generated, as the county is, each a town under the article with the demo's values (a
    ``parameters.yaml`` that extends it), since every record is computed under its own town's.
    The files are written to :data:`TOWN_FILES`, and the bench works from that directory,
    where the towns' relative names are read."""
    TOWN_FILES.mkdir(exist_ok=True)
    names = ["demo"]
    for k in range(2, n + 1):
        name = f"county-town-{k:02d}.yaml"
        (TOWN_FILES / name).write_text(
            f"jurisdiction: county-town-{k:02d}\nname: County town {k} (generated)\n"
            "extends: demo\nparameters: {}\n",
            encoding="utf-8",
        )
        names.append(name)
    os.chdir(TOWN_FILES)
    return names


def deal_parcels(codes: list[str]) -> None:
    """Every parcel and service area to a town in turn (by id), in one statement per town;
    then each facility to its parcel's town, as the office keeps it."""
    from django.db import connection
    from django.db.models import OuterRef, Subquery

    from sewer_office.registry.models import Establishment, Property

    with connection.cursor() as c:
        for k, code in enumerate(codes):
            for table in ("registry_property", "registry_servicearea"):
                c.execute(
                    f"UPDATE {table} SET jurisdiction = %s WHERE id %% %s = %s",
                    [code, len(codes), k],
                )
    parcel = Property.objects.filter(buildings=OuterRef("building_id")).values("jurisdiction")
    Establishment.objects.update(jurisdiction=Subquery(parcel[:1]))


def keep_towns() -> None:
    """Each record that keeps its parcel's town (a permit, a violation, an inspection) takes
    it, as the office's ``save()`` gives it (the bench writes its records in bulk, before the
    parcels are dealt): from the first of its sources it has, as the migrations copy it."""
    from django.apps import apps

    from sewer_office.core.parcel_towns import sources_town

    for model in apps.get_models():
        if sources := getattr(model, "TOWN_SOURCES", ()):
            model._default_manager.update(jurisdiction=sources_town(apps, sources))


def staff(codes: list[str]) -> dict[str, Any]:
    """A clerk and a Superintendent of the second town, and the plant's coordinator."""
    from sewer_office.accounts import roles
    from sewer_office.accounts.services import create_user

    town = codes[1]
    return {
        "town clerk": create_user("tclerk", "bench", (roles.CLERK,), jurisdictions=(town,)),
        "town superintendent": create_user(
            "tsup", "bench", (roles.SUPERINTENDENT,), jurisdictions=(town,)
        ),
        "coordinator": create_user("coord", "bench", (roles.COORDINATOR,)),
    }


def store_results(args: argparse.Namespace, ests: list[Any], actor: Any) -> None:
    """``--results`` laboratory results over ``--years`` years, one file a year, imported as the
    operator's command imports them."""
    codes = [e.code for e in ests]
    per_year = max(1, args.results // args.years)
    for k in range(args.years):
        data = office_monitoring.lab_file(per_year, codes, FIRST_YEAR + k, seed=k + 1)
        office_monitoring.timed_import(data, f"county-{FIRST_YEAR + k}.csv", actor)


def build(args: argparse.Namespace, codes: list[str]) -> dict[str, Any]:
    from django.db import connection

    t0 = time.perf_counter()
    town = office_pages.generate(args.properties, args.permits)
    users = town["users"]
    ests = office_volume.register_facilities(args.facilities, users)
    deal_parcels(codes)
    print(
        f"county: {len(codes)} towns, {args.properties:,} properties, {town['records']:,} "
        f"permits, {args.facilities:,} industrial users ({time.perf_counter() - t0:.0f} s)"
    )
    from sewer_office.accounts.services import grant_jurisdiction

    for code in codes:  # the importing Superintendent acts for the whole county
        grant_jurisdiction(users["superintendent"], code)
    t0 = time.perf_counter()
    store_results(args, ests, users["superintendent"])
    office_volume.store_violations(args.violations, ests, users)
    keep_towns()
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("VACUUM ANALYZE")
    print(f"results and violations stored ({time.perf_counter() - t0:.0f} s)")
    return staff(codes)


def reuse() -> dict[str, Any] | None:
    """The three accounts of a county a previous ``--keepdb`` run built (None: build one)."""
    from django.contrib.auth import get_user_model

    from sewer_office.monitoring.models import LabResult

    found = {u.username: u for u in get_user_model().objects.filter(username__in=_NAMES.values())}
    if len(found) < len(_NAMES) or not LabResult.objects.exists():
        return None
    return {label: found[name] for label, name in _NAMES.items()}


_NAMES = {"town clerk": "tclerk", "town superintendent": "tsup", "coordinator": "coord"}


def pages(codes: list[str]) -> list[tuple[str, str, str]]:
    """(label, who, url): a town's staff on their town's busiest facility and parcel, the
    coordinator on the plant's lists."""
    from sewer_office.registry.models import Establishment, Property

    town = codes[1]
    facility = (
        Establishment.objects.filter(building__property__jurisdiction=town, code__startswith="F")
        .order_by("code")
        .first()
    )
    parcel = Property.objects.filter(jurisdiction=town).order_by("id").first()
    assert facility is not None and parcel is not None
    year = FIRST_YEAR + 9
    return [
        ("baseline /healthz", "town clerk", "/healthz"),
        ("dashboard (town clerk)", "town clerk", "/"),
        ("dashboard (town superintendent)", "town superintendent", "/"),
        ("dashboard (coordinator)", "coordinator", "/"),
        ("properties list (town clerk)", "town clerk", "/registry/properties/"),
        ("permits list (town clerk)", "town clerk", "/permits/building-sewer/"),
        ("property page (town clerk)", "town clerk", f"/registry/properties/{parcel.pk}/"),
        (
            "facility page (town superintendent)",
            "town superintendent",
            f"/registry/establishments/{facility.pk}/",
        ),
        ("findings list (town superintendent)", "town superintendent", "/monitoring/findings/"),
        ("findings list (coordinator)", "coordinator", "/monitoring/findings/"),
        ("violations list (town superintendent)", "town superintendent", "/enforcement/"),
        ("violations list (coordinator)", "coordinator", "/enforcement/"),
        ("program page (coordinator)", "coordinator", "/pretreatment/"),
        ("annual report as prepared (coordinator)", "coordinator", f"/pretreatment/annual/{year}/"),
    ]


def prepare_annual(client: Any, year: int) -> float:
    """The coordinator prepares the year's annual report (an action, once a year or after a
    change; docs/scale.md): its time in ms. The page measured after is the edition kept."""
    start = time.perf_counter()
    response = client.post(f"/pretreatment/annual/{year}/prepare/")
    assert response.status_code == 302, f"preparing {year}: {response.status_code}"
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = office_pages.volume_parser(__doc__)
    parser.add_argument("--towns", type=int, default=20)
    parser.add_argument("--properties", type=int, default=200_000)
    parser.add_argument("--permits", type=int, default=200_000)
    parser.add_argument("--facilities", type=int, default=2000)
    parser.add_argument("--results", type=int, default=2_400_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--violations", type=int, default=20_000)
    args = parser.parse_args()
    if args.smoke:
        args.towns, args.properties, args.permits, args.facilities = 3, 60, 60, 6
        args.results, args.years, args.violations, args.repeat = 300, 2, 30, 1
        args.keepdb = False
        office_pages.smoke_django()
    else:
        office_pages.setup_django()
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    codes = towns(args.towns)
    settings.SEWER_USE_JURISDICTIONS = codes
    state = office_pages.open_bench_database(args.keepdb, args.smoke)
    try:
        users = reuse() if args.keepdb else None
        if users is None:
            users = build(args, codes)
        else:
            print(f"database: {connection.vendor}; reused (--keepdb)")
            if connection.vendor == "postgresql":
                with connection.cursor() as c:  # a migration may have rewritten a column
                    c.execute("ANALYZE")
        measured = pages(codes)
        clients: dict[str, Any] = {}
        for label, user in users.items():
            clients[label] = Client()
            clients[label].force_login(user)
        prepared = prepare_annual(clients["coordinator"], FIRST_YEAR + 9)
        print(f"preparing the annual report (coordinator, an action): {prepared:.0f} ms")
        for _, who, url in measured:  # warm templates and caches; every page must answer
            status = clients[who].get(url).status_code
            assert status == 200, f"{url} as {who}: {status}"
        print(f"{'page':<40} {'p50':>7} {'p95':>7} {'queries':>8}")
        slow = []
        for label, who, url in measured:
            times, queries = office_volume.measure(clients[who], url, args.repeat)
            p95 = office_pages.p95(times)
            print(f"{label:<40} {statistics.median(times):>7.1f} {p95:>7.1f} {queries:>8}")
            if p95 > 100:
                slow.append(label)
        print("p95 target (≤ 100 ms):", "met" if not slow else f"NOT met for {', '.join(slow)}")
        if args.explain:
            for _, who, url in measured:
                office_volume.explain_slow(clients[who], url)
    finally:
        office_pages.drop_bench_database(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
