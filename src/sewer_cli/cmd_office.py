"""Office commands: ``serve``, ``demo`` and ``manage`` — they hand over to Django.

Django is imported inside the command functions only, so that the rules commands
(``check``, ``slugs``, ``params``, ``sections``) keep working without Django settings.

- ``sewer-use serve [--host 127.0.0.1] [--port 8000] [--production] [--workers N]``:
  Django's development server on a laptop (DEBUG on); gunicorn when ``--production`` is
  given or DEBUG is off (``SEWER_USE_DEBUG=0``); gunicorn refuses to start while migrations
  are pending, collects the static files (served by WhiteNoise) and logs JSON lines.
- ``sewer-use demo [--host] [--port]``: migrate, load the demo town if the database is empty,
  print the URL and the demo logins, serve. Uses the ``demo`` jurisdiction (example fees)
  unless ``SEWER_USE_JURISDICTION`` says otherwise.
- ``sewer-use manage ARGS...``: any Django management command (``migrate``, ``createsuperuser``,
  ``check --deploy``, ``load_demo``...).

``SEWER_USE_DATA_DIR`` (default ``./var``) holds the SQLite database, uploads and the laptop
secret key; ``DATABASE_URL`` selects PostgreSQL.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

SETTINGS = "sewer_office.config.settings"

DEMO_LOGINS = (
    ("superintendent", "Superintendent (inspections, connections, grinders ≥ 3/4 hp)"),
    ("engineer", "Engineer (plan review, industrial and cooling water approvals)"),
    ("inspector", "Building Inspector (private systems, certificates of occupancy)"),
    ("clerk", "Clerk (applications, fees, filings)"),
    ("highway", "Highway Superintendent (road opening permits)"),
    ("viewer", "Viewer (Town Board: read only)"),
    ("owner", "Homeowner with a building sewer permit in progress"),
    ("acme", "Acme Plating Corporation's representative (industrial user)"),
)


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="run the sewer office (web pages and API)")
    _server_args(serve)
    serve.add_argument("--production", action="store_true", help="production settings and gunicorn")
    serve.set_defaults(func=run_serve)

    demo = subparsers.add_parser("demo", help="run the sewer office with the demo town loaded")
    _server_args(demo)
    demo.set_defaults(func=run_demo)

    manage = subparsers.add_parser(
        "manage",
        help="run a Django management command of the office",
        add_help=False,
        prefix_chars="+",  # every option belongs to the Django command, e.g. "manage --help"
    )
    manage.add_argument("args", nargs=argparse.REMAINDER, help="management command and options")
    manage.set_defaults(func=run_manage)


def _server_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--workers", type=int, default=0, help="gunicorn workers (default: CPUs + 1)")


def default_workers(cpus: int | None) -> int:
    """Gunicorn workers when ``--workers`` is not given: one per core and one more.

    Not gunicorn's rule of thumb (2 × cores + 1), which is for workers that mostly wait: an
    office page is mostly Python (templates, the ORM), and PostgreSQL usually shares the
    machine's cores. Measured on the 2-core machine (bench/load_test.py's page mix, 50
    users): 3 workers served 43–46 requests/s at 33–35 ms of worker CPU a request, 5 workers
    41–42 requests/s at 37–38 ms (more processes, more switching between them)."""
    return (cpus or 1) + 1


def _setup(production: bool = False) -> Any:
    """Configure and start Django; returns ``django.conf.settings``."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    if production:
        os.environ["SEWER_USE_PRODUCTION"] = "1"
    django = importlib.import_module("django")
    django.setup()
    return importlib.import_module("django.conf").settings


class NoSuchUser(Exception):
    """``--as USERNAME`` names no office user (exit status 2)."""


def office_user(username: str | None) -> Any:
    """The user ``--as`` names, or None (the command line at the server acts for the office)."""
    if not username:
        return None
    get_user_model = importlib.import_module("django.contrib.auth").get_user_model
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NoSuchUser(f"no user {username!r}")
    return user


def _call(*args: Any, **kwargs: Any) -> None:
    importlib.import_module("django.core.management").call_command(*args, **kwargs)


def _serve(host: str, port: int, workers: int, settings: Any) -> int:
    if settings.DEBUG:
        print(f"Development server (DEBUG on) at http://{host}:{port}/", flush=True)
        _call("runserver", f"{host}:{port}", use_reloader=False)
        return 0
    pending = _pending_migrations()
    if pending:
        print(
            f"sewer-use: {len(pending)} migration(s) not applied ({', '.join(pending[:3])}...): "
            "run `sewer-use manage migrate` first",
            file=sys.stderr,
        )
        return 2
    _call("collectstatic", interactive=False, verbosity=0)
    count = workers or default_workers(os.cpu_count())
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "sewer_office.config.wsgi:application",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(count),
        # The office writes its own access lines (JSON, with the request id); gunicorn's
        # errors go to standard error. Behind a proxy on this machine, trust its headers.
        "--error-logfile",
        "-",
        "--forwarded-allow-ips",
        os.environ.get("SEWER_USE_FORWARDED_ALLOW_IPS", "127.0.0.1,::1"),
        "--timeout",
        os.environ.get("SEWER_USE_WORKER_TIMEOUT", "120"),
    ]
    print(f"gunicorn ({count} workers) at http://{host}:{port}/", flush=True)
    # Replace this process with gunicorn, so that signals (Ctrl-C, a service manager's TERM)
    # reach the server itself and no orphaned workers are left behind.
    os.execve(sys.executable, cmd, os.environ.copy())
    return 0  # not reached


def _pending_migrations() -> list[str]:
    connection = importlib.import_module("django.db").connection
    executor = importlib.import_module("django.db.migrations.executor").MigrationExecutor(
        connection
    )
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{m.app_label}.{m.name}" for m, _ in plan]


def run_serve(args: argparse.Namespace) -> int:
    settings = _setup(production=args.production)
    return _serve(args.host, args.port, args.workers, settings)


def run_demo(args: argparse.Namespace) -> int:
    os.environ.setdefault("SEWER_USE_JURISDICTION", "demo")
    settings = _setup()
    _call("migrate", interactive=False, verbosity=0)
    property_model = importlib.import_module("sewer_office.registry.models").Property
    if not property_model.objects.exists():
        print("Loading the demo town (first run)...", flush=True)
        _call("load_demo")
    print(f"\nThe sewer office: http://{args.host}:{args.port}/", flush=True)
    print(f"Data directory: {settings.DATA_DIR}   Jurisdiction: {settings.SEWER_USE_JURISDICTION}")
    print("Demo logins (password 'demo' for each):")
    for name, role in DEMO_LOGINS:
        print(f"  {name:<15} {role}")
    print(flush=True)
    return _serve(args.host, args.port, args.workers, settings)


def run_manage(args: argparse.Namespace) -> int:
    _setup(production=os.environ.get("SEWER_USE_PRODUCTION") == "1")
    management = importlib.import_module("django.core.management")
    management.execute_from_command_line(["sewer-use manage", *args.args])
    return 0
