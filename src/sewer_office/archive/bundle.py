"""Reading an import of records of the past: a ZIP file or a directory holding the CSV files
(``permits.csv``, ``approvals.csv``, ``approval_conditions.csv``, ``approval_limits.csv``,
``inspections.csv``, ``violations.csv``; any of them) and a ``documents/`` folder of scanned
papers (PDF, PNG, JPEG, TIFF).

Nothing is extracted to disk: a ZIP's members are read into memory, each refused past the
office's upload cap (``SEWER_USE_MAX_UPLOAD_BYTES``) by its declared size and again by what it
really holds, so neither a compressed bomb nor a path like ``../x`` can reach the file system.
The operator's own ``sewer-use import-records`` reads without the cap
(:func:`~sewer_office.core.errors.operator_files`): a path is still refused.
The CSV files may sit at the top of the archive or in one folder (a ZIP of a folder).

An unusable bundle (not a ZIP, no CSV file the import knows, a file that is not UTF-8 text)
is :class:`UnusableFile` (exit status 2 on the command line); a bad row is the validation's
(:mod:`.rows`), listed with its file, row and field.

The bundle's SHA-256 (what the import's audit event and every record's provenance keep, and
what refuses the same import twice) is that of the ZIP's bytes; a directory's is that of its
manifest: one line ``<sha256 of the content>  <relative path>`` per file, sorted by path
(the form ``sha256sum`` prints), so the same files give the same hash wherever they lie.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from sewer_io.check_io import UnusableFile
from sewer_office.core.errors import over_cap, shorten, upload_cap
from sewer_rules.hostile import TextRefused, utf8_text

__all__ = ["CSV_FILES", "DOCUMENTS", "Bundle", "UnusableFile", "read_directory", "read_zip"]

#: The CSV files an import may hold, in the order they are read (an approval before its
#: conditions and limits).
CSV_FILES = (
    "permits.csv",
    "approvals.csv",
    "approval_conditions.csv",
    "approval_limits.csv",
    "inspections.csv",
    "violations.csv",
)
#: The folder of the scanned documents the rows name.
DOCUMENTS = "documents"
#: Files a computer leaves beside others, never part of an import.
IGNORED = ("__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini")


@dataclass
class Bundle:
    """What an import holds: its name, SHA-256, CSV texts by file name, documents by name."""

    name: str
    sha256: str
    csv: dict[str, str] = field(default_factory=dict)
    documents: dict[str, bytes] = field(default_factory=dict)
    #: Files present that the import does not read (named in the report).
    ignored: list[str] = field(default_factory=list)


def _cap() -> int | None:
    """The upload cap, None for the operator's own command (no cap)."""
    return upload_cap()


def _ignored(parts: tuple[str, ...]) -> bool:
    return any(p in IGNORED or p.startswith("._") for p in parts)


def _place(bundle: Bundle, rel: PurePosixPath, data: bytes) -> None:
    """Put one file of the bundle where it belongs (``rel`` without the common top folder)."""
    parts = rel.parts
    if len(parts) == 1 and parts[0].lower() in CSV_FILES:
        name = parts[0].lower()
        try:
            bundle.csv[name] = utf8_text(data)
        except TextRefused as e:
            raise UnusableFile(f"{bundle.name}: {name}: {e}") from None
    elif len(parts) == 2 and parts[0].lower() == DOCUMENTS:
        if parts[1] in bundle.documents:
            raise UnusableFile(f"{bundle.name}: {DOCUMENTS}/{parts[1]} is there twice")
        bundle.documents[parts[1]] = data
    else:
        bundle.ignored.append(str(rel))


def _common_top(paths: list[PurePosixPath]) -> int:
    """1 when every path lies in one top folder that holds no CSV of its own name (a ZIP of a
    folder), else 0: how many leading parts to drop."""
    tops = {p.parts[0] for p in paths if len(p.parts) > 1}
    loose = [p for p in paths if len(p.parts) == 1]
    if len(tops) == 1 and not loose and next(iter(tops)).lower() != DOCUMENTS:
        return 1
    return 0


