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

Settings the office refuses (production with a placeholder secret key, ``SEWER_USE_DEBUG=1``,
hosts ``*``...) stop every office command with one line naming the variable, exit status 2.

Two PostgreSQL roles (docs/database-roles.md): the office runs as ``DATABASE_URL``'s role, which
owns no table; the commands that change the schema or the grants (:data:`OWNER_COMMANDS`,
``restore``) connect as the owner, ``SEWER_USE_OWNER_DATABASE_URL`` (or the file
``SEWER_USE_OWNER_DATABASE_URL_FILE`` names), when it is set — and grant the runtime role,
``SEWER_USE_RUNTIME_ROLE`` or else ``DATABASE_URL``'s user, its privileges after migrating.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from .main import UsageError

SETTINGS = "sewer_office.config.settings"
#: Management commands run as the tables' owner when ``SEWER_USE_OWNER_DATABASE_URL`` is set.
OWNER_COMMANDS = frozenset({"migrate", "grant_runtime_role"})
OWNER_URL = "SEWER_USE_OWNER_DATABASE_URL"
OWNER_URL_FILE = "SEWER_USE_OWNER_DATABASE_URL_FILE"

DEMO_LOGINS = (
    ("superintendent", "Superintendent (inspections, connections, grinders ≥ 3/4 hp)"),
    ("engineer", "Engineer (plan review, industrial and cooling water approvals)"),
    ("inspector", "Building Inspector (private systems, certificates of occupancy)"),
    ("clerk", "Clerk (applications, fees, filings)"),
    ("highway", "Highway Superintendent (road opening permits)"),
    ("viewer", "Viewer (Town Board: read only)"),
    ("owner", "Homeowner with a building sewer permit in progress"),
    ("acme", "Acme Plating Corporation's representative (industrial user)"),
    ("coordinator", "The plant's pretreatment coordinator (every member town)"),
    ("poughkeepsie-clerk", "Town of Poughkeepsie clerk (that town's records only)"),
    ("poughkeepsie-engineer", "Town of Poughkeepsie Town Engineer (that town's records only)"),
)
#: The towns ``sewer-use demo`` serves unless ``SEWER_USE_JURISDICTIONS`` says otherwise.
DEMO_MEMBER_TOWNS = "demo,town-of-poughkeepsie"


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


def _setup(production: bool = False, owner: bool = False) -> Any:
    """Configure and start Django; returns ``django.conf.settings``. ``owner``: connect as the
    tables' owner when one is configured (:func:`as_owner`). Settings the office refuses are
    a :class:`UsageError` (one line naming the variable, exit status 2), not a traceback."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    if production:
        os.environ["SEWER_USE_PRODUCTION"] = "1"
    if owner:
        as_owner(os.environ)
    django = importlib.import_module("django")
    refused = (
        importlib.import_module("django.core.exceptions").ImproperlyConfigured,
        importlib.import_module("sewer_office.config.database").DatabaseUrlError,
    )
    try:
        django.setup()
    except refused as e:
        raise UsageError(str(e)) from None
    return importlib.import_module("django.conf").settings


def owner_database_url(environ: MutableMapping[str, str]) -> str:
    """The owner's database URL: ``SEWER_USE_OWNER_DATABASE_URL``, or the content of the file
    ``SEWER_USE_OWNER_DATABASE_URL_FILE`` names (a systemd credential), or ""."""
    url = environ.get(OWNER_URL, "").strip()
    path = environ.get(OWNER_URL_FILE, "").strip()
    if url or not path:
        return url
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as e:
        raise UsageError(f"{OWNER_URL_FILE}: cannot read {path}: {e.strerror}") from None


def as_owner(environ: MutableMapping[str, str]) -> None:
    """Point ``DATABASE_URL`` at the tables' owner, if one is configured, for a command that
    changes the schema or the grants; the runtime role to grant after a ``migrate`` is
    ``SEWER_USE_RUNTIME_ROLE``, or else the user of the ``DATABASE_URL`` being replaced."""
    url = owner_database_url(environ)
    if not url:
        return
    parse = importlib.import_module("sewer_office.config.database").parse_database_url
    try:
        owner = parse(url)
    except ValueError as e:
        raise UsageError(f"{OWNER_URL}: {e}") from None
    runtime_url = environ.get("DATABASE_URL", "").strip()
    if runtime_url and not environ.get("SEWER_USE_RUNTIME_ROLE", "").strip():
        try:
            runtime_user = str(parse(runtime_url).get("USER", ""))
        except ValueError as e:
            raise UsageError(str(e)) from None
        if runtime_user and runtime_user != owner.get("USER"):
            environ["SEWER_USE_RUNTIME_ROLE"] = runtime_user
    environ["DATABASE_URL"] = url


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
    # the demo town and a member town under its own law, on one plant (docs/jurisdictions.md)
    os.environ.setdefault("SEWER_USE_JURISDICTIONS", DEMO_MEMBER_TOWNS)
    settings = _setup()
    _call("migrate", interactive=False, verbosity=0)
    property_model = importlib.import_module("sewer_office.registry.models").Property
    if not property_model.objects.exists():
        print("Loading the demo town (first run)...", flush=True)
        _call("load_demo")
    else:
        _warn_if_one_town(property_model, settings)
    print(f"\nThe sewer office: http://{args.host}:{args.port}/", flush=True)
    towns = ", ".join(
        dict.fromkeys([settings.SEWER_USE_JURISDICTION, *settings.SEWER_USE_JURISDICTIONS])
    )
    print(f"Data directory: {settings.DATA_DIR}   Jurisdictions: {towns}")
    print("Demo logins (password 'demo' for each):")
    width = max(len(name) for name, _ in DEMO_LOGINS)
    for name, role in DEMO_LOGINS:
        print(f"  {name:<{width}}  {role}")
    print(flush=True)
    return _serve(args.host, args.port, args.workers, settings)


def _warn_if_one_town(property_model: Any, settings: Any) -> None:
    """A data directory loaded by an earlier demo of one town holds no member town's parcel,
    and its staff act for no town of an office of several: say how to load the two towns."""
    members = [t for t in settings.SEWER_USE_JURISDICTIONS if t != settings.SEWER_USE_JURISDICTION]
    if members and not property_model.objects.filter(jurisdiction__in=members).exists():
        print(
            f"Note: {settings.DATA_DIR} holds a demo of one town, loaded before the demo served "
            f"{', '.join(members)} too; its staff see no records in an office of several towns. "
            "Move that directory away (or set SEWER_USE_DATA_DIR) to load the two-town demo, or "
            "run SEWER_USE_JURISDICTIONS= make run for the one-town demo.",
            flush=True,
        )


def run_manage(args: argparse.Namespace) -> int:
    owner = bool(args.args) and args.args[0] in OWNER_COMMANDS
    _setup(production=os.environ.get("SEWER_USE_PRODUCTION") == "1", owner=owner)
    management = importlib.import_module("django.core.management")
    management.execute_from_command_line(["sewer-use manage", *args.args])
    return 0
