"""A readings file for one meter: read by the engine's reader, checked against the meter.

The file is the one ``sewer-use slugs`` reads (columns ``timestamp`` and ``value``; optional
``meter``, ``parameter``, ``unit``; see :mod:`sewer_engines.monitoring.readings`). Uploaded
for a known meter, the ``meter`` and ``parameter`` columns may be left out: they are then
the meter's own, so that a pH meter's file of two columns is read as pH, not as the
reader's default (flow). Where they are written they must name this meter and its
parameter — a row of another meter is an error, not silently dropped.

Values in another unit of the same dimension are converted exactly to the meter's unit; a
value whose conversion has no exact decimal form is a row error (nothing is rounded).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.source import ReadingsError, ReadOptions, RowError
from sewer_engines.monitoring.value_column import MAX_DECIMALS
from sewer_io.meter_files import open_readings
from sewer_io.readings import parquet_size
from sewer_office.core.errors import OfficeError, shorten, upload_cap, upload_refused
from sewer_office.core.uploads import temporary_directory
from sewer_rules.hostile import TextRefused, utf8_text
from sewer_rules.monitoring.instants import show
from sewer_rules.units import UnitError, convert, terminates

#: Row errors listed at most (the total is always counted).
MAX_ERRORS = 1000
#: The fewest bytes a reading takes in a CSV file ("2026-03-02T00:00,1" and its line end):
#: a Parquet file may hold as many readings as a CSV file at the upload cap could.
MIN_ROW_BYTES = 16
#: How many times the upload cap a Parquet file may decompress to (its pages, as declared).
PARQUET_EXPANSION = 8
SUFFIXES = (".csv", ".parquet", ".pq")


class UploadUnusable(OfficeError):
    """The file cannot be read at all (not CSV/Parquet, no ``timestamp`` column, ...)."""

    status_code = 400


@dataclass
class ReadFile:
    """What a file held for the meter: its readings (times in µs UTC, exact decimal text)."""

    times_us: list[int] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    missing: int = 0
    errors: list[RowError] = field(default_factory=list)
    errors_total: int = 0


def _bounded(path: Path, name: str) -> None:
    """Refuse what a file would become once read, before reading it: a CSV file that is not
    UTF-8 text (naming the line), or a Parquet file whose footer declares more readings —
    or more bytes decompressed — than a file at the upload cap could hold (a Parquet
    "bomb": a few kilobytes that decompress to millions of rows or a value of megabytes).
    The operator's own ``sewer-use import-readings`` has no cap (``operator_files``)."""
    limit = upload_cap()
    if path.suffix.lower() == ".csv":
        try:
            utf8_text(path.read_bytes())
        except TextRefused as e:
            raise UploadUnusable(f"{name}: {e}") from None
        return
    try:
        size = parquet_size(path)
    except ReadingsError as e:
        raise UploadUnusable(str(e).replace(str(path), name)) from None
    if limit is None:
        return
    most = limit // MIN_ROW_BYTES
    if size.rows > most:
        raise UploadUnusable(
            f"{name}: a Parquet file of {size.rows:,} readings, more than the {most:,} a file "
            f"of readings within the upload cap may hold (the operator's setting "
            "SEWER_USE_MAX_UPLOAD_BYTES)"
        )
    if size.decompressed > PARQUET_EXPANSION * limit:
        raise UploadUnusable(
            f"{name}: a Parquet file that decompresses to {size.decompressed:,} bytes, more "
            f"than {PARQUET_EXPANSION} times the upload cap ({limit:,} bytes, the operator's "
            "setting SEWER_USE_MAX_UPLOAD_BYTES)"
        )


