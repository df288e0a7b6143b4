"""Production refuses an unsafe configuration at start, with one line naming the variable
(config/settings.py, config/secret_key.py; ``sewer-use serve --production``, ``sewer-use
manage``): the placeholder secret key of deploy/sewer-use.env, a short or guessable key,
``SEWER_USE_DEBUG=1``, hosts ``*``. And the owner's database URL, used by the commands that
change the schema (sewer_cli/cmd_office.py, docs/database-roles.md)."""

from __future__ import annotations

import os
import secrets
import socket
import string
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management.utils import get_random_secret_key

from sewer_cli.cmd_office import OWNER_URL, OWNER_URL_FILE, as_owner
from sewer_cli.main import UsageError
from sewer_office.config import secret_key
from sewer_office.config.secret_key import weakness

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def _deploy_env() -> dict[str, str]:
    """The documented production environment (deploy/sewer-use.env), as shipped."""
    out = {}
    for line in (ROOT / "deploy" / "sewer-use.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    env.update(_deploy_env(), SEWER_USE_DATA_DIR=str(tmp_path))
    # the audit chain's key is another placeholder there (docs/audit-chain.md): a real one
    env["SEWER_USE_AUDIT_KEY"] = "2026-12-06:" + secrets.token_urlsafe(48)
    env.update(extra)
    return env


# --- which keys are refused ----------------------------------------------------------------


def test_the_shipped_key_is_the_placeholder_the_office_refuses() -> None:
    shipped = _deploy_env()["SEWER_USE_SECRET_KEY"]
    assert shipped == secret_key.PLACEHOLDER
    assert weakness(shipped) == "is the placeholder of deploy/sewer-use.env"


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("please-Change-Me-" + secrets.token_urlsafe(48), "placeholder"),
        ("django-insecure-" + secrets.token_urlsafe(48), "development key"),
        (secrets.token_urlsafe(36), "48 characters"),  # 48 random characters: too short
        ("abcd" * 15, "4 distinct characters"),
        ("k" * 40 + secrets.token_hex(8), "low entropy"),
        ("aB3$xY9!qW" * 5, "repeats itself"),
        ("test-" + "Zq8-x_K" * 9, "repeats itself"),
        (string.ascii_letters + string.digits, "sequence"),
        ("9876543210zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLK", "sequence"),
    ],
    # named, not by their random keys: every pytest-xdist worker must collect the same ids
    ids=lambda value: value if " " in value or value.isalpha() else "key",
)
def test_weak_keys_are_refused_with_the_reason(key: str, why: str) -> None:
    assert why in weakness(key)


def test_random_keys_pass() -> None:
    for _ in range(200):
        assert weakness(secrets.token_urlsafe(64)) == ""  # what deploy/sewer-use.env says
        assert weakness(secrets.token_hex(32)) == ""  # 16 symbols: about 3.7 bits a character
        assert weakness(get_random_secret_key()) == ""  # Django's own: 50 characters


def test_the_measures() -> None:
    assert secret_key.bits_per_char("abab") == pytest.approx(1.0)
    assert secret_key.bits_per_char(string.hexdigits[:16]) == pytest.approx(4.0)
    assert secret_key.distinct_trigram_share("abcabcabc") == pytest.approx(3 / 7)
    assert secret_key.neighbour_step_share("abcz") == pytest.approx(2 / 3)


# --- refused at start, one line naming the variable ------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_line_naming(done: subprocess.CompletedProcess[str], variable: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("sewer-use: ") and variable in lines[0], lines[0]


def test_serve_production_refuses_the_shipped_placeholder_key(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert env["SEWER_USE_SECRET_KEY"] == secret_key.PLACEHOLDER
    done = subprocess.run(
        [PY, "-m", "sewer_cli.main", "serve", "--production", "--port", str(_free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    _one_line_naming(done, "SEWER_USE_SECRET_KEY")
    assert "placeholder" in done.stderr and "token_urlsafe" in done.stderr


@pytest.mark.parametrize(
    ("extra", "variable"),
    [
        ({"SEWER_USE_SECRET_KEY": "short-but-random-Zq8x_K"}, "SEWER_USE_SECRET_KEY"),
        ({"SEWER_USE_SECRET_KEY": "x" * 60}, "SEWER_USE_SECRET_KEY"),
        ({"SEWER_USE_DEBUG": "1"}, "SEWER_USE_DEBUG"),
        ({"SEWER_USE_ALLOWED_HOSTS": "*"}, "SEWER_USE_ALLOWED_HOSTS"),
        ({"SEWER_USE_ALLOWED_HOSTS": "sewer.example.org, *"}, "SEWER_USE_ALLOWED_HOSTS"),
        ({"SEWER_USE_ALLOWED_HOSTS": ""}, "SEWER_USE_ALLOWED_HOSTS"),
    ],
)
def test_manage_refuses_an_unsafe_production_setting(
    tmp_path: Path, extra: dict[str, str], variable: str
) -> None:
    env = _env(tmp_path, SEWER_USE_SECRET_KEY=secrets.token_urlsafe(64))
    env.update(extra)
    done = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    _one_line_naming(done, variable)


def test_debug_off_and_a_real_key_start(tmp_path: Path) -> None:
    env = _env(tmp_path, SEWER_USE_SECRET_KEY=secrets.token_urlsafe(64), SEWER_USE_DEBUG="0")
    done = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


# --- the owner's database URL for the commands that change the schema ------------------------


RUNTIME = "postgresql://sewer_use:rt@127.0.0.1:5432/sewer_use"
OWNER = "postgresql://sewer_use_owner:own@127.0.0.1:5432/sewer_use"


def test_owner_url_replaces_the_runtime_url_and_names_the_runtime_role() -> None:
    environ = {"DATABASE_URL": RUNTIME, OWNER_URL: OWNER}
    as_owner(environ)
    assert environ["DATABASE_URL"] == OWNER
    assert environ["SEWER_USE_RUNTIME_ROLE"] == "sewer_use"
    named = {"DATABASE_URL": RUNTIME, OWNER_URL: OWNER, "SEWER_USE_RUNTIME_ROLE": "office_rt"}
    as_owner(named)
    assert named["SEWER_USE_RUNTIME_ROLE"] == "office_rt"
    # no owner configured (a laptop, one role): nothing changes
    alone = {"DATABASE_URL": RUNTIME}
    as_owner(alone)
    assert alone == {"DATABASE_URL": RUNTIME}


def test_owner_url_from_a_file_and_a_clear_error_when_unreadable(tmp_path: Path) -> None:
    credential = tmp_path / "owner-database-url"
    credential.write_text(OWNER + "\n", encoding="utf-8")
    environ = {"DATABASE_URL": RUNTIME, OWNER_URL_FILE: str(credential)}
    as_owner(environ)
    assert environ["DATABASE_URL"] == OWNER and environ["SEWER_USE_RUNTIME_ROLE"] == "sewer_use"
    with pytest.raises(UsageError, match=OWNER_URL_FILE):
        as_owner({"DATABASE_URL": RUNTIME, OWNER_URL_FILE: str(tmp_path / "missing")})
    with pytest.raises(UsageError, match=OWNER_URL):
        as_owner({"DATABASE_URL": RUNTIME, OWNER_URL: "mysql://x@h/db"})
