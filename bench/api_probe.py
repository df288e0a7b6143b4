"""The API probed as an attacker would, over HTTP: schemathesis against a live production office.

    .venv/bin/python bench/api_probe.py [--examples 25] [--workers 2] [--seed 31]

Everything on 127.0.0.1, and it stops by itself:

1. creates a throw-away PostgreSQL database (``sewer_probe_<pid>`` at 127.0.0.1:5432, dropped
   at the end), migrates it and loads the demo town;
2. gives an API token to a staff user (the Superintendent, who may do the most: enrolled with
   an authenticator, the token asked of ``POST /api/token/`` with the password and the code, as
   production requires of that role) and to an outside user (``acme``, an industrial user's
   account, with ``drf_create_token``);
3. starts ``sewer-use serve --production`` (gunicorn, the production settings: a generated
   secret key and audit key, plain HTTP allowed since no TLS proxy stands in front here);
4. runs ``schemathesis run`` over ``/api/schema/`` once per token, and once without any, with
   ``--max-examples`` generated requests per operation (valid and invalid: odd characters, NUL
   bytes, huge numbers, far dates), the check that no answer is a server error;
5. prints per identity: operations, requests, server errors (from schemathesis's JSON report),
   and whether the server logged a traceback. Target: 0 server errors for every identity.

``--smoke`` (the test suite runs it) starts no server: it checks that schemathesis and
``sewer-use serve`` still take every option the probe passes them. The in-process
counterpart that runs in ``make test`` is ``tests/office/test_hostile_schema.py``
(every role, fewer examples, the response-schema checks too).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(dbname: str, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SEWER_USE_"))}
    env.update(
        DATABASE_URL=f"postgresql://postgres@{HOST}:5432/{dbname}",
        SEWER_USE_PRODUCTION="1",
        SEWER_USE_DATA_DIR=str(data_dir),
        SEWER_USE_SECRET_KEY=secrets.token_urlsafe(64),
        SEWER_USE_AUDIT_KEY=f"2026-12-06:{secrets.token_urlsafe(48)}",
        SEWER_USE_ALLOWED_HOSTS=HOST,
        SEWER_USE_SSL_REDIRECT="0",
        SEWER_USE_SECURE_COOKIES="0",
        SEWER_USE_SERVE_STATIC="1",
        SEWER_USE_JURISDICTION="demo",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    return env


def sewer_use(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "sewer-use"), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"sewer-use {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def token_for(env: dict[str, str], username: str) -> str:
    out = sewer_use(env, "manage", "drf_create_token", username)
    return out.split()[2]  # "Generated token <key> for user <name>"


def enrol(env: dict[str, str], username: str) -> str:
    """An authenticator for ``username`` (production asks the Superintendent for its code):
    a confirmed TOTP device with a key of ours, as enrolment at /accounts/second-factor/
    leaves it; returns the key (hex)."""
    key = secrets.token_hex(20)
    sewer_use(
        env,
        "manage",
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model\n"
        "from django_otp.plugins.otp_totp.models import TOTPDevice\n"
        f"user = get_user_model().objects.get(username={username!r})\n"
        f"TOTPDevice.objects.create(user=user, name='probe', key={key!r}, confirmed=True)",
    )
    return key


def token_with_code(base: str, username: str, key: str) -> str:
    """``POST /api/token/`` with the password and the authenticator's current code."""
    from django_otp.oath import totp

    body = json.dumps(
        {"username": username, "password": "demo", "otp": f"{totp(bytes.fromhex(key)):06d}"}
    ).encode()
    request = urllib.request.Request(
        f"{base}/api/token/", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.load(answer)["token"])


def wait_healthy(base: str, server: subprocess.Popen[bytes], deadline: float) -> None:
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server stopped before it answered")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the server did not answer /healthz in time")


def probe_command(
    base: str, token: str | None, args: argparse.Namespace, report: Path
) -> list[str]:
    """The schemathesis command line of one identity's probe."""
    cmd = [
        str(BIN / "schemathesis"),
        "run",
        f"{base}/api/schema/",
        "--checks",
        "not_a_server_error",
        "--max-examples",
        str(args.examples),
        "--workers",
        str(args.workers),
        "--seed",
        str(args.seed),
        "--continue-on-failure",
        "--report",
        "ndjson",
        "--report-ndjson-path",
        str(report),
        "--request-timeout",
        "60",
        "--no-color",
    ]
    if token:
        cmd += ["--header", f"Authorization: Token {token}"]
    return cmd


def probe(base: str, token: str | None, args: argparse.Namespace, report: Path) -> dict[str, Any]:
    cmd = probe_command(base, token, args, report)
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    return {
        "seconds": seconds,
        "exit": done.returncode,
        **tally(report),
        "tail": done.stdout[-600:],
    }


