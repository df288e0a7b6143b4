"""A backup holds the sessions, API tokens and password hashes: its directory is 0700 and every
file in it 0600, whatever the umask of the process that wrote it (core/backup.py), and every
systemd unit of the office runs with ``UMask=0077``."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEWER_USE = str(Path(sys.executable).with_name("sewer-use"))


def _cli(data: Path, *args: str) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SEWER_USE_", "DJANGO_", "DATABASE_URL"))
    }
    env.update(SEWER_USE_DATA_DIR=str(data), SEWER_USE_JURISDICTION="demo")
    # a permissive umask, as a shell's: the backup must not depend on the caller's
    done = subprocess.run(
        [SEWER_USE, *args], env=env, capture_output=True, text=True, umask=0o002, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_backup_is_readable_by_the_office_user_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _cli(data, "manage", "migrate", "-v0")
    upload = data / "media" / "attachments" / "permit" / "1" / "plan.pdf"
    upload.parent.mkdir(parents=True)
    upload.write_bytes(b"%PDF-1.4 plan")
    upload.chmod(0o664)
    backup = tmp_path / "backups" / "tonight"
    _cli(data, "backup", str(backup))
    modes = {
        path.relative_to(backup).as_posix(): stat.S_IMODE(path.stat().st_mode)
        for path in [backup, *backup.rglob("*")]
    }
    assert "manifest.json" in modes and "media/attachments/permit/1/plan.pdf" in modes
    wrong = {
        name: oct(mode)
        for name, mode in modes.items()
        if mode != (0o700 if (backup / name).is_dir() else 0o600)
    }
    assert wrong == {}, wrong


def test_every_systemd_unit_sets_a_private_umask() -> None:
    units = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
    assert units
    for unit in units:
        lines = unit.read_text(encoding="utf-8").splitlines()
        service = lines[lines.index("[Service]") :]
        assert "UMask=0077" in service, unit.name
