"""The project around the office: settings, database URLs, deploy checks, migrations, the
command line, the rules/office seam, and the demo town."""

from __future__ import annotations

import ast
import os
import secrets
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from sewer_office.config.database import PREPARE_AFTER, DatabaseUrlError, parse_database_url

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


def test_database_url_parsing(tmp_path: Path) -> None:
    pg = parse_database_url("postgresql://alice:s%40cret@db.example:6543/sewer?sslmode=require")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "sewer",
        "alice",
        "s@cret",
        "db.example",
        "6543",
    )
    # parameters bound by the server and repeated queries prepared, unless the URL says not
    assert pg["OPTIONS"] == {
        "sslmode": "require",
        "server_side_binding": True,
        "prepare_threshold": PREPARE_AFTER,
    }
    pooled = parse_database_url("postgresql://u@h/db?prepare_threshold=none")["OPTIONS"]
    assert pooled == {"server_side_binding": True, "prepare_threshold": None}
    plain = parse_database_url("postgresql://u@h/db?server_side_binding=false&prepare_threshold=0")
    assert plain["OPTIONS"] == {"server_side_binding": False, "prepare_threshold": 0}
    with pytest.raises(DatabaseUrlError, match="prepare_threshold='often'"):
        parse_database_url("postgresql://u@h/db?prepare_threshold=often")
    assert parse_database_url("postgres://postgres@127.0.0.1/x")["PORT"] == ""
    lite = parse_database_url(f"sqlite:///{tmp_path}/x.db")
    assert lite["NAME"] == f"{tmp_path}/x.db" and lite["ENGINE"].endswith("sqlite3")
    for bad in ("mysql://u@h/db", "postgresql://u@h/", "sqlite://"):
        with pytest.raises(DatabaseUrlError):
            parse_database_url(bad)


def test_laptop_settings_create_data_dir_and_key(tmp_path: Path) -> None:
    data = tmp_path / "office-data"
    code = "from django.conf import settings; print(settings.DATABASES['default']['NAME']); print(settings.DEBUG)"
    out = subprocess.run(
        [
            PY,
            "-c",
            "import django,os; os.environ['DJANGO_SETTINGS_MODULE']='sewer_office.config.settings'; django.setup(); "
            + code,
        ],
        env=_env(SEWER_USE_DATA_DIR=str(data)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == [str(data / "sewer_office.sqlite3"), "True"]
    key = data / "secret_key"
    assert key.exists() and oct(key.stat().st_mode)[-3:] == "600"


def test_production_refuses_missing_secrets_and_passes_deploy_check(tmp_path: Path) -> None:
    base = _env(SEWER_USE_DATA_DIR=str(tmp_path), SEWER_USE_PRODUCTION="1")
    missing = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check"], env=base, capture_output=True, text=True
    )
    assert missing.returncode != 0 and "SEWER_USE_SECRET_KEY" in missing.stderr
    env = {
        **base,
        "SEWER_USE_SECRET_KEY": secrets.token_urlsafe(64),
        "SEWER_USE_ALLOWED_HOSTS": "sewer.example.org",
    }
    no_key = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check"], env=env, capture_output=True, text=True
    )
    assert no_key.returncode != 0 and "SEWER_USE_AUDIT_KEY" in no_key.stderr
    env["SEWER_USE_AUDIT_KEY"] = "2026-12-06:" + "a1-B2_c3" * 5
    ok = subprocess.run(
        [PY, "-m", "sewer_cli.main", "manage", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert "no issues" in ok.stdout


def test_cli_rules_commands_do_not_need_django() -> None:
    code = (
        "import sys; from sewer_cli.main import build_parser; p = build_parser(); "
        "a = p.parse_args(['serve', '--port', '9000']); assert a.port == 9000; "
        "assert not [m for m in sys.modules if m == 'django' or m.startswith('django.')], 'django imported'"
    )
    subprocess.run([PY, "-c", code], env=_env(), check=True)


def test_migrations_are_committed(db: Any) -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_sewer_rules_never_imports_django_or_the_office() -> None:
    for path in (ROOT / "src" / "sewer_rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                assert not n.startswith(("django", "rest_framework", "sewer_office")), (
                    f"{path}: imports {n}"
                )


def test_demo_town_has_every_state_and_the_demo_logins(demo_town: Any) -> None:
    from sewer_office.permits.kinds import KINDS
    from sewer_office.registry.models import Establishment, Property

    town = demo_town(seed=4, anchor=date(2026, 3, 2))
    assert 280 <= Property.objects.count() <= 320
    assert Establishment.objects.count() == 40
    assert set(town.users) == {
        "superintendent",
        "engineer",
        "inspector",
        "clerk",
        "highway",
        "viewer",
        "owner",
        "acme",
        "newcomer",
    }
    for kind in KINDS.values():
        present = set(kind.model.objects.values_list("state", flat=True))
        declared = {s.value for s in kind.model.WORKFLOW.states}
        assert present == declared, f"{kind.slug}: missing {sorted(declared - present)}"
    from django.test import Client

    c = Client()
    for username in town.users:
        assert c.login(username=username, password="demo"), username
        assert c.get("/").status_code == 200
    # the portal's newcomer: verified, not linked — its home says what to do, its lists are empty
    c.login(username="newcomer", password="demo")
    assert "not yet linked to any person" in c.get("/").content.decode()
    assert c.get("/api/permits/building-sewer/").json()["results"] == []
    # Acme's periodic report, signed by its recorded signatory, waits for the office's review
    from sewer_office.reports.models import Report
    from sewer_office.reports.services import check_bytes

    [signed] = Report.objects.filter(signature__isnull=False)
    assert signed.establishment.name == "Acme Plating Corporation" and check_bytes(signed).ok
    assert signed.signature.user.username == "acme" and not hasattr(signed, "review")
    assert (
        Property.objects.filter(
            service_area__code="wsttia-phase-3b", wastewater_service="private_system"
        ).count()
        >= 25
    )
    # the pretreatment program: Acme designated, in SNC for the last half (A, B, F)
    from sewer_office.pretreatment.services import current_designation
    from sewer_office.pretreatment.snc_list import snc_list

    listed = snc_list(2025)
    assert [u.establishment.name for u in listed] == ["Acme Plating Corporation"]
    assert listed[0].criteria == ["A", "B", "F"]
    acme = listed[0].establishment
    assert current_designation(acme).status == "siu"  # type: ignore[union-attr]
    assert acme.snc_determinations.get().violation.kind == "significant_noncompliance"
    c.login(username="superintendent", password="demo")
    assert "Acme Plating" in c.get("/pretreatment/snc-list/2025/").content.decode()


def test_load_demo_command_refuses_unsuitable_databases(db: Any, settings: Any) -> None:
    from django.core.management.base import CommandError

    settings.SEWER_USE_JURISDICTION = "wappinger"
    with pytest.raises(CommandError, match="SEWER_USE_JURISDICTION=demo"):
        call_command("load_demo")
    from .factories import make_town

    make_town()
    settings.SEWER_USE_JURISDICTION = "demo"
    with pytest.raises(CommandError, match="already holds a town"):
        call_command("load_demo")


def test_demo_town_is_deterministic(demo_town: Any) -> None:
    """Same seed and anchor → the same town (compared without database ids).

    The default seed, whose determinism the tests' demo cache stands on (``demo_cache``): the
    first town is this process's first build of it (made now, or kept from an earlier test of
    the process), the second a new build, made here."""
    from django.db import transaction

    from sewer_office.demo.build import build_demo_town
    from sewer_office.permits.kinds import KINDS

    def digest() -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = []
        for kind in KINDS.values():
            rows += kind.model.objects.values_list(
                "state", "filed_on", "property__parcel_id", "applicant__name"
            )
        return sorted(rows)

    class Rollback(Exception):
        pass

    seen = []
    for build in (demo_town, build_demo_town):
        try:
            with transaction.atomic():
                build(seed=4, anchor=date(2026, 3, 2))
                seen.append(digest())
                raise Rollback
        except Rollback:
            pass
    assert len(seen[0]) > 150
    assert seen[0] == seen[1]
