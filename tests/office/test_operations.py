"""Running the office for real: health and readiness, request ids and JSON logs,
the production server behind a proxy, ``check --deploy``, the audit hash chain."""

from __future__ import annotations

import http.client
import io
import itertools
import json
import logging
import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from sewer_office.core import audit, protection
from sewer_office.core.models import AuditEvent
from sewer_office.core.requestlog import JsonFormatter, RequestIdFilter

from .factories import Town
from .server_support import CLI, serving

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    env.update(extra)
    return env


def _deploy_env() -> dict[str, str]:
    """The documented production environment (deploy/sewer-use.env)."""
    out = {}
    for line in (ROOT / "deploy" / "sewer-use.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


# --- health, readiness, request ids, logs ----------------------------------------------------


def test_healthz_answers_without_the_database(client: Any, db: Any) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(connection, "cursor", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
        r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_readyz_checks_database_migrations_and_disk(client: Any, db: Any, settings: Any) -> None:
    r = client.get("/readyz")
    body = r.json()
    assert r.status_code == 200, body
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["migrations"] == {"ok": True, "pending": []}
    assert body["disk"]["ok"] and body["disk"]["free_bytes"] > 0
    settings.SEWER_USE_MIN_FREE_BYTES = 1 << 62  # more than any disk has free
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["status"] == "unavailable" and r.json()["disk"]["ok"] is False


def test_readyz_reports_pending_migrations(client: Any, db: Any) -> None:
    from django.db.migrations.executor import MigrationExecutor

    leaf = ("core", "0003_record_protection")
    with pytest.MonkeyPatch.context() as mp:
        original = MigrationExecutor.migration_plan

        def plan(self: Any, targets: Any, clean_start: bool = False) -> Any:
            node = self.loader.graph.nodes[leaf]
            return [(node, False), *original(self, targets, clean_start)]

        mp.setattr(MigrationExecutor, "migration_plan", plan)
        r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["migrations"] == {"ok": False, "pending": ["core.0003_record_protection"]}


def test_request_id_echoed_or_made_and_logged_as_json(client: Any, db: Any) -> None:
    given = client.get("/healthz", headers={"X-Request-ID": "nginx-0123456789abcdef"})
    assert given["X-Request-ID"] == "nginx-0123456789abcdef"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id\nwith newline"})
    assert re.fullmatch(r"[0-9a-f]{32}", made["X-Request-ID"])
    assert client.get("/healthz")["X-Request-ID"] != made["X-Request-ID"]

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    log = logging.getLogger("sewer_office.request")
    old_level = log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        client.get("/readyz", headers={"X-Request-ID": "req-abcdefgh-42"})
    finally:
        log.removeHandler(handler)
        log.setLevel(old_level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [x for x in lines if x["logger"] == "sewer_office.request"]
    assert access and access[-1]["request_id"] == "req-abcdefgh-42"
    assert access[-1]["path"] == "/readyz" and access[-1]["status"] == 200
    assert access[-1]["method"] == "GET" and access[-1]["duration_ms"] >= 0


def test_json_formatter_writes_exceptions_on_one_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("x").makeRecord(
            "x", logging.ERROR, __file__, 1, "failed %s", ("here",), sys.exc_info()
        )
    text = JsonFormatter().format(record)
    assert "\n" not in text
    out = json.loads(text)
    assert out["message"] == "failed here" and "ValueError: boom" in out["exception"]
    assert out["level"] == "ERROR" and out["request_id"] == ""


# --- production settings and server ----------------------------------------------------------


def test_deploy_check_passes_with_the_documented_production_environment(tmp_path: Path) -> None:
    # the shipped keys are placeholders the office refuses (tests/office/test_production.py)
    keys = {
        "SEWER_USE_SECRET_KEY": secrets.token_urlsafe(64),
        "SEWER_USE_AUDIT_KEY": "2026-12-06:" + secrets.token_urlsafe(48),
    }
    env = _env(**{**_deploy_env(), "SEWER_USE_DATA_DIR": str(tmp_path), **keys})
    assert env["SEWER_USE_PRODUCTION"] == "1"
    done = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout and "WARNING" not in done.stderr


@pytest.fixture
def production_server(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """``sewer-use serve --production`` (gunicorn) on a free port, SQLite, one superuser."""
    env = _env(
        SEWER_USE_PRODUCTION="1",
        SEWER_USE_DATA_DIR=str(tmp_path / "data"),
        SEWER_USE_SECRET_KEY=secrets.token_urlsafe(64),
        SEWER_USE_AUDIT_KEY="2026-12-06:" + "Kq7-y_P" * 6,
        SEWER_USE_ALLOWED_HOSTS="127.0.0.1",
        SEWER_USE_BEHIND_PROXY="1",  # the test plays nginx: X-Forwarded-Proto https
        DJANGO_SUPERUSER_PASSWORD="a-Strong-pass-4-prod",
    )
    subprocess.run([*CLI, "manage", "migrate", "-v0"], env=env, check=True)
    subprocess.run(
        [
            *CLI,
            "manage",
            "createsuperuser",
            "--no-input",
            "--username",
            "chief",
            "--email",
            "chief@example.org",
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    log = tmp_path / "server.log"
    with serving(["--production", "--workers", "1"], env, log) as port:
        yield port, log


def _request(
    port: int, method: str, path: str, cookies: dict[str, str], body: str = "", **headers: str
) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    head = {"X-Forwarded-Proto": "https", **headers}
    if cookies:
        head["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    if body:
        head["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body or None, headers=head)
    response = conn.getresponse()
    response.read()
    for value in response.headers.get_all("Set-Cookie") or []:
        name, _, rest = value.partition("=")
        cookies[name] = rest.split(";", 1)[0]
    return response


def test_production_server_logs_in_through_http(production_server: tuple[int, Path]) -> None:
    from urllib.parse import urlencode

    port, log = production_server
    cookies: dict[str, str] = {}
    assert _request(port, "GET", "/healthz", cookies).status == 200
    assert _request(port, "GET", "/readyz", cookies).status == 200
    # plain HTTP (no proxy header) is sent to HTTPS
    plain = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    plain.request("GET", "/accounts/login/")
    redirect = plain.getresponse()
    assert redirect.status == 301 and redirect.headers["Location"].startswith("https://")
    # static files through WhiteNoise, compressed and cached
    static = _request(port, "GET", "/static/office/htmx-2.0.11.min.js", cookies)
    assert static.status == 200 and "max-age" in (static.headers["Cache-Control"] or "")

    page = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    page.request("GET", "/accounts/login/", headers={"X-Forwarded-Proto": "https"})
    form = page.getresponse()
    html = form.read().decode()
    for value in form.headers.get_all("Set-Cookie") or []:
        name, _, rest = value.partition("=")
        cookies[name] = rest.split(";", 1)[0]
        assert "Secure" in value and "SameSite=Lax" in value
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token and "csrftoken" in cookies
    origin = f"https://127.0.0.1:{port}"
    wrong = _request(
        port,
        "POST",
        "/accounts/login/",
        dict(cookies),
        urlencode({"username": "chief", "password": "nope", "csrfmiddlewaretoken": token[1]}),
        Origin=origin,
    )
    assert wrong.status == 200 and "sessionid" not in cookies
    no_token = _request(
        port,
        "POST",
        "/accounts/login/",
        dict(cookies),
        urlencode({"username": "chief", "password": "a-Strong-pass-4-prod"}),
        Origin=origin,
    )
    assert no_token.status == 403
    done = _request(
        port,
        "POST",
        "/accounts/login/",
        cookies,
        urlencode(
            {
                "username": "chief",
                "password": "a-Strong-pass-4-prod",
                "csrfmiddlewaretoken": token[1],
            }
        ),
        Origin=origin,
        **{"X-Request-ID": "login-request-0001"},
    )
    assert done.status == 302, done.status
    assert "sessionid" in cookies and done.headers["X-Request-ID"] == "login-request-0001"
    # production requires a superuser's second factor: its first page is the enrolment
    home = _request(port, "GET", "/", cookies)
    assert home.status == 302, home.status
    assert home.headers["Location"].startswith("/accounts/second-factor/enrol/")
    assert _request(port, "GET", home.headers["Location"], cookies).status == 200
    assert _request(port, "GET", "/", {}).status == 302  # without the session: to the login

    time.sleep(0.5)
    lines = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
    assert any(
        x.get("request_id") == "login-request-0001" and x.get("status") == 302 for x in lines
    ), log.read_text()[-3000:]


# --- the audit hash chain ----------------------------------------------------------------------


def test_audit_events_are_chained_and_tampering_is_found(town: Town) -> None:
    user = town.users["clerk"]
    for n in range(4):
        audit.record(
            actor=user,
            action=f"test_{n}",
            obj=user,
            after={"n": n, "amount": "12.50", "big": 1e30, "nested": {"b": [1, 2.5, None]}},
            citation="§ 196-22",
        )
    events = list(AuditEvent.objects.order_by("id"))
    assert all(e.digest and len(e.digest) == 64 for e in events)
    assert all(b.prev_hash == a.digest for a, b in itertools.pairwise(events))
    checked, broken = audit.verify_chain()
    assert broken is None and checked == len(events)

    target = events[-2]
    if connection.vendor == "postgresql":  # refused below the application...
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE core_auditevent SET reason = 'x' WHERE id = %s", [target.id])
    # ...and found by the chain when done anyway (the triggers disabled, as an owner could)
    with protection.suspended(connection, "core.AuditEvent"), connection.cursor() as cursor:
        cursor.execute("UPDATE core_auditevent SET reason = 'edited' WHERE id = %s", [target.id])
    checked, broken = audit.verify_chain()
    assert broken is not None and broken.event_id == target.id
    assert "content does not match" in broken.problem and checked == len(events) - 1
    with protection.suspended(connection, "core.AuditEvent"), connection.cursor() as cursor:
        cursor.execute("UPDATE core_auditevent SET reason = '' WHERE id = %s", [target.id])
    assert audit.verify_chain()[1] is None

    removed = events[1]
    with protection.suspended(connection, "core.AuditEvent"), connection.cursor() as cursor:
        cursor.execute("DELETE FROM core_auditevent WHERE id = %s", [removed.id])
    broken = audit.verify_chain()[1]
    assert broken is not None and broken.event_id == events[2].id
    assert "link to the previous event is broken" in broken.problem


def test_record_many_continues_the_chain(town: Town) -> None:
    user = town.users["clerk"]
    audit.record(actor=user, action="one", obj=user)
    audit.record_many(
        actor=user, action="many", model=type(user), ids=list(range(1, 2502)), after={"x": 1}
    )
    audit.record(actor=None, action="after", obj=user)
    checked, broken = audit.verify_chain()
    assert broken is None and checked == AuditEvent.objects.count() >= 2503


@pytest.mark.parametrize(
    ("object_id", "object_repr"),
    [("1", "x"), ("123456", "laboratory result #123456"), ('a"b\\', "é\u2028\x00 ☃")],
)
def test_batch_hasher_gives_the_digest_of_event_hash(object_id: str, object_repr: str) -> None:
    from datetime import UTC, datetime

    from sewer_office.core.chain import batch_hasher, event_hash

    common = {
        "at": datetime(2026, 12, 3, 16, 0, 0, 123456, tzinfo=UTC),
        "actor_id": 3,
        "actor_name": "clerk",
        "action": "approve_result",
        "content_type_id": 12,
        "after": {"state": "approved", "n": 1e30, "list": [True, None, "1"]},
        "state_from": "reported",
        "state_to": "approved",
        "citation": "§ 196-19 I",
    }
    prev = "ab" * 32
    expected = event_hash({**common, "object_id": object_id, "object_repr": object_repr}, prev)
    assert batch_hasher(common)(object_id, object_repr, prev) == expected
    assert batch_hasher(common)(object_id + "x", object_repr, prev) != expected
