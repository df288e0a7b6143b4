"""The uploaded spreadsheet kept on the server between the steps of an import.

Upload, mapping, preview and apply are separate requests (the pages work without script), and
what is applied must be the file uploaded, never a preview sent back by the browser. So the
upload is written once to the office's private temporary directory
(:func:`sewer_office.core.uploads.temporary_directory`), named by its SHA-256, and every later
step reads it again by that digest, checking that the bytes still hash to it. Its file name and
the sheet asked for are kept beside it. The file is removed when its import is applied; one
left behind (an import never applied) is removed by the office's sweep a day later
(:func:`sewer_office.core.uploads.sweep`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sewer_office.core.uploads import temporary_directory

DIGEST = re.compile(r"^[0-9a-f]{64}$")
PREFIX = "onboarding-"


@dataclass(frozen=True)
class Held:
    """An upload kept between the steps: its bytes, digest, file name and sheet."""

    data: bytes
    digest: str
    name: str
    sheet: str


def _paths(digest: str) -> tuple[Path, Path]:
    if not DIGEST.match(digest):
        raise ValueError("not a SHA-256 digest")
    folder = Path(temporary_directory())
    return folder / f"{PREFIX}{digest}.data", folder / f"{PREFIX}{digest}.json"


def _write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".partial-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def keep(data: bytes, name: str, sheet: str = "") -> str:
    """Keep ``data`` (named ``name``; ``sheet`` asked for) and return its digest."""
    digest = hashlib.sha256(data).hexdigest()
    data_path, meta_path = _paths(digest)
    _write(data_path, data)
    _write(meta_path, json.dumps({"name": name, "sheet": sheet}).encode())
    return digest


def load(digest: str) -> Held | None:
    """The upload kept under ``digest``; None when there is none (never kept, applied, swept,
    or not a digest) or its bytes no longer hash to it."""
    try:
        data_path, meta_path = _paths(digest)
        data = data_path.read_bytes()
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        return None
    return Held(data, digest, str(meta.get("name", "")), str(meta.get("sheet", "")))


def set_sheet(digest: str, sheet: str) -> None:
    """Record the sheet to read of a kept workbook."""
    held = load(digest)
    if held is not None:
        _write(_paths(digest)[1], json.dumps({"name": held.name, "sheet": sheet}).encode())


def forget(digest: str) -> None:
    """Remove the upload kept under ``digest`` (after its import is applied)."""
    with contextlib.suppress(ValueError):
        for path in _paths(digest):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
