"""An upload held between an import's preview and its application (core.held_uploads): found
again only by its SHA-256 and only while its bytes still have it, private, swept a day later."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from sewer_office.core import uploads
from sewer_office.core.held_uploads import META_SUFFIX, HeldUploads


@pytest.fixture(autouse=True)
def _own_temporary_directory(settings: Any, tmp_path: Path) -> None:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "tmp")


def _files() -> list[str]:
    return sorted(p.name for p in Path(uploads.temporary_directory()).iterdir())


def test_a_streamed_file_is_held_privately_under_its_sha256() -> None:
    held = HeldUploads("things-")
    kept = held.keep([b"abc", b"def"], owner="roll", suffix=".csv")
    sha = hashlib.sha256(b"abcdef").hexdigest()
    assert kept.sha256 == sha
    assert kept.path.name == f"things-roll-{sha}.csv"
    assert _files() == [kept.path.name]  # nothing half-written left beside it
    assert stat.S_IMODE(kept.path.stat().st_mode) == 0o600
    assert held.find(sha, owner="roll", suffix=".csv") == kept.path
    assert held.read(sha, owner="roll", suffix=".csv") == b"abcdef"
    # another owner, suffix or app does not find it
    assert held.find(sha, owner="districts", suffix=".csv") is None
    assert held.read(sha, owner="roll", suffix=".zip") is None
    assert HeldUploads("other-").read(sha, owner="roll", suffix=".csv") is None
    held.discard(sha, owner="roll", suffix=".csv")
    assert held.find(sha, owner="roll", suffix=".csv") is None and _files() == []


def test_a_file_changed_since_or_a_name_not_ours_is_not_found() -> None:
    held = HeldUploads("things-")
    sha = held.keep_bytes(b"the roll", owner=7)
    (Path(uploads.temporary_directory()) / f"things-7-{sha}").write_bytes(b"another roll")
    assert held.find(sha, owner=7) is None and held.read(sha, owner=7) is None
    for bad in ("../" + sha[3:], sha.upper(), sha[:-1], ""):
        assert held.read(bad, owner=7) is None and held.find(bad, owner=7) is None
    assert held.read(sha, owner="../7") is None
    assert held.read(sha, owner=7, suffix="/x") is None
    with pytest.raises(ValueError):
        held.keep_bytes(b"x", suffix="/../x")
    with pytest.raises(ValueError):
        HeldUploads("../up")


def test_metadata_is_kept_beside_the_file_and_discarded_with_it() -> None:
    held = HeldUploads("sheets-")
    sha = held.keep_bytes(b"a,b\n1,2\n", suffix=".data", meta={"name": "a.csv", "sheet": ""})
    assert held.meta(sha, suffix=".data") == {"name": "a.csv", "sheet": ""}
    held.set_meta(sha, {"name": "a.csv", "sheet": "Users"}, suffix=".data")
    assert held.meta(sha, suffix=".data") == {"name": "a.csv", "sheet": "Users"}
    assert _files() == [f"sheets-{sha}.data", f"sheets-{sha}.data{META_SUFFIX}"]
    held.discard(sha, suffix=".data")
    assert held.meta(sha, suffix=".data") is None and _files() == []


def test_a_held_file_never_applied_is_swept_a_day_later() -> None:
    held = HeldUploads("things-")
    old = held.keep([b"old"], owner="roll", suffix=".csv").path
    new = held.keep([b"new"], owner="roll", suffix=".csv").path
    day_ago = time.time() - 25 * 3600
    os.utime(old, (day_ago, day_ago))
    assert uploads.sweep() == [old]
    assert not old.exists() and new.exists()
