"""The kinds of file the office stores, told by their content, never by their name.

A file's name and declared type are the sender's to choose: ``report.pdf`` may be a page of
HTML, and a browser shown that page from the office's address would run its scripts as the
office's. So every stored file is typed here by its first bytes (:func:`sniff`), stored under a
generated name with the extension of that type (:mod:`sewer_office.core.storage`), and served
with that type (:func:`sewer_office.core.views.download_attachment`): a picture a browser
shows may be shown in the page (``inline``); every other kind is a download
(``Content-Disposition: attachment``). A kind not listed here (HTML, SVG, JavaScript, a
program) is never stored, and an old file whose bytes match none is served as
``application/octet-stream``, as a download.

The office stores two families of upload: documents (PDF and scans: PNG, JPEG, TIFF — plans,
reports, the portal's proof of authority) and inspection photos (JPEG, PNG, GIF, WebP). The
imports (laboratory and meter files, the sewer network) are read and never stored, so they have
no stored type; their content is checked by their readers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

#: The type of a file whose content is none of :data:`TYPES` (served as a download).
UNKNOWN = "application/octet-stream"
#: How many first bytes :func:`sniff` needs.
HEAD_BYTES = 16


@dataclass(frozen=True)
class FileType:
    """A kind of file: its name in messages, media type, extension, and whether a browser may
    show it in the page (pictures only)."""

    kind: str
    media_type: str
    extension: str
    inline: bool
    #: Other extensions of the same kind, kept when a sender's file name uses one.
    aliases: tuple[str, ...] = ()
    #: The first bytes of a file of this kind (any one of them).
    marks: tuple[bytes, ...] = ()

    def matches(self, head: bytes) -> bool:
        if self.kind == "WebP":  # RIFF, the size, then the form type
            return head[:4] == b"RIFF" and head[8:12] == b"WEBP"
        return any(head.startswith(m) for m in self.marks)


TYPES: dict[str, FileType] = {
    t.kind: t
    for t in (
        FileType("PDF", "application/pdf", "pdf", False, marks=(b"%PDF-",)),
        FileType("PNG", "image/png", "png", True, marks=(b"\x89PNG\r\n\x1a\n",)),
        FileType("JPEG", "image/jpeg", "jpg", True, ("jpeg", "jpe"), (b"\xff\xd8\xff",)),
        FileType("GIF", "image/gif", "gif", True, marks=(b"GIF87a", b"GIF89a")),
        FileType("WebP", "image/webp", "webp", True),
        # A browser does not show TIFF: a download, like a PDF.
        FileType("TIFF", "image/tiff", "tif", False, ("tiff",), (b"II*\x00", b"MM\x00*")),
    )
}


def sniff(head: bytes) -> FileType | None:
    """The kind of a file beginning with ``head`` (at least :data:`HEAD_BYTES` of it), or None."""
    return next((t for t in TYPES.values() if t.matches(head)), None)


def sniff_upload(upload: Any) -> FileType | None:
    """The kind of an uploaded (or stored) file by its first bytes; the file is left at its
    start."""
    upload.seek(0)
    head = upload.read(HEAD_BYTES)
    upload.seek(0)
    return sniff(head)


def by_media_type(media_type: str) -> FileType | None:
    """The kind recorded as ``media_type`` (an attachment's), or None."""
    return next((t for t in TYPES.values() if t.media_type == media_type), None)


def download_name(name: str, filetype: FileType | None) -> str:
    """``name`` (the sender's) with the extension of the checked type: ``plan.html`` holding a
    PDF is offered as ``plan.pdf``, so that the saved copy opens as what it is. An extension
    of the type (``photo.JPEG``) is kept; without a type the name is kept."""
    name = PurePath(name.replace("\\", "/")).name or "file"
    if filetype is None:
        return name
    stem, dot, ext = name.rpartition(".")
    if dot and stem and ext.lower() in (filetype.extension, *filetype.aliases):
        return name
    return f"{stem if dot and stem else name}.{filetype.extension}"
