"""Read ``DATABASE_URL`` into Django's ``DATABASES`` entry.

Parsed here rather than with a third-party helper so that the office needs no package beyond
the pinned requirements. Supported schemes: ``postgres``/``postgresql`` (psycopg 3) and
``sqlite`` (``sqlite:////absolute/path.db`` or ``sqlite:///relative.db``). Query parameters
become connection ``OPTIONS`` (e.g. ``?sslmode=require``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

_POSTGRES = frozenset({"postgres", "postgresql", "pgsql", "postgresql+psycopg"})


class DatabaseUrlError(ValueError):
    """A ``DATABASE_URL`` the office cannot use."""


def parse_database_url(url: str) -> dict[str, Any]:
    """The ``DATABASES["default"]`` mapping described by ``url``."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    if scheme in _POSTGRES:
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
            "CONN_MAX_AGE": 60,
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
