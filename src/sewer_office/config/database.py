"""Read ``DATABASE_URL`` into Django's ``DATABASES`` entry.

Parsed here rather than with a third-party helper so that the office needs no package beyond
the pinned requirements. Supported schemes: ``postgres``/``postgresql`` (psycopg 3) and
``sqlite`` (``sqlite:////absolute/path.db`` or ``sqlite:///relative.db``). Query parameters
become connection ``OPTIONS`` (e.g. ``?sslmode=require``).

On PostgreSQL the parameters of a query are bound by the server and a query run
:data:`PREPARE_AFTER` times on a connection is prepared (psycopg's automatic preparation), so
that the office's queries, the same on every page view, are parsed and planned once per
connection instead of once per request: planning was more than half of PostgreSQL's time on a
staff dashboard (6.8 ms of 11.5), and the load test served 7 % more requests a second with it.
Django leaves both off by default for connection poolers in transaction mode, which cannot
keep a statement prepared on one server session for the next transaction: behind such a
pooler, add ``?prepare_threshold=none`` (and ``server_side_binding=false`` if the pooler
cannot bind either) to ``DATABASE_URL``.

Connections persist :data:`PERSISTENT_SECONDS` under gunicorn (a worker serves its requests one
after another on one connection) and not at all under Django's development server
(``persistent=False``, which the settings pass when DEBUG is on, as Django advises): it runs
each request in a new thread, and a persistent connection outlives its thread — open and idle
until the garbage collector finds it (30 requests at once left 27 connections open after 70 s
idle; none with the connection closed at the end of each request).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

_POSTGRES = frozenset({"postgres", "postgresql", "pgsql", "postgresql+psycopg"})
#: Executions of a query on one connection after which psycopg prepares it (module docstring).
PREPARE_AFTER = 2
#: Seconds a connection is kept for the next request (``CONN_MAX_AGE``) when persistent.
PERSISTENT_SECONDS = 60
_TRUE = frozenset({"1", "true", "yes", "on"})


def truthy(text: str) -> bool:
    """Whether a setting's text says yes (``1``, ``true``, ``yes``, ``on``, any case)."""
    return text.strip().lower() in _TRUE


class DatabaseUrlError(ValueError):
    """A ``DATABASE_URL`` the office cannot use."""


def parse_database_url(url: str, *, persistent: bool = True) -> dict[str, Any]:
    """The ``DATABASES["default"]`` mapping described by ``url``; ``persistent=False``: each
    connection closed at the end of its request (the development server, module docstring)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    if scheme in _POSTGRES:
        options = _postgres_options(options)
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise DatabaseUrlError("DATABASE_URL names no database (postgresql://user@host/NAME)")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": PERSISTENT_SECONDS if persistent else 0,
            "CONN_HEALTH_CHECKS": True,
        }
    if scheme == "sqlite":
        raw = unquote(parts.path)
        # sqlite:////abs/path -> path "//abs/path"; sqlite:///rel.db -> "/rel.db"
        path = raw[1:] if raw.startswith("//") else raw.lstrip("/")
        if not path:
            raise DatabaseUrlError("DATABASE_URL names no SQLite file (sqlite:///path/to/file.db)")
        return sqlite_database(Path(path))
    raise DatabaseUrlError(
        f"unsupported DATABASE_URL scheme {parts.scheme!r}: use postgresql://... or sqlite:///..."
    )


def _postgres_options(given: dict[str, Any]) -> dict[str, Any]:
    """Server-side binding and prepared statements on unless the URL says otherwise; the two
    options read as Django and psycopg want them (a boolean, a number or None), not as text."""
    options = {"server_side_binding": True, "prepare_threshold": PREPARE_AFTER, **given}
    binding = options["server_side_binding"]
    if isinstance(binding, str):
        options["server_side_binding"] = truthy(binding)
    threshold = options["prepare_threshold"]
    if isinstance(threshold, str):
        text = threshold.strip().lower()
        if text in ("", "none", "off", "false"):
            options["prepare_threshold"] = None
        elif text.isdigit():
            options["prepare_threshold"] = int(text)
        else:
            raise DatabaseUrlError(
                f"prepare_threshold={threshold[:40]!r} in DATABASE_URL: a whole number of "
                "executions, or none to prepare no statement"
            )
    return options


def sqlite_database(path: Path) -> dict[str, Any]:
    """A SQLite file database with settings that suit a small office (WAL, busy timeout)."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }
