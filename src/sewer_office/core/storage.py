"""Uploaded files: stored whole or not at all, and never kept when the record is not.

:class:`AtomicFileSystemStorage` (the office's default storage) writes an upload to a hidden
temporary file beside its final place and links it there only once every byte is on disk, so
a full disk (``OSError(ENOSPC)``), a quota or a crash mid-write leaves no partial file.
:func:`store_upload` saves an attachment's file and turns a storage failure into a clear
refusal (:class:`~sewer_office.core.errors.InvalidInput`); inside :func:`files_of_transaction`
the files already stored are deleted again if the block fails, so a refused filing keeps none
of its files (the database rows are rolled back by the same block's transaction).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import tempfile
from collections.abc import Iterator
from typing import Any

from django.core.files.storage import FileSystemStorage, Storage

from .errors import InvalidInput, shorten

_stored: contextvars.ContextVar[list[tuple[Storage, str]] | None] = contextvars.ContextVar(
    "sewer_use_stored_files", default=None
)


class AtomicFileSystemStorage(FileSystemStorage):
    """:class:`FileSystemStorage` whose files appear complete or not at all."""

    def _write(self, out: Any, chunk: bytes) -> None:
        out.write(chunk)

    def _save(self, name: str, content: Any) -> str:
        full_path = self.path(name)
        directory = os.path.dirname(full_path)
        if self.directory_permissions_mode is not None:
            old = os.umask(0o777 & ~self.directory_permissions_mode)
            try:
                os.makedirs(directory, self.directory_permissions_mode, exist_ok=True)
            finally:
                os.umask(old)
        else:
            os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".partial-")
        try:
            with os.fdopen(fd, "wb") as out:
                if hasattr(content, "seek"):
                    content.seek(0)
                for chunk in content.chunks():
                    self._write(out, chunk)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(tmp, self.file_permissions_mode or 0o644)
            while True:
                try:
                    os.link(tmp, full_path)
                    break
                except FileExistsError:
                    name = self.get_available_name(name)
                    full_path = self.path(name)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return str(name).replace("\\", "/")


def _reason(e: OSError) -> str:
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the office's disk is full"
    return e.strerror or "the file could not be written"


#: The longest file name stored (a file system allows 255 bytes; the storage may add a
#: suffix to make a name unique): a longer name keeps its start and its extension.
STORED_NAME_LENGTH = 100


def stored_name(name: str) -> str:
    """``name`` (the upload's, already without directories) short enough to store."""
    if len(name.encode("utf-8")) <= STORED_NAME_LENGTH:
        return name
    stem, dot, ext = name.rpartition(".")
    suffix = f".{ext[:10]}" if dot and stem else ""
    room = STORED_NAME_LENGTH - len(suffix.encode("utf-8"))
    return (stem if suffix else name).encode("utf-8")[:room].decode("utf-8", "ignore") + suffix


def store_upload(att: Any, upload: Any, field: str) -> None:
    """Save ``upload`` as ``att.file`` (not yet the row) under a name short enough for any
    file system (:func:`stored_name`); a storage failure is refused with a message naming
    the file, and nothing of it is kept."""
    try:
        att.file.save(stored_name(str(upload.name or "file")), upload, save=False)
    except OSError as e:
        raise InvalidInput(
            {
                field: [
                    f"{shorten(str(upload.name))}: not stored — {_reason(e)}; nothing of this submission was "
                    "kept. Tell the office's administrator, then submit it again."
                ]
            }
        ) from e
    stored = _stored.get()
    if stored is not None:
        stored.append((att.file.storage, att.file.name))


@contextlib.contextmanager
def files_of_transaction() -> Iterator[None]:
    """Delete the files :func:`store_upload` stored inside the block if the block fails."""
    stored: list[tuple[Storage, str]] = []
    token = _stored.set(stored)
    try:
        yield
    except BaseException:
        for storage, name in stored:
            with contextlib.suppress(OSError):
                storage.delete(name)
        raise
    finally:
        _stored.reset(token)
