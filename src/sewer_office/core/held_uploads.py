"""An uploaded file held at the server between the preview of an import and its application.

The office's pages work without script, so an import's preview and its application are
separate requests; and what is applied must be the file uploaded, never a preview (or a file)
sent back by the browser. So the preview's request keeps the upload in the office's private
directory of temporary upload files (:func:`sewer_office.core.uploads.temporary_directory`,
mode 0700; the file 0600, written beside its place and renamed into it), named by the app's
prefix, an optional owner (the user who previewed it, or the kind of the import) and the file's
SHA-256. The page then asks to apply "the file of this SHA-256": the later request finds it by
that name and hashes it again, so a file changed or swapped since is not found. A small
metadata dictionary (the file's name, the sheet asked for) may be kept beside it. The file is
discarded once applied; one never applied is removed with the other stale upload files a day
later by :func:`sewer_office.core.uploads.sweep` (which removes everything in that directory
older than a day, whatever its name).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from .uploads import temporary_directory

_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_PART = re.compile(r"^[A-Za-z0-9_]+$")
_SUFFIX = re.compile(r"^(\.[a-z0-9]{1,10})?$")
#: The metadata beside a held file: its name with this appended.
META_SUFFIX = ".meta.json"
_CHUNK = 1 << 20


class Kept(NamedTuple):
    """A file just kept: its SHA-256 (the key to find it by) and where it is."""

    sha256: str
    path: Path


class HeldUploads:
    """The uploads held by one app, named ``<prefix>[<owner>-]<sha256><suffix>``."""

    def __init__(self, prefix: str) -> None:
        if not re.match(r"^[a-z][a-z0-9_-]*$", prefix):
            raise ValueError(f"not a prefix of held uploads: {prefix!r}")
        self.prefix = prefix

    def _name(self, owner: object | None, suffix: str) -> Callable[[str], Path]:
        """Where the file of a SHA-256 is held, for this owner and suffix; ValueError for an
        owner or suffix that is not one of ours (one from a request is checked before it makes
        a path)."""
        if not _SUFFIX.match(suffix):
            raise ValueError("not a held upload's suffix")
        middle = ""
        if owner is not None:
            middle = str(owner)
            if not _PART.match(middle):
                raise ValueError("not a held upload's owner")
            middle += "-"
        folder = Path(temporary_directory())
        return lambda sha256: folder / f"{self.prefix}{middle}{sha256}{suffix}"

    def _path(self, sha256: str, owner: object | None, suffix: str) -> Path:
        if not _SHA256.match(sha256):
            raise ValueError("not a SHA-256")
        return self._name(owner, suffix)(sha256)

    def _write(self, chunks: Iterable[bytes], place: Callable[[str], Path]) -> str:
        """Write ``chunks`` to a new file (0600) in the temporary directory, hashing as it
        goes, and rename it to ``place(its SHA-256)``; the SHA-256."""
        fd, partial = tempfile.mkstemp(prefix=f".{self.prefix}", dir=temporary_directory())
        digest = hashlib.sha256()
        try:
            with os.fdopen(fd, "wb") as out:
                for chunk in chunks:
                    digest.update(chunk)
                    out.write(chunk)
            sha256 = digest.hexdigest()
            os.replace(partial, place(sha256))
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(partial)
        return sha256

    def keep(
        self,
        chunks: Iterable[bytes],
        *,
        owner: object | None = None,
        suffix: str = "",
        meta: Mapping[str, str] | None = None,
    ) -> Kept:
        """Hold the file streamed as ``chunks`` (e.g. an upload's ``chunks()``), with
        ``meta`` beside it when given; its SHA-256 and path."""
        name = self._name(owner, suffix)
        sha256 = self._write(chunks, name)
        if meta is not None:
            self.set_meta(sha256, meta, owner=owner, suffix=suffix)
        return Kept(sha256, name(sha256))

    def keep_bytes(
        self,
        data: bytes,
        *,
        owner: object | None = None,
        suffix: str = "",
        meta: Mapping[str, str] | None = None,
    ) -> str:
        """Hold ``data`` (and ``meta`` beside it when given); its SHA-256."""
        return self.keep([data], owner=owner, suffix=suffix, meta=meta).sha256

    def find(self, sha256: str, *, owner: object | None = None, suffix: str = "") -> Path | None:
        """The held file of ``sha256`` if it is still there and still hashes to it; None when
        it is not (never kept, applied, swept, changed, or the key is not one of ours)."""
        try:
            path = self._path(sha256, owner, suffix)
            digest = hashlib.sha256()
            with path.open("rb") as f:
                for chunk in iter(lambda: f.read(_CHUNK), b""):
                    digest.update(chunk)
        except (ValueError, OSError):
            return None
        return path if digest.hexdigest() == sha256 else None

    def read(self, sha256: str, *, owner: object | None = None, suffix: str = "") -> bytes | None:
        """The bytes held under ``sha256``, checked against it; None as for :meth:`find`."""
        try:
            data = self._path(sha256, owner, suffix).read_bytes()
        except (ValueError, OSError):
            return None
        return data if hashlib.sha256(data).hexdigest() == sha256 else None

    def meta(
        self, sha256: str, *, owner: object | None = None, suffix: str = ""
    ) -> dict[str, str] | None:
        """The metadata kept beside the file of ``sha256``; None when there is none."""
        try:
            path = self._path(sha256, owner, suffix)
            found = json.loads(path.with_name(path.name + META_SUFFIX).read_text("utf-8"))
        except (ValueError, OSError):
            return None
        if not isinstance(found, dict):
            return None
        return {str(k): str(v) for k, v in found.items()}

    def set_meta(
        self,
        sha256: str,
        meta: Mapping[str, str],
        *,
        owner: object | None = None,
        suffix: str = "",
    ) -> None:
        """Keep (or replace) the metadata beside the file of ``sha256``."""
        path = self._path(sha256, owner, suffix)
        data = json.dumps(dict(meta)).encode()
        self._write([data], lambda _sha256: path.with_name(path.name + META_SUFFIX))

    def discard(self, sha256: str, *, owner: object | None = None, suffix: str = "") -> None:
        """Remove the file of ``sha256`` and its metadata (after its import is applied)."""
        with contextlib.suppress(ValueError):
            path = self._path(sha256, owner, suffix)
            for each in (path, path.with_name(path.name + META_SUFFIX)):
                with contextlib.suppress(FileNotFoundError):
                    each.unlink()
