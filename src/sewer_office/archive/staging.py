"""An uploaded import kept at the server between its preview and its application.

The preview reads the upload and keeps its bytes in the office's private directory of
temporary upload files (:func:`sewer_office.core.uploads.temporary_directory`, mode 0700) under
a name of the user and the file's SHA-256; the page then asks to apply "the import of this
SHA-256", never sending the file again. Applying reads the bytes back, checks that they still
have that SHA-256, imports them and removes the file. A preview never applied is removed by the
sweep of temporary files a day later (:func:`sewer_office.core.uploads.sweep`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path
from typing import Any

from sewer_office.core.uploads import temporary_directory

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
PREFIX = "archive-"


def _path(user: Any, sha256: str) -> Path:
    if not _SHA256.match(sha256):
        raise ValueError("not a SHA-256")
    return Path(temporary_directory()) / f"{PREFIX}{int(user.pk)}-{sha256}.zip"


def keep(user: Any, data: bytes) -> str:
    """Keep ``data`` for ``user``; its SHA-256 (the key to apply it by)."""
    sha256 = hashlib.sha256(data).hexdigest()
    path = _path(user, sha256)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    partial.chmod(0o600)
    partial.replace(path)
    return sha256


def kept(user: Any, sha256: str) -> bytes | None:
    """The bytes ``user`` previewed under ``sha256``, or None (never kept, applied, or swept)."""
    try:
        data = _path(user, sha256).read_bytes()
    except (OSError, ValueError):
        return None
    return data if hashlib.sha256(data).hexdigest() == sha256 else None


def discard(user: Any, sha256: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        _path(user, sha256).unlink()
