"""A spreadsheet of users and facilities read as text: its header (row 1) and its rows.

Excel workbooks (``.xlsx``, read with openpyxl in read-only mode: the first sheet or the one
named) and CSV files (UTF-8, a byte order mark dropped) are told apart by their content, not
their name: an ``.xlsx`` is a ZIP archive. Every cell is read as text — a whole number written
as ``12590.0`` by a spreadsheet is ``12590``, a date is ``2026-03-02`` — and a row is numbered
as the spreadsheet numbers it (the header is row 1). Blank rows are skipped; columns whose
header cell is blank are not offered.

A file that cannot be read at all is :class:`UnusableFile`, with a message naming the file: not
a spreadsheet, an old ``.xls``, no such sheet, no header, a column named twice, more rows or
columns than an import of facilities takes, or a workbook that would unpack to more than
:data:`MAX_UNPACKED` bytes (a "ZIP bomb").
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from sewer_io.check_io import UnusableFile
from sewer_office.core.errors import shorten, upload_refused
from sewer_rules.hostile import TextRefused, control_character, utf8_text

#: An import of a town's users and facilities: a few hundred rows; more is not such a file.
MAX_ROWS = 20_000
MAX_COLUMNS = 200
#: What the parts of a workbook may unpack to, together.
MAX_UNPACKED = 200 * 1024 * 1024
#: A cell longer than this is refused by the row checks (every field is shorter); it is cut
#: here so that a hostile cell is never held whole.
MAX_CELL = 2000

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

__all__ = ["Sheet", "UnusableFile", "read_sheet"]


@dataclass
class Sheet:
    """The spreadsheet's header and rows: ``rows`` are (row number, column → text)."""

    source_name: str
    header: list[str]
    rows: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    sheet: str = ""
    sheets: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "xlsx" if self.sheets else "csv"

    def values(self, column: str) -> list[str]:
        """The distinct non-blank texts of ``column``, in the order they first appear."""
        seen: dict[str, None] = {}
        for _row, cells in self.rows:
            text = cells.get(column, "").strip()
            if text:
                seen.setdefault(text, None)
        return list(seen)


def is_workbook(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC)


def cell_text(value: Any) -> str:
    """A cell's value as the text a clerk reads in it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, datetime):
        if value.time() == time():
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, date | time):
        return value.isoformat()
    return str(value)[:MAX_CELL]


def _header(cells: list[str], name: str) -> list[tuple[int, str]]:
    """(index, name) of the columns with a header; refused when there is none or one twice."""
    named = [(i, text.strip()) for i, text in enumerate(cells) if text.strip()]
    for i, text in named:
        if (bad := control_character(text)) is not None:
            raise UnusableFile(
                f"{name}: the name of column {i + 1} holds a control character ({bad})"
            )
    if not named:
        raise UnusableFile(f"{name}: row 1 holds no column names (the header must be row 1)")
    if len(named) > MAX_COLUMNS:
        raise UnusableFile(f"{name}: more than {MAX_COLUMNS} columns")
    seen: dict[str, int] = {}
    for i, text in named:
        key = text.casefold()
        if key in seen:
            raise UnusableFile(
                f"{name}: the column {shorten(text)!r} is named twice in row 1 "
                f"(columns {seen[key] + 1} and {i + 1})"
            )
        seen[key] = i
    return named


def _rows(lines: Any, header: list[tuple[int, str]], name: str) -> list[tuple[int, dict[str, str]]]:
    out: list[tuple[int, dict[str, str]]] = []
    for number, cells in enumerate(lines, start=2):
        values = {col: (cells[i] if i < len(cells) else "") for i, col in header}
        if not any(v.strip() for v in values.values()):
            continue
        if len(out) >= MAX_ROWS:
            raise UnusableFile(f"{name}: more than {MAX_ROWS:,} rows")
        out.append((number, values))
    return out


def _read_csv(data: bytes, name: str) -> Sheet:
    try:
        text = utf8_text(data)
    except TextRefused as e:
        raise UnusableFile(f"{name}: {e}") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        first = next(reader, None)
        if first is None:
            raise UnusableFile(f"{name}: an empty file")
        header = _header(first, name)
        rows = _rows(([c[:MAX_CELL] for c in r] for r in reader), header, name)
    except csv.Error as e:
        raise UnusableFile(f"{name}: unreadable as CSV (line {reader.line_num}): {e}") from None
    return Sheet(name, [h for _i, h in header], rows)


def _check_archive(data: bytes, name: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            members = set(archive.namelist())
    except (zipfile.BadZipFile, ValueError, OSError) as e:
        raise UnusableFile(
            f"{name}: a damaged ZIP archive, not a readable workbook ({e})"
        ) from None
    if unpacked > MAX_UNPACKED:
        raise UnusableFile(
            f"{name}: the workbook would unpack to {unpacked:,} bytes, more than the "
            f"{MAX_UNPACKED:,} an import reads"
        )
    if "xl/workbook.xml" not in members:
        raise UnusableFile(f"{name}: a ZIP archive but not an Excel workbook (.xlsx)")


def _read_xlsx(data: bytes, name: str, sheet: str) -> Sheet:
    from openpyxl import load_workbook  # heavy: loaded for a workbook only

    _check_archive(data, name)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds for a damaged workbook
        raise UnusableFile(f"{name}: unreadable as an Excel workbook: {shorten(str(e))}") from None
    try:
        names = list(book.sheetnames)
        if not names:
            raise UnusableFile(f"{name}: the workbook has no sheet")
        chosen = sheet.strip() or names[0]
        if chosen not in names:
            raise UnusableFile(
                f"{name}: no sheet named {shorten(chosen)!r} (its sheets: "
                f"{', '.join(shorten(n) for n in names)})"
            )
        ws = book[chosen]
        lines = ws.iter_rows(values_only=True)
        try:
            first = next(lines, None)
            if first is None:
                raise UnusableFile(f"{name}: the sheet {shorten(chosen)!r} is empty")
            if len(first) > MAX_COLUMNS * 4:
                raise UnusableFile(f"{name}: more than {MAX_COLUMNS} columns")
            header = _header([cell_text(v) for v in first], name)
            width = max(i for i, _h in header) + 1
            rows = _rows(([cell_text(v) for v in r[:width]] for r in lines), header, name)
        except UnusableFile:
            raise
        except Exception as e:  # a damaged sheet
            raise UnusableFile(
                f"{name}: unreadable sheet {shorten(chosen)!r}: {shorten(str(e))}"
            ) from None
    finally:
        book.close()
    return Sheet(name, [h for _i, h in header], rows, sheet=chosen, sheets=names)


def read_sheet(data: bytes, source_name: str, sheet: str = "") -> Sheet:
    """The spreadsheet in ``data`` (``.xlsx`` or CSV, told by its content); ``sheet``: the
    workbook's sheet to read (blank: the first)."""
    name = shorten(source_name)
    refusal = upload_refused(source_name, len(data))
    if refusal:
        raise UnusableFile(refusal)
    if data.startswith(OLE_MAGIC):
        raise UnusableFile(
            f"{name}: an old Excel file (.xls): save it as an Excel workbook (.xlsx) or CSV"
        )
    if is_workbook(data):
        return _read_xlsx(data, name, sheet)
    if sheet.strip():
        raise UnusableFile(f"{name}: a CSV file has no sheets (sheet {shorten(sheet)!r} asked)")
    return _read_csv(data, name)
