"""Every list of the office as a download: CSV and Excel, filtered as the page shows it.

One scheme everywhere: the list's own URL with its query string and ``format=csv`` or
``format=xlsx`` (``/enforcement/?state=served&format=csv``). A list view builds its filtered
queryset as for the page, then calls :func:`export` with its columns; when the request asks
for a format, the answer is the file, else None and the page is rendered. So the rows are the
page's rows (same filterset, same visibility), every page of them.

Cells are written against formula injection (OWASP "CSV injection"): a text that starts with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with ``'``, so a spreadsheet
shows it as text and never evaluates it. Numbers stay numbers (a negative amount is not text),
dates stay dates.

Cells are typed for a spreadsheet: numbers as numbers, dates as dates, an amount (a column
made with :func:`Amount`) as a number to the cent with a currency format in Excel; a choice is
given by its label (``get_state_display``), never its code. A computed number longer than any
reading needs (a mean of ``129.0384615384615384615384615``) is rounded as the pages round it
(:func:`sewer_office.core.reading.round_quantity`); the exact value stays in the record.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from sewer_office.core import reading

#: The query parameter naming the download format, and the formats offered.
FORMAT_PARAM = "format"
CSV = "csv"
XLSX = "xlsx"
FORMATS = (CSV, XLSX)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: Characters that make a spreadsheet read a cell as a formula (or hide what follows).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CHUNK = 2000
#: Excel's number format of an amount column (a number, shown ``USD 1,234.57``).
AMOUNT_FORMAT = '"USD "#,##0.00;"USD "-#,##0.00'
#: A Decimal with more places than this was computed, not entered: rounded for reading.
PLACES_KEPT = 6
#: The kinds of column that are typed beyond what their values say.
AMOUNT = "amount"

Cell = str | int | float | Decimal | date | datetime | None


@dataclass(frozen=True)
class Column:
    """One column of a download: its header and how a row gives its value — a dotted path
    of attributes (``"establishment.name"``) or a function of the row."""

    header: str
    value: str | Callable[[Any], Any]
    #: ``"amount"`` for money (rounded to the cent, a currency format in Excel), else "".
    kind: str = ""

    def of(self, row: Any) -> Any:
        if self.kind == AMOUNT:
            return reading.cents(self._raw(row))
        return self._raw(row)

    def _raw(self, row: Any) -> Any:
        if callable(self.value):
            return self.value(row)
        obj = row
        for part in self.value.split("."):
            if obj is None:
                return None
            obj = getattr(obj, part)
            if callable(obj) and not isinstance(obj, type):
                obj = obj()
        return obj


def Amount(header: str, value: str | Callable[[Any], Any]) -> Column:
    """A column of money: to the cent, a number in CSV, a currency-formatted number in Excel."""
    return Column(header, value, AMOUNT)


def escape(text: str) -> str:
    """``text`` made safe against formula injection (prefixed with ``'`` when needed)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def cell(value: Any) -> Cell:
    """A value as a cell: numbers and dates as such, text escaped, None empty."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        if value.is_finite() and value.as_tuple().exponent < -PLACES_KEPT:  # type: ignore[operator]
            return reading.round_quantity(value)
        return value
    if isinstance(value, int | float):
        return value
    if isinstance(value, datetime):
        return timezone.localtime(value).replace(tzinfo=None) if timezone.is_aware(value) else value
    if isinstance(value, date):
        return value
    return escape(str(value))


def requested_format(request: HttpRequest) -> str | None:
    """The download format the request asks for, or None (the page)."""
    fmt = request.GET.get(FORMAT_PARAM, "")
    return fmt if fmt else None


def _rows(rows: Iterable[Any]) -> Iterator[Any]:
    if isinstance(rows, QuerySet):
        # every row, without holding them all: the queryset in chunks
        return rows.iterator(chunk_size=CHUNK)
    return iter(rows)


def _text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def _csv_lines(rows: Iterable[Any], columns: Sequence[Column]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([escape(c.header) for c in columns])
    yield buffer.getvalue()
    for row in _rows(rows):
        buffer.seek(0)
        buffer.truncate(0)
        writer.writerow([_text(cell(c.of(row))) for c in columns])
        yield buffer.getvalue()


def xlsx_bytes(rows: Iterable[Any], columns: Sequence[Column], title: str) -> bytes:
    """The rows as an Excel workbook of one sheet (openpyxl, write-only)."""
    from openpyxl import Workbook  # heavy: loaded for an Excel download only
    from openpyxl.cell import WriteOnlyCell

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(title=title[:31] or "export")
    ws.append([escape(c.header) for c in columns])
    amounts = [c.kind == AMOUNT for c in columns]
    for row in _rows(rows):
        values: list[Any] = []
        for is_amount, c in zip(amounts, columns, strict=True):
            value = cell(c.of(row))
            if is_amount and value is not None:
                formatted = WriteOnlyCell(ws, value=value)  # type: ignore[arg-type]
                formatted.number_format = AMOUNT_FORMAT
                values.append(formatted)
            else:
                values.append(value)
        ws.append(values)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def export(
    request: HttpRequest, rows: Iterable[Any], columns: Sequence[Column], name: str
) -> HttpResponse | None:
    """The download of ``rows`` if ``request`` asks for one (``?format=csv|xlsx``), else None.

    An unknown format is answered 400 naming the ones offered. ``name`` is the file's name
    (``violations`` → ``violations-2026-12-03.csv``).
    """
    fmt = requested_format(request)
    if fmt is None:
        return None
    if fmt not in FORMATS:
        return HttpResponse(
            f"format={fmt!r}: the downloads are {' and '.join(FORMATS)}.",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    filename = f"{name}-{timezone.localdate():%Y-%m-%d}.{fmt}"
    if fmt == CSV:
        response = HttpResponse(
            "".join(_csv_lines(rows, columns)), content_type="text/csv; charset=utf-8"
        )
    else:
        response = HttpResponse(xlsx_bytes(rows, columns, name), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
