"""The form of an export of the office (:mod:`.export_all`) as another system reads it: the
names of its files and the shape of its manifest. The import (:mod:`.import_all`,
:mod:`.import_checks`) reads the same names back; the manifest it reads is checked key by key
rather than trusted to have this shape (it comes from a file).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

FORMAT = "sewer-use-export"
VERSION = 1
MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
README = "README.txt"
ANCHOR = "audit-anchor.json"
FILES = "files"
MEDIA = f"{FILES}/media"
RECORD_FILES = f"{FILES}/records"
FILE_LIST = "files"  # files.csv, files.json
DICTIONARY = "data-dictionary"  # .md, .json


class FileRow(TypedDict):
    """One line of ``files.csv`` and ``files.json``: a stored file and the record it belongs
    to (``table``, ``record``, ``column`` empty for an upload no record names)."""

    path: str
    size: int
    sha256: str
    table: str
    record: str
    column: str
    stored_as: str


class MissingFile(TypedDict):
    """A record whose uploaded file is missing from the office's storage."""

    table: str
    record: str
    column: str
    stored_as: str


class TableEntry(TypedDict):
    """One exported table in the manifest: its rows and its two files."""

    table: str
    db_table: str
    rows: int
    csv: str
    json: str
    columns: list[str]


class AuditHead(TypedDict):
    """The audit chain when the export began, and whether it verified."""

    events: int
    seq: int
    event_id: int | None
    digest: str
    key_id: str
    keys_used: list[str]
    verified: bool
    problem: str
    checked: int
    anchor: str
    key_source: str


class Software(TypedDict):
    name: str
    version: str


class Database(TypedDict):
    vendor: str
    version: str


class FilesEntry(TypedDict):
    count: int
    bytes: int
    list: list[str]
    missing: list[MissingFile]


class LeftOut(TypedDict):
    """What the export does not carry, and why (the secrets)."""

    tables: list[dict[str, str]]
    columns: list[dict[str, str]]
    audit_key: str


class Manifest(TypedDict):
    """``manifest.json``; ``sha256`` (every file's hash) is added once every file is written."""

    format: str
    version: int
    software: Software
    exported_at: str
    database: Database
    migrations: dict[str, list[str]]
    audit: AuditHead
    tables: list[TableEntry]
    files: FilesEntry
    left_out: LeftOut
    sha256: NotRequired[dict[str, str]]