def tally(report: Path) -> dict[str, Any]:
    """Operations, requests and server errors from schemathesis's NDJSON events."""
    operations: set[str] = set()
    requests = 0
    server_errors = 0
    statuses: dict[int, int] = {}
    for line in report.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        for step in _scenario_steps(event):
            operations.add(step.get("label", ""))
            for interaction in step.get("interactions", {}).values():
                response = interaction.get("response") or {}
                status = response.get("status_code")
                if status is None:
                    continue
                requests += 1
                statuses[status] = statuses.get(status, 0) + 1
                server_errors += status >= 500
    return {
        "operations": len(operations - {""}),
        "requests": requests,
        "server_errors": server_errors,
        "statuses": dict(sorted(statuses.items())),
    }


def _scenario_steps(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The recorded steps of a ``ScenarioFinished`` event (the shape of schemathesis 4)."""
    finished = event.get("ScenarioFinished")
    if not finished:
        return []
    recorder = finished.get("recorder", {})
    cases = recorder.get("cases", {})
    interactions = recorder.get("interactions", {})
    label = recorder.get("label", "")
    return [{"label": label, "interactions": {k: v for k, v in interactions.items() if k in cases}}]


def smoke(args: argparse.Namespace) -> int:
    """The probe's tools still take the probe's command lines (what rots first when
    schemathesis or the serve command changes), in seconds: each option of the schemathesis
    command and of ``sewer-use serve`` is looked up in the tool's own ``--help``."""
    wanted = {
        "schemathesis run": probe_command("http://x", "t", args, Path("r.ndjson")),
        "sewer-use serve": ["serve", "--production", "--port", "1"],
    }
    helps = {
        "schemathesis run": [str(BIN / "schemathesis"), "run", "--help"],
        "sewer-use serve": [str(BIN / "sewer-use"), "serve", "--help"],
    }
    missing = []
    for tool, cmd in helps.items():
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            missing.append(f"{tool}: --help exits {done.returncode}: {done.stderr[-300:]}")
            continue
        missing += [
            f"{tool}: no option {o}"
            for o in wanted[tool]
            if o.startswith("--") and o not in done.stdout
        ]
    for line in missing:
        print(line, file=sys.stderr)
    print(f"api_probe --smoke: {'OK' if not missing else 'BROKEN'}")
    return 1 if missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--examples", type=int, default=25, help="requests per operation")
    parser.add_argument("--workers", type=int, default=2, help="schemathesis workers")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="no server: that schemathesis and sewer-use serve still take every option used",
    )
    args = parser.parse_args()
    if args.smoke:
        return smoke(args)

    import psycopg

    dbname = f"sewer_probe_{os.getpid()}"
    admin = psycopg.connect(f"postgresql://postgres@{HOST}:5432/postgres", autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{dbname}"')
    admin.execute(f'CREATE DATABASE "{dbname}"')
    data_dir = Path(tempfile.mkdtemp(prefix="sewer_probe_"))
    env = server_env(dbname, data_dir)
    server: subprocess.Popen[bytes] | None = None
    log = data_dir / "server.log"
    try:
        sewer_use(env, "manage", "migrate", "--verbosity", "0")
        sewer_use(env, "manage", "load_demo", "--verbosity", "0")
        key = enrol(env, "superintendent")
        tokens = {"acme": token_for(env, "acme")}
        port = free_port()
        base = f"http://{HOST}:{port}"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [str(BIN / "sewer-use"), "serve", "--production", "--port", str(port)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_healthy(base, server, time.monotonic() + 120)
        tokens = {"superintendent": token_with_code(base, "superintendent", key), **tokens}
        results = {}
        for who, token in [*tokens.items(), ("anonymous", None)]:
            results[who] = probe(base, token, args, data_dir / f"{who}.ndjson")
        tracebacks = log.read_text(encoding="utf-8", errors="replace").count("Traceback")
        print(f"{'identity':<16}{'operations':>11}{'requests':>10}{'5xx':>6}{'seconds':>9}")
        for who, r in results.items():
            print(
                f"{who:<16}{r['operations']:>11}{r['requests']:>10}"
                f"{r['server_errors']:>6}{r['seconds']:>9.0f}"
            )
            print(f"{'':<16}statuses {r['statuses']}")
        print(f"tracebacks in the server's log: {tracebacks}")
        failed = tracebacks > 0 or any(r["server_errors"] for r in results.values())
        if failed:
            for who, r in results.items():
                if r["server_errors"]:
                    print(f"--- {who}\n{r['tail']}")
        return 1 if failed else 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        admin.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        admin.close()
        if log.exists() and "Traceback" in log.read_text(errors="replace"):
            print(f"server log kept in {data_dir}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
