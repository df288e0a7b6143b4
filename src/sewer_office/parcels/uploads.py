"""An uploaded roll or districts file between its preview and its application.

The preview page reads the upload and shows what it would do; the application is a second
request. The file waits in between in the office's private temporary directory
(:func:`sewer_office.core.uploads.temporary_directory`, mode 0700), named by its kind and its
SHA-256: the second request names only the hash, the file is found and hashed again, read and
classified again — a preview sent back by the browser is never trusted. A file left there
(the clerk never applied it) is removed by the sweep of stale upload files a day later
(:func:`sewer_office.core.uploads.sweep`), and at once once applied.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import uuid
from pathlib import Path
from typing import Any

from sewer_io.parcels import ParcelFileError
from sewer_office.core.errors import shorten, upload_refused
from sewer_office.core.uploads import temporary_directory

from .forms import UPLOAD_SUFFIXES

PREFIX = "parcels-"


def _path(kind: str, sha256: str, suffix: str) -> Path:
    return Path(temporary_directory()) / f"{PREFIX}{kind}-{sha256}{suffix}"


def keep(upload: Any, kind: str) -> tuple[Path, str, str]:
    """Write ``upload`` to the temporary directory: its path, SHA-256 and suffix.
    :class:`ParcelFileError` for a file refused by its name or size."""
    name = str(getattr(upload, "name", "") or "upload")
    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise ParcelFileError(
            f"{shorten(name)}: not a file the import reads (it reads "
            f"{', '.join(UPLOAD_SUFFIXES)}; a Shapefile is uploaded zipped)"
        )
    refusal = upload_refused(name, int(upload.size), "SEWER_USE_MAX_ROLL_UPLOAD_BYTES")
    if refusal:
        raise ParcelFileError(refusal)
    partial = Path(temporary_directory()) / f".{PREFIX}{uuid.uuid4().hex}{suffix}"
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for chunk in upload.chunks():
                digest.update(chunk)
                out.write(chunk)
        sha = digest.hexdigest()
        final = _path(kind, sha, suffix)
        os.replace(partial, final)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return final, sha, suffix


def find(kind: str, sha256: str, suffix: str) -> Path | None:
    """The waiting file with this hash, if it is still there and still has it."""
    if suffix not in UPLOAD_SUFFIXES or len(sha256) != 64:
        return None
    path = _path(kind, sha256, suffix)
    if not path.is_file():
        return None
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return path if digest.hexdigest() == sha256 else None


def discard(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
