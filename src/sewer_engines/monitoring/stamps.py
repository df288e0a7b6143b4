"""Times written ``YYYY-MM-DDTHH:MM:SS±HH:MM``, read as arithmetic on their bytes.

This is the layout meter historians export (ISO 8601 with the offset, one per reading), and a
file of millions of readings spends most of its reading time turning that text into instants.
Here the text's bytes are viewed as a table of 25 columns (no copy when every time has that
layout) and the instant is computed with integer arithmetic on whole columns: the civil date
to days since 1970 (the proleptic Gregorian calendar, as ISO 8601 uses), plus the clock, minus
the offset. Anything else — another layout, an impossible date such as 2026-02-30, a 60th
second — is left to the general parser of :mod:`.readings` (returned as not read here), so
this is a shortcut, never a second reading of the law's time.

When every time of a file has that layout (the usual export), Arrow's own ISO 8601 parser reads
the whole column at once (:func:`_by_arrow`), after the layout's separators are checked here:
it accepts exactly these texts — digits where digits go, a real date, a clock up to 23:59:59,
an offset up to 23:59 — and gives the same instants; if it refuses any row, the arithmetic
below reads the column instead, row by row of the table, so a bad row costs the shortcut only.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from sewer_rules.monitoring.instants import US_PER_SECOND

from .series import CHUNK, I64

WIDTH = 25  # 2026-03-08T03:00:00-04:00
_DIGITS = (0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24)
_NOT_READ = np.iinfo(np.int64).min


def _days_from_civil(y: I64, m: I64, d: I64) -> I64:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y = y - (m <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return np.asarray(era * 146097 + doe - 719468, dtype=np.int64)


def _calendar(low: int, high: int) -> I64:
    """Days since 1970-01-01 of each ``(year, month, day)`` for the years ``low..high``, as a
    flat table indexed ``((year - low) * 13 + month) * 32 + day``; :data:`NOT_READ` where no
    such date."""
    years = np.arange(low, high + 1, dtype=np.int64)
    y, m, d = np.meshgrid(years, np.arange(13), np.arange(32), indexing="ij")
    leap = ((y % 4 == 0) & (y % 100 != 0)) | (y % 400 == 0)
    month_days = np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], dtype=np.int64)
    last = month_days[m] + ((m == 2) & leap)
    real = (m >= 1) & (d >= 1) & (d <= last)
    days = _days_from_civil(y, np.maximum(m, 1), np.maximum(d, 1))
    return np.where(real, days, _NOT_READ).ravel()


def _table(
    text: pl.Series,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_], pa.Array] | None:
    """The rows of ``text`` that are 25 bytes long as an (n, 25) byte table (other rows
    zero), which rows those are, and the column as Arrow text; None when no row is."""
    arr = text.to_arrow()
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    arr = arr.cast(pa.large_string())
    n = len(arr)
    _, offsets_buf, data_buf = arr.buffers()
    if offsets_buf is None or data_buf is None:
        return None
    offsets = np.frombuffer(offsets_buf, dtype=np.int64)[arr.offset : arr.offset + n + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8)
    lengths = np.diff(offsets)
    fits = lengths == WIDTH
    if arr.null_count:
        fits &= text.is_not_null().to_numpy()
    if not bool(fits.any()):
        return None
    start = int(offsets[0])
    if bool(fits.all()):
        table = data[start : start + n * WIDTH].reshape(n, WIDTH)
    else:
        table = np.zeros((n, WIDTH), dtype=np.uint8)
        rows = np.flatnonzero(fits)
        table[rows] = data[offsets[rows][:, None] + np.arange(WIDTH)]
    return table, fits, arr


#: Byte positions and the separator each must hold in ``YYYY-MM-DDTHH:MM:SS±HH:MM``.
_SEPARATORS = tuple(zip((4, 7, 10, 13, 16, 22), b"--T:::", strict=True))


def _by_arrow(table: npt.NDArray[np.uint8], arr: pa.Array) -> I64 | None:
    """Every row read by Arrow's ISO 8601 parser, when every row has the layout's separators
    and Arrow reads them all; None otherwise (the caller then reads them here)."""
    for i, char in _SEPARATORS:
        if not bool((table[:, i] == char).all()):
            return None
    sign = table[:, 19]
    if not bool(((sign == ord("+")) | (sign == ord("-"))).all()):
        return None
    try:
        instants = pc.cast(arr, pa.timestamp("us", "UTC"))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if instants.null_count:
        return None
    return _int64_values(instants.cast(pa.int64()))


def _int64_values(arr: pa.Array) -> I64:
    """The values of an int64 Arrow array without nulls, as numpy sees its buffer (no copy).

    Not ``to_numpy()``: pyarrow imports pandas for it the first time, 0.15 s of the command."""
    data = arr.buffers()[1]
    if data is None:
        return np.zeros(0, dtype=np.int64)
    values = np.frombuffer(data, dtype=np.int64)
    return values[arr.offset : arr.offset + len(arr)]


def aware_instants(text: pl.Series) -> I64:
    """µs since the epoch (UTC) of each ``YYYY-MM-DDTHH:MM:SS±HH:MM`` in ``text``;
    :data:`NOT_READ` where a row is not exactly that (see the module docstring). Worked a
    cache-sized chunk of rows at a time."""
    n = len(text)
    out = np.full(n, _NOT_READ, dtype=np.int64)
    found = _table(text)
    if found is None:
        return out
    table, fits, arr = found
    every = bool(fits.all())
    if every:
        whole = _by_arrow(table, arr)
        if whole is not None:
            return whole
    ok_rows = table if every else table[fits]
    if ok_rows.shape[0] == 0:
        return out
    # the years present, from the first and last rows and a sample (the table of dates spans
    # them; a year outside it is simply not read here)
    probe = ok_rows[:: max(1, ok_rows.shape[0] // 1024), 0:4].astype(np.int32) - 48
    probe = np.concatenate((probe, ok_rows[-1:, 0:4].astype(np.int32) - 48))
    years = probe[:, 0] * 1000 + probe[:, 1] * 100 + probe[:, 2] * 10 + probe[:, 3]
    low, high = max(0, int(years.min()) - 1), min(9999, int(years.max()) + 1)
    calendar = _calendar(low, high)
    result = out if every else np.full(ok_rows.shape[0], _NOT_READ, dtype=np.int64)
    for s in range(0, ok_rows.shape[0], CHUNK):
        e = min(ok_rows.shape[0], s + CHUNK)
        result[s:e] = _chunk(ok_rows[s:e], calendar, low, high)
    if not every:
        out[fits] = result
    return out


def _chunk(table: npt.NDArray[np.uint8], calendar: I64, low: int, high: int) -> I64:
    ok = np.ones(table.shape[0], dtype=np.bool_)
    for i in _DIGITS:
        ok &= (table[:, i] - np.uint8(48)) < 10
    for i, char in zip((4, 7, 10, 13, 16, 22), b"--T:::", strict=True):
        ok &= table[:, i] == char
    sign = table[:, 19]
    ok &= (sign == ord("+")) | (sign == ord("-"))

    def number(*columns: int) -> npt.NDArray[np.int32]:
        value = table[:, columns[0]].astype(np.int32)
        value -= 48
        for i in columns[1:]:
            value *= 10
            value += table[:, i]
            value -= 48
        return value

    year, month, day = number(0, 1, 2, 3), number(5, 6), number(8, 9)
    hour, minute, second = number(11, 12), number(14, 15), number(17, 18)
    off_h, off_m = number(20, 21), number(23, 24)
    ok &= (year >= low) & (year <= high) & (month <= 12) & (day <= 31)
    index = ((np.clip(year, low, high) - low) * 13 + np.minimum(month, 12)) * 32
    index += np.minimum(day, 31)
    days = calendar[index]
    ok &= days != _NOT_READ
    ok &= (hour <= 23) & (minute <= 59) & (second <= 59) & (off_h <= 23) & (off_m <= 59)
    offset = (off_h * 60 + off_m) * 60
    offset = np.where(sign == ord("-"), -offset, offset)
    seconds = days * 86_400 + (hour * 3600 + minute * 60 + second - offset)
    return np.where(ok, seconds * US_PER_SECOND, _NOT_READ)


NOT_READ = _NOT_READ
