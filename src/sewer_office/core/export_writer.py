"""Writing an export's files (:mod:`.export_all`): each table as CSV and as JSON, row by row in
chunks of :data:`CHUNK` (a table of millions of rows is never held in memory), the bytes a row
keeps as files of their own, the uploaded files, the list of every file, and the SHA-256 of
each. Apart from the export's frame (the snapshot, the manifest, the sums) because this is the
part that reads rows and copies bytes.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from . import filetypes
from .backup import sha256_of
from .export_format import FILE_LIST, MEDIA, RECORD_FILES, FileRow, MissingFile
from .export_tables import TABLES, Table, csv_value, json_value, kind_of
from .uploads import PARTIAL_PREFIX

#: Rows read from the database at a time.
CHUNK = 2000


@dataclass
class StoredFile:
    """A file of the export: where it is, what it is, which record it belongs to."""

    path: str  # inside the export, with "/"
    size: int
    sha256: str
    table: str = ""  # "" for an uploaded file no record names
    record: str = ""  # the record's primary key
    column: str = ""
    stored_as: str = ""  # an upload's name in the office's storage ("" for bytes of a row)

    COLUMNS = ("path", "size", "sha256", "table", "record", "column", "stored_as")

    def row(self) -> FileRow:
        return FileRow(
            path=self.path,
            size=self.size,
            sha256=self.sha256,
            table=self.table,
            record=self.record,
            column=self.column,
            stored_as=self.stored_as,
        )


class JsonLines:
    """A JSON array written one element a line (valid JSON, and readable line by line)."""

    def __init__(self, path: Path) -> None:
        self.handle = path.open("w", encoding="utf-8", newline="\n")
        self.handle.write("[")
        self.first = True

    def write(self, row: Mapping[str, object]) -> None:
        self.handle.write("\n" if self.first else ",\n")
        self.handle.write(json.dumps(row, ensure_ascii=False, allow_nan=False))
        self.first = False

    def close(self) -> None:
        self.handle.write("\n]\n")
        self.handle.close()


def _suffix(content: bytes) -> str:
    found = filetypes.sniff(content[: filetypes.HEAD_BYTES])
    return found.extension if found is not None else "bin"


def _rows(table: Table) -> Iterator[tuple[Any, ...]]:
    query = table.model._base_manager.order_by("pk").values_list(*table.names)
    yield from query.iterator(chunk_size=CHUNK)


class Exporter:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[StoredFile] = []
        self.uploads: list[tuple[str, str, str, str]] = []  # (table, pk, column, name)
        self.hashes: dict[str, str] = {}

    def hashed(self, relative: str) -> str:
        digest = sha256_of(self.root / relative)
        self.hashes[relative] = digest
        return digest

    def _bytes(self, table: Table, pk: Any, column: str, value: bytes) -> str:
        content = bytes(value)
        if not content:
            return ""
        name = re.sub(r"[^\w.-]", "_", str(pk))  # a key that is not a number: a safe name
        relative = f"{RECORD_FILES}/{table.label}/{name}.{column}.{_suffix(content)}"
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        digest = hashlib.sha256(content).hexdigest()
        self.files.append(StoredFile(relative, len(content), digest, table.label, str(pk), column))
        return relative

    def table(self, table: Table) -> int:
        kinds = [kind_of(f) for f in table.columns]
        names = table.names
        pk_at = names.index(table.model._meta.pk.attname)
        (self.root / TABLES).mkdir(exist_ok=True)
        count = 0
        with (self.root / table.path("csv")).open("w", encoding="utf-8", newline="") as out:
            rows_csv = csv.writer(out, lineterminator="\n")
            rows_csv.writerow(names)
            rows_json = JsonLines(self.root / table.path("json"))
            try:
                for raw in _rows(table):
                    values: list[Any] = []
                    for name, kind, value in zip(names, kinds, raw, strict=True):
                        if kind == "bytes" and value is not None:
                            values.append(self._bytes(table, raw[pk_at], name, value))
                            continue
                        if kind == "file" and value:
                            self.uploads.append((table.label, str(raw[pk_at]), name, str(value)))
                        values.append(json_value(value))
                    rows_json.write(dict(zip(names, values, strict=True)))
                    rows_csv.writerow([csv_value(v, k) for v, k in zip(values, kinds, strict=True)])
                    count += 1
            finally:
                rows_json.close()
        self.hashed(table.path("csv"))
        self.hashed(table.path("json"))
        return count

    def media(self) -> list[MissingFile]:
        """Copy the uploaded files the records name, then any other stored file (named by no
        record); returns the records whose file is missing from storage."""
        media_root = Path(settings.MEDIA_ROOT)
        missing: list[MissingFile] = []
        copied: set[str] = set()
        for label, pk, column, name in self.uploads:
            source = media_root / name
            where = MissingFile(table=label, record=pk, column=column, stored_as=name)
            if not source.is_file():
                missing.append(where)
                continue
            self.files.append(self._copy(source, name, label, pk, column))
            copied.add(name)
        if media_root.is_dir():
            for source in sorted(p for p in media_root.rglob("*") if p.is_file()):
                name = source.relative_to(media_root).as_posix()
                if name in copied or source.name.startswith(PARTIAL_PREFIX):
                    continue
                self.files.append(self._copy(source, name, "", "", ""))
                copied.add(name)
        return missing

    def _copy(self, source: Path, name: str, label: str, pk: str, column: str) -> StoredFile:
        relative = f"{MEDIA}/{name}"
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        digest = sha256_of(target)
        return StoredFile(relative, target.stat().st_size, digest, label, pk, column, name)

    def file_list(self) -> None:
        rows = [f.row() for f in sorted(self.files, key=lambda f: f.path)]
        with (self.root / f"{FILE_LIST}.csv").open("w", encoding="utf-8", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=StoredFile.COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        listing = JsonLines(self.root / f"{FILE_LIST}.json")
        for row in rows:
            listing.write(row)
        listing.close()
        for f in self.files:
            self.hashes[f.path] = f.sha256
        self.hashed(f"{FILE_LIST}.csv")
        self.hashed(f"{FILE_LIST}.json")

    def text(self, relative: str, text: str) -> None:
        (self.root / relative).write_text(text, encoding="utf-8", newline="\n")
        self.hashed(relative)
