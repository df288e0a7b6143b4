"""A meter file's CSV read whole by the compiled reader (:mod:`sewer_engines.monitoring.native`).

Meter historians export flow as ``timestamp,value`` lines (or ``meter,timestamp,value``, one
file for several meters), the time in ISO 8601 — ``2026-01-04T00:00:00-05:00``,
``2026-01-04T05:00Z``, ``2026-01-04 05:00:00.000``, town time when it has no offset — and the
value as the float it held (``190.95000000000002``) or nothing for a gap. The compiled reader
reads such a file in one pass over its bytes; it takes the file only when every line is one
the general reader (:mod:`sewer_io.readings`) would read without a remark, and otherwise
declines, having decided nothing, and the general reader reads the file. This module opens
the file; what its lines mean is the rules'. It loads neither polars nor pyarrow.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from pathlib import Path

from sewer_engines.monitoring import native
from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.source import ReadOptions, Source

#: The first line is read alone first, so that another file is not read whole for nothing.
_HEADER_BYTES = 1024


class HistorianFile(Source):
    """A file the compiled reader took: its series (one a meter), no row errors."""

    def __init__(self, path: str | Path, options: ReadOptions, series: list[Series]) -> None:
        super().__init__(path, options)
        self._series = series

    @classmethod
    def open(cls, path: str | Path, options: ReadOptions) -> HistorianFile | None:
        """The file read by the compiled reader, or None: the module is not built or turned
        off, the file is not a CSV of a size held whole (``memory_budget``), a parameter is
        asked for, or a line is not one the reader takes. A meter asked for is the series of
        that meter (the general reader reads the others' lines without remark too, or the
        compiled reader would not have taken the file)."""
        path = Path(path)
        if not (options.parameter is None and native.available()):
            return None
        if path.suffix.lower() != ".csv":
            return None
        try:
            with path.open("rb", buffering=0) as f:
                size = os.fstat(f.fileno()).st_size
                if size == 0 or not options.held_whole(size):
                    return None
                head = f.read(_HEADER_BYTES) or b""
                if native.historian_columns(head.split(b"\n", 1)[0]) is None:
                    return None
                # mapped, not read: the reader reads the file's pages where the system holds
                # them, and no copy of the file is made (nor its memory cleared first)
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                    series = native.historian_series(data, options.timezone)
        except (OSError, ValueError):
            return None  # the general reader says what is wrong with it
        if series is None:
            return None
        if options.meter is not None:
            series = [s for s in series if s.meter == options.meter]
        return cls(path, options, series)

    def series(self) -> Iterator[Series]:
        yield from self._series
