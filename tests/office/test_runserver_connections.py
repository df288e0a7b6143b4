"""``sewer-use serve`` without ``--production`` (Django's development server, a thread per
request) leaves no PostgreSQL connection open behind its requests.

With persistent connections (``CONN_MAX_AGE`` 60) every request thread kept its connection
after the thread ended, open and idle until the garbage collector found it: 30 requests at once
left 27 connections open 70 s later. The settings now close a connection at the end of its
request whenever DEBUG is on (config/database.py); gunicorn keeps them for 60 s. The server runs
on the test database, its connections marked by their ``application_name``, and the test counts
them in ``pg_stat_activity`` from a connection of its own (a transaction would see one
snapshot). PostgreSQL only.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from .server_support import serving

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")

REQUESTS = 30
#: At most this many may stay open once the requests are answered (none are expected).
LEFT_OPEN = 2


def _get(url: str) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return dict(json.loads(r.read()))
    except urllib.error.HTTPError as e:  # 503: still an answer that asked the database
        return dict(json.loads(e.read()))


def _open_connections(application: str) -> int:
    import psycopg

    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"] or "postgres",
        dbname=s["NAME"],
        autocommit=True,
    ) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [application]
        ).fetchone()
    return int(row[0]) if row else 0


def test_development_server_closes_its_connections(db: Any, tmp_path: Path) -> None:
    s = connection.settings_dict
    application = f"sewer-runserver-{uuid.uuid4().hex[:8]}"
    url = (
        f"postgresql://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:"
        f"{s['PORT'] or 5432}/{s['NAME']}?application_name={application}"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    env.update(DATABASE_URL=url, SEWER_USE_DATA_DIR=str(tmp_path))
    log = tmp_path / "server.log"
    with serving([], env, log) as port:
        assert "Development server" in log.read_text()
        with ThreadPoolExecutor(REQUESTS) as pool:  # at once: one server thread each
            answers = list(pool.map(_get, [f"http://127.0.0.1:{port}/readyz"] * REQUESTS))
        assert all(a["database"]["ok"] for a in answers), answers[0]
        deadline = time.monotonic() + 30
        left = _open_connections(application)
        while left > LEFT_OPEN and time.monotonic() < deadline:
            time.sleep(0.5)
            left = _open_connections(application)
        assert left <= LEFT_OPEN, f"{left} connections left open after {REQUESTS} requests"