def _with_meter_columns(path: Path, ident: str, parameter: str, folder: str, name: str) -> Path:
    """The file itself, or a copy with the meter's ``meter``/``parameter`` columns added
    (same rows in the same order, so row numbers are the user's)."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UploadUnusable(f"{name}: readings must be a .csv or .parquet file")
    _bounded(path, name)
    try:
        if suffix == ".csv":
            frame = pl.read_csv(path, infer_schema=False, raise_if_empty=False)
        else:
            frame = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UploadUnusable(f"{name}: cannot read: {shorten(first, 200)}") from None
    have = {c.strip().lower() for c in frame.columns}
    add = [
        pl.lit(value, dtype=pl.String).alias(name)
        for name, value in (("meter", ident), ("parameter", parameter))
        if name not in have
    ]
    if not add:
        return path
    out = Path(folder) / f"readings{suffix if suffix == '.csv' else '.parquet'}"
    frame = frame.with_columns(add)
    if suffix == ".csv":
        frame.write_csv(out)
    else:
        frame.write_parquet(out)
    return out


def _exact(value: Decimal, source: str, target: str) -> str | None:
    """``value`` in ``target`` as exact decimal text, None when it does not terminate."""
    x = convert(value, source, target)
    if not terminates(x) or _places(x) > MAX_DECIMALS:
        return None
    return show(x)


def _places(x: Fraction) -> int:
    places = 0
    while x.denominator != 1 and places <= MAX_DECIMALS:
        x *= 10
        places += 1
    return places


def read_for_meter(
    path: Path, *, ident: str, parameter: str, unit: str, timezone: str, name: str = ""
) -> ReadFile:
    """Read ``path`` for meter ``ident`` (see the module docstring); UploadUnusable if the
    file cannot be used at all, named ``name`` (the user's name for it; the path's own by
    default). Row errors are collected, not raised."""
    out = ReadFile()
    name = shorten(name or path.name)
    spill = temporary_directory()  # private, swept when a killed import leaves files behind
    with tempfile.TemporaryDirectory(prefix="sewer-meter-", dir=spill) as folder:
        source = _with_meter_columns(path, ident, parameter, folder, name)
        options = ReadOptions(timezone=timezone, max_errors=MAX_ERRORS, spill_dir=spill)
        try:
            readings = open_readings(source, options)
            found: list[Series] = list(readings.series())
        except ReadingsError as e:
            raise UploadUnusable(str(e).replace(str(source), name)) from None
    out.errors.extend(readings.errors)
    out.errors_total = readings.errors_total
    mine: list[Series] = []
    for s in found:
        if s.meter != ident:
            field_name, message = (
                "meter",
                f"reading of meter {s.meter!r}: this upload is for {ident}",
            )
        elif s.parameter != parameter:
            field_name = "parameter"
            message = f"reading of {s.parameter}: meter {ident} measures {parameter}"
        else:
            mine.append(s)
            continue
        out.errors_total += len(s)
        out.errors.extend(RowError(int(r), field_name, message) for r in s.rows[:MAX_ERRORS])
    for s in mine:
        out.missing += s.missing
        pairs = list(zip(s.t.tolist(), s.v.tolist(), s.rows.tolist(), strict=True))
        for t, v, row in pairs:
            value = s.decimal(v)
            if s.unit == unit:
                text: str | None = format(value, "f")
            else:
                try:
                    text = _exact(value, s.unit, unit)
                except UnitError as e:
                    raise UploadUnusable(str(e)) from None
            if text is None:
                out.errors_total += 1
                out.errors.append(
                    RowError(
                        int(row),
                        "unit",
                        f"{value} {s.unit} has no exact decimal form in {unit}: "
                        f"write the readings in {unit}",
                    )
                )
                continue
            out.times_us.append(int(t))
            out.values.append(text)
    out.errors.sort()
    del out.errors[MAX_ERRORS:]
    return out


@contextmanager
def stored_upload(upload: Any) -> Iterator[Path]:
    """An uploaded file (page or API) written to a temporary file with its own suffix, which
    the reader dispatches on; removed afterwards."""
    name = str(getattr(upload, "name", "") or "readings")
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise UploadUnusable(f"{shorten(name)}: readings must be a .csv or .parquet file")
    refusal = upload_refused(name, int(upload.size))
    if refusal:
        raise UploadUnusable(refusal)
    with tempfile.TemporaryDirectory(prefix="sewer-upload-", dir=temporary_directory()) as folder:
        path = Path(folder) / f"upload{suffix}"
        with path.open("wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        yield path