def _finish(bundle: Bundle) -> Bundle:
    if not bundle.csv:
        raise UnusableFile(
            f"{bundle.name}: no CSV file of records of the past (expected one or more of "
            f"{', '.join(CSV_FILES)})"
        )
    return bundle


def read_zip(data: bytes, name: str) -> Bundle:
    """A ZIP file's bundle; :class:`UnusableFile` when it cannot be read as one."""
    cap = _cap()
    if cap is not None and len(data) > cap:
        raise UnusableFile(over_cap(shorten(name), len(data), cap))
    bundle = Bundle(name=name, sha256=hashlib.sha256(data).hexdigest())
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UnusableFile(f"{shorten(name)}: not a ZIP file") from None
    with archive:
        members = []
        for info in archive.infolist():
            if info.is_dir():
                continue
            path = PurePosixPath(info.filename.replace("\\", "/"))
            if path.is_absolute() or ".." in path.parts:
                raise UnusableFile(
                    f"{shorten(name)}: {shorten(info.filename)}: a path out of the archive"
                )
            if _ignored(path.parts):
                continue
            if cap is not None and info.file_size > cap:
                member = f"{shorten(name)}: {shorten(info.filename)}"
                raise UnusableFile(over_cap(member, info.file_size, cap))
            members.append((path, info))
        drop = _common_top([p for p, _ in members])
        total = 0
        for path, info in members:
            try:
                with archive.open(info) as f:
                    content = f.read(-1 if cap is None else cap + 1)
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError) as e:
                raise UnusableFile(
                    f"{shorten(name)}: {shorten(info.filename)}: unreadable: {e}"
                ) from None
            if cap is not None and len(content) > cap:
                raise UnusableFile(
                    f"{shorten(name)}: {shorten(info.filename)}: more bytes than it declares, "
                    f"larger than the {cap:,} allowed (the operator's setting "
                    "SEWER_USE_MAX_UPLOAD_BYTES)"
                )
            total += len(content)
            if cap is not None and total > 10 * cap:
                raise UnusableFile(
                    f"{shorten(name)}: more than {10 * cap:,} bytes once uncompressed: split "
                    "the import, or import it with sewer-use import-records (the operator's "
                    "setting SEWER_USE_MAX_UPLOAD_BYTES raises the cap of the page)"
                )
            _place(bundle, PurePosixPath(*path.parts[drop:]), content)
    return _finish(bundle)


def read_directory(path: Path) -> Bundle:
    """A directory's bundle (the command line); its SHA-256 is that of its manifest."""
    if not path.is_dir():
        raise UnusableFile(f"{path}: no such directory")
    cap = _cap()
    files = sorted(
        p for p in path.rglob("*") if p.is_file() and not _ignored(p.relative_to(path).parts)
    )
    manifest = []
    bundle = Bundle(name=path.name or str(path), sha256="")
    for p in files:
        rel = PurePosixPath(p.relative_to(path).as_posix())
        size = p.stat().st_size
        if cap is not None and size > cap:
            raise UnusableFile(over_cap(f"{path}: {rel}", size, cap))
        try:
            data = p.read_bytes()
        except OSError as e:
            raise UnusableFile(f"{path}: {rel}: cannot read: {e.strerror or e}") from None
        manifest.append(f"{hashlib.sha256(data).hexdigest()}  {rel}\n")
        _place(bundle, rel, data)
    bundle.sha256 = hashlib.sha256("".join(manifest).encode("utf-8")).hexdigest()
    return _finish(bundle)


def read_path(path: Path) -> Bundle:
    """A ZIP file or a directory, whichever ``path`` is."""
    if path.is_dir():
        return read_directory(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UnusableFile(f"{path}: cannot read: {e.strerror or e}") from None
    return read_zip(data, path.name)
