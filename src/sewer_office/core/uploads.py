"""Temporary files of uploads: in one private directory, removed when an upload fails, and the
leftovers of a killed process swept a day later.

Where an upload passes through a temporary file:

- Django streams an upload larger than ``FILE_UPLOAD_MAX_MEMORY_SIZE`` to a file in
  ``FILE_UPLOAD_TEMP_DIR`` (the data directory's ``tmp/``, mode 0700, set in the settings),
  removed when the request ends (its files are closed) or the upload is interrupted;
  :func:`discard_interrupted` removes it at once when reading the request fails midway
  (a client that disconnects, a broken stream), rather than when the garbage collector gets to it.
- :class:`~sewer_office.core.storage.AtomicFileSystemStorage` writes ``.partial-*`` beside
  the final place under ``MEDIA_ROOT``, removed in a ``finally`` whatever fails.
- The meter readings import writes the upload to a temporary directory under
  ``FILE_UPLOAD_TEMP_DIR`` (:func:`temporary_directory`), removed when the import ends.
- An import previewed on one page and applied on another holds its upload there in between
  (:class:`~sewer_office.core.held_uploads.HeldUploads`), removed once applied; a preview
  never applied leaves it behind, swept like the others.

Only a process killed mid-upload (a worker timed out, the machine lost power) leaves a file
behind, in a place known in advance: :func:`sweep` removes what is older than a day, at server
start (``config/wsgi.py``) and with each nightly backup.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import TemporaryFileUploadHandler

logger = logging.getLogger("sewer_office.uploads")

#: A temporary file older than this was left by a process that no longer runs.
STALE_SECONDS = 24 * 60 * 60
#: The prefix of the storage's files being written (core.storage).
PARTIAL_PREFIX = ".partial-"


def temporary_directory() -> str:
    """The private directory of the office's temporary upload files (created 0700)."""
    path = Path(settings.FILE_UPLOAD_TEMP_DIR or Path(settings.MEDIA_ROOT).parent / "tmp")
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return str(path)


def discard_interrupted(request: Any) -> None:
    """Remove the temporary file of an upload whose reading failed midway (Django's parser
    closes the files it completed; the one being written stays open until collected)."""
    for handler in getattr(request, "_upload_handlers", None) or ():
        if isinstance(handler, TemporaryFileUploadHandler) and hasattr(handler, "file"):
            with contextlib.suppress(OSError):
                handler.upload_interrupted()


def _old(path: Path, limit: float) -> bool:
    try:
        return path.lstat().st_mtime < limit
    except FileNotFoundError:
        return False


def _remove(path: Path) -> bool:
    """Remove ``path`` (a file, or a directory of an import); a failure is logged, never raised
    (a sweep at server start must not keep the server from starting)."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        return False
    except OSError as e:
        logger.warning("stale upload file %s not removed: %s", path, e)
        return False
    return True


def sweep(now: float | None = None, older_than: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary upload files older than ``older_than`` seconds (everything in
    ``FILE_UPLOAD_TEMP_DIR``, and ``.partial-*`` files under ``MEDIA_ROOT``); the paths
    removed. A file being written now is younger and is left alone."""
    limit = (time.time() if now is None else now) - older_than
    removed: list[Path] = []
    tmp = Path(temporary_directory())
    for path in tmp.iterdir():
        if _old(path, limit) and _remove(path):
            removed.append(path)
    media = Path(settings.MEDIA_ROOT)
    if media.is_dir():
        for root, _dirs, files in os.walk(media):
            for name in files:
                path = Path(root) / name
                if name.startswith(PARTIAL_PREFIX) and _old(path, limit) and _remove(path):
                    removed.append(path)
    return removed
