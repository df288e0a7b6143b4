"""Bounded load test of the office under gunicorn on PostgreSQL: 50 users for 60 seconds.

    .venv/bin/python bench/load_test.py [--users 50] [--seconds 60] [--workers N] [--results 200000]

Everything on 127.0.0.1, and it stops by itself:

1. creates a throw-away PostgreSQL database (``sewer_load_<pid>`` at 127.0.0.1:5432; dropped at
   the end, and its data directory ``/tmp/sewer_load_<pid>`` removed unless a request failed),
   migrates it and fills it with the large town of ``bench/office_pages.py`` (5,000
   properties, 20,000 permits with their histories), ``--facilities`` industrial facilities
   with ``--results`` laboratory results imported through the office, 5,000 violations with
   their notices (``bench/office_volume.py``) and a sewer network of ``--manholes`` manholes;
2. starts ``sewer-use serve --production`` (gunicorn, its default number of workers — CPUs + 1 —
   unless ``--workers`` is given) on a free port, with plain
   HTTP allowed (``SEWER_USE_SSL_REDIRECT=0``, ``SEWER_USE_SECURE_COOKIES=0``: no TLS proxy
   in front here);
3. runs ``--users`` concurrent users (a small asyncio HTTP client, one connection per request,
   no think time) for ``--seconds``: office staff in every role and a facility's owner, each
   signed in with a session of their own, requesting the dashboard, permit, findings and
   violation lists, a facility page, the upstream trace API and — the Superintendent —
   laboratory uploads through the API (each a new small file of 30 results);
4. prints per page: requests, errors, median and p95 latency; in all: requests/s and errors.
   Baseline in the same run: ``/healthz`` (no database, no template) under the same load.
   Targets: 0 errors, ≥ 50 requests/s.

``--smoke`` (the test suite runs it): SQLite instead of PostgreSQL, a tiny town, 2 users for
2 seconds on one worker — every step above, no target but 0 errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

HOST = "127.0.0.1"
AUDIT_KEY = "2026-12-06:" + uuid.uuid4().hex + uuid.uuid4().hex  # one for build and server
SECRET = "load-test-" + uuid.uuid4().hex + uuid.uuid4().hex  # 50 or more, random
#: ``--smoke``: the SQLite file the build and the server share instead of PostgreSQL.
SMOKE_DB: list[Path] = []


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(dbname: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=(
            f"sqlite:///{SMOKE_DB[0]}"
            if SMOKE_DB
            else f"postgresql://postgres@127.0.0.1:5432/{dbname}"
        ),
        SEWER_USE_DATA_DIR=str(data_dir),
        SEWER_USE_SECRET_KEY=SECRET,
        SEWER_USE_AUDIT_KEY=AUDIT_KEY,
        # the users' sessions are made by the script, not signed in with a code: the load is
        # the pages', the second factor's own checks are tests/office/test_signin_lockout.py
        SEWER_USE_SECOND_FACTOR="offered",
        SEWER_USE_ALLOWED_HOSTS=HOST,
        SEWER_USE_SSL_REDIRECT="0",
        SEWER_USE_SECURE_COOKIES="0",
        SEWER_USE_JURISDICTION="demo",
        PYTHONPATH=str(ROOT / "src"),
    )
    return env


def build(args: argparse.Namespace, dbname: str, data_dir: Path) -> dict[str, Any]:
    """Migrate and fill the database; returns the sessions, tokens and URLs the users need."""
    os.environ.update(server_env(dbname, data_dir))
    os.environ["SEWER_USE_PRODUCTION"] = "1"
    os.environ["DJANGO_SETTINGS_MODULE"] = "sewer_office.config.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.authtoken.models import Token

    import office_monitoring
    import office_pages
    import office_volume
    from sewer_office.network.services import import_network
    from sewer_office.registry.models import Person, Property
    from sewer_rules.network import generate_network

    t0 = time.perf_counter()
    schema = Path(os.environ.get(office_pages.SCHEMA_ENV, "") or "/nonexistent")
    if SMOKE_DB and schema.is_file():  # --smoke: the migrated schema of the other benches
        connection.close()
        shutil.copyfile(schema, SMOKE_DB[0])
    call_command("migrate", verbosity=0)
    town = office_pages.generate(args.properties, args.permits)
    users = town["users"]
    ests = office_volume.register_facilities(args.facilities, users)
    left, k = args.results, 0
    while left > 0:
        n = min(left, 1_000_000)
        data = office_monitoring.lab_file(n, [e.code for e in ests], 2020 + k, seed=k + 1)
        office_monitoring.timed_import(data, f"load-{k}.csv", users["superintendent"])
        left, k = left - n, k + 1
    office_volume.store_violations(args.violations, ests, users)
    network = generate_network(args.manholes, seed=1)
    parcels = sorted(
        {
            f["properties"]["parcel"]
            for f in network["features"]
            if f["properties"]["kind"] == "connection"
        }
    )
    owner = Person.objects.create(name="Network owners")
    Property.objects.bulk_create(
        [Property(parcel_id=p, address=f"{p} Sewer St", owner=owner) for p in parcels],
        batch_size=5000,
    )
    import_network(json.dumps(network), users["superintendent"], source_name="load.geojson")
    manholes = sorted(
        f["properties"]["id"] for f in network["features"] if f["properties"]["kind"] == "manhole"
    )
    with connection.cursor() as c:
        c.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    sessions = {}
    for name, user in users.items():
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions[name] = store.session_key
    token = Token.objects.create(user=users["superintendent"]).key
    print(
        f"database {dbname}: {args.properties:,} properties, {town['records']:,} permits, "
        f"{args.facilities} facilities, {args.results:,} results, {args.violations:,} violations, "
        f"{args.manholes:,} manholes (built in {time.perf_counter() - t0:.0f} s)",
        flush=True,
    )
    return {
        "sessions": sessions,
        "token": token,
        "facility": ests[0].pk,
        "facility_codes": [e.code for e in ests],
        "manholes": manholes,
    }


class Stats:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)


async def request(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection(HOST, port)
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    if body:
        head.append(f"Content-Length: {len(body)}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    await writer.drain()
    data = await reader.read()
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    status_line = data.split(b"\r\n", 1)[0].split()
    status = int(status_line[1]) if len(status_line) > 1 else 0
    return status, data.split(b"\r\n\r\n", 1)[-1]


def lab_upload(user: int, n: int, codes: list[str]) -> tuple[bytes, str]:
    """A new small laboratory file (30 results, 10 samples) as multipart form data."""
    start = datetime(2027, 1, 1, 12, tzinfo=UTC) + timedelta(hours=user * 1000 + n)
    rows = ["sample_id,sampled_at,sample_type,parameter,value,unit,facility,sampling_point"]
    for s in range(10):
        at = (start + timedelta(minutes=s)).isoformat()
        code = codes[(user + s) % len(codes)]
        for name, unit, value in (
            ("pH", "SU", "7.2"),
            ("BOD5", "mg/l", "180"),
            ("Copper", "mg/l", "0.2"),
        ):
            rows.append(f"L{user}-{n}-{s},{at},grab,{name},{value},{unit},{code},CM-1")
    boundary = uuid.uuid4().hex
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="load-{user}-{n}.csv"\r\nContent-Type: text/csv\r\n\r\n'
        + "\n".join(rows)
        + f"\n\r\n--{boundary}--\r\n"
    ).encode()
    return body, f"multipart/form-data; boundary={boundary}"


ROLES = ("clerk", "engineer", "superintendent", "inspector", "owner")


async def user_loop(
    i: int, port: int, ctx: dict[str, Any], stats: Stats, stop_at: float, seed: int
) -> None:
    rng = random.Random(seed + i)
    role = ROLES[i % len(ROLES)]
    cookie = {"Cookie": f"sessionid={ctx['sessions'][role]}"}
    fac = ctx["facility"]
    pages: list[tuple[str, str, str]] = [
        ("dashboard", "GET", "/"),
        ("dashboard", "GET", "/"),
        ("permit list", "GET", "/permits/building-sewer/?state=plan_review&page=2"),
        ("findings list", "GET", "/monitoring/findings/"),
        ("violations list", "GET", "/enforcement/"),
        ("facility page", "GET", f"/registry/establishments/{fac}/"),
        ("baseline /healthz", "GET", "/healthz"),
    ]
    if role != "owner":  # the network is shown to the office's staff only
        pages.append(("trace API", "GET", "/api/network/trace/{manhole}/"))
    if role == "superintendent":
        pages.append(("lab upload API", "POST", "/api/monitoring/imports/"))
    n = 0
    while time.monotonic() < stop_at:
        label, method, path = rng.choice(pages)
        headers = dict(cookie)
        body = b""
        expected = (200,)
        if label == "trace API":
            path = path.format(manhole=rng.choice(ctx["manholes"]))
        if label == "lab upload API":
            n += 1
            body, ctype = lab_upload(i, n, ctx["facility_codes"])
            headers = {"Authorization": f"Token {ctx['token']}", "Content-Type": ctype}
            expected = (201,)
        t0 = time.perf_counter()
        try:
            status, payload = await request(port, method, path, headers, body)
        except OSError as e:
            stats.errors[label].append(f"{type(e).__name__}: {e}")
            continue
        elapsed = (time.perf_counter() - t0) * 1000
        stats.times[label].append(elapsed)
        if status not in expected:
            stats.errors[label].append(f"HTTP {status} {path}: {payload[:200]!r}")


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[-1] if len(xs) >= 20 else max(xs)


async def run_load(port: int, ctx: dict[str, Any], users: int, seconds: float) -> Stats:
    stats = Stats()
    stop_at = time.monotonic() + seconds
    await asyncio.gather(*(user_loop(i, port, ctx, stats, stop_at, 16) for i in range(users)))
    return stats


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("gunicorn ended before it answered")
        try:
            status, _ = asyncio.run(request(port, "GET", "/healthz", {}))
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("gunicorn did not answer /healthz")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--workers", type=int, default=0, help="gunicorn workers (default: serve's, CPUs + 1)"
    )
    parser.add_argument("--properties", type=int, default=5000)
    parser.add_argument("--permits", type=int, default=20000)
    parser.add_argument("--facilities", type=int, default=200)
    parser.add_argument("--results", type=int, default=200_000)
    parser.add_argument("--violations", type=int, default=5000)
    parser.add_argument("--manholes", type=int, default=5000)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="SQLite, a tiny town, 2 users for 2 s, 1 worker: that it works, no target",
    )
    args = parser.parse_args()
    import psycopg

    from sewer_cli.cmd_office import default_workers

    dbname = f"sewer_load_{os.getpid()}"
    data_dir = Path("/tmp") / dbname
    data_dir.mkdir(parents=True, exist_ok=True)
    admin: Any = None
    if args.smoke:
        args.users, args.seconds, args.workers = 2, 2.0, 1
        args.properties, args.permits, args.facilities = 30, 60, 2
        args.results, args.violations, args.manholes = 60, 10, 60
        SMOKE_DB.append(data_dir / "smoke.sqlite3")
    else:
        admin = psycopg.connect(
            host=HOST, port=5432, user="postgres", dbname="postgres", autocommit=True
        )
        admin.execute(f'CREATE DATABASE "{dbname}"')
    server: subprocess.Popen[bytes] | None = None
    keep = True  # the data directory (uploads, the server's log) stays after a failed run
    try:
        ctx = build(args, dbname, data_dir)
        from django.db import connections

        connections.close_all()
        port = free_port()
        log = (data_dir / "gunicorn.log").open("wb")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "sewer_cli.main",
                "serve",
                "--production",
                "--host",
                HOST,
                "--port",
                str(port),
                "--workers",
                str(args.workers),
            ],
            env=server_env(dbname, data_dir),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_ready(port, server)
        print(
            f"gunicorn: {args.workers or default_workers(os.cpu_count())} workers at "
            f"http://{HOST}:{port}/; {args.users} users for "
            f"{args.seconds:.0f} s (CPUs: {os.cpu_count()})",
            flush=True,
        )
        t0 = time.perf_counter()
        stats = asyncio.run(run_load(port, ctx, args.users, args.seconds))
        wall = time.perf_counter() - t0
        total = sum(len(v) for v in stats.times.values())
        errors = sum(len(v) for v in stats.errors.values())
        print(f"{'page':<20} {'requests':>9} {'errors':>7} {'median ms':>10} {'p95 ms':>8}")
        for label in sorted(stats.times, key=lambda k: (k.startswith("baseline"), k)):
            xs = stats.times[label]
            print(
                f"{label:<20} {len(xs):>9} {len(stats.errors[label]):>7} "
                f"{statistics.median(xs):>10.0f} {p95(xs):>8.0f}"
            )
        print(
            f"total: {total:,} requests in {wall:.1f} s = {total / wall:.1f} requests/s "
            f"(target ≥ 50), {errors} errors (target 0)"
        )
        for label, errs in stats.errors.items():
            for e in errs[:3]:
                print(f"  error {label}: {e}")
        keep = errors > 0
        return 0 if errors == 0 and (total or not args.smoke) else 1
    finally:
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # gunicorn and its workers, started above
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        if admin is not None:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (dbname,),
            )
            admin.execute(f'DROP DATABASE IF EXISTS "{dbname}"')
            admin.close()
        if keep:
            print(f"server log and uploads kept in {data_dir}", flush=True)
        else:
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
