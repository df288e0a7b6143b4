"""Uploaded files: stored whole or not at all, and never kept when the record is not.

:class:`AtomicFileSystemStorage` (the office's default storage) writes an upload to a hidden
temporary file beside its final place and links it there only once every byte is on disk, so
a full disk (``OSError(ENOSPC)``), a quota or a crash mid-write leaves no partial file.
:func:`store_upload` saves an attachment's file and turns a storage failure into a clear
refusal (:class:`~sewer_office.core.errors.InvalidInput`); inside :func:`files_of_transaction`
the files already stored are deleted again if the block fails, so a refused filing keeps none
of its files (the database rows are rolled back by the same block's transaction).

A stored file never keeps the name it was sent with: :func:`store_upload` types it by its
content (:mod:`sewer_office.core.filetypes`; a kind the office does not store is refused) and
stores it under a generated name with the extension of that kind, so no stored file is named
``.html`` or ``.svg`` whatever it was called; the sender's name is kept as data
(``Attachment.original_name``), for display and as the download's name.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import tempfile
import uuid
from collections.abc import Iterator
from typing import Any

from django.core.files.storage import FileSystemStorage, Storage

from . import filetypes
from .errors import InvalidInput, shorten
from .uploads import PARTIAL_PREFIX

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
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=PARTIAL_PREFIX)
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


#: The longest sender's file name kept (``Attachment.original_name``): a longer name keeps
#: its start and its extension.
ORIGINAL_NAME_LENGTH = 255


def original_name(name: str) -> str:
    """``name`` (the sender's, without directories) short enough to keep as data."""
    if len(name) <= ORIGINAL_NAME_LENGTH:
        return name
    stem, dot, ext = name.rpartition(".")
    suffix = f".{ext[:10]}" if dot and stem else ""
    return (stem if suffix else name)[: ORIGINAL_NAME_LENGTH - len(suffix)] + suffix


def stored_name(filetype: filetypes.FileType) -> str:
    """A new name for a stored file: random, with the extension of its checked kind."""
    return f"{uuid.uuid4().hex}.{filetype.extension}"


def store_upload(
    att: Any, upload: Any, field: str, kinds: tuple[str, ...] | None = None
) -> filetypes.FileType:
    """Save ``upload`` as ``att.file`` (not yet the row) under a generated name with the
    extension of its kind, told by its content (:func:`sewer_office.core.filetypes.sniff`),
    and record that kind and the sender's name on ``att``. A file of no kind the office stores
    (or, with ``kinds``, of another kind) and a storage failure are refused with a message
    naming the file and the field; nothing of it is kept."""
    sent = str(upload.name or "file")
    filetype = filetypes.sniff_upload(upload)
    if filetype is None or (kinds is not None and filetype.kind not in kinds):
        allowed = kinds or tuple(filetypes.TYPES)
        raise InvalidInput(
            {
                field: [
                    f"{shorten(sent)}: not a {', '.join(allowed[:-1])} or {allowed[-1]} file "
                    "(its content, not its name, is checked)."
                ]
            }
        )
    att.original_name = original_name(sent)
    att.media_type = filetype.media_type
    try:
        att.file.save(stored_name(filetype), upload, save=False)
    except OSError as e:
        raise InvalidInput(
            {
                field: [
                    f"{shorten(sent)}: not stored — {_reason(e)}; nothing of this submission was "
                    "kept. Tell the office's administrator, then submit it again."
                ]
            }
        ) from e
    stored = _stored.get()
    if stored is not None:
        stored.append((att.file.storage, att.file.name))
    return filetype


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
