"""A historian's export read whole by the compiled reader (:mod:`sewer_rules.monitoring.native`).

Meter historians export one meter's flow as ``timestamp,value`` lines, the time with its
offset and the value as the float it held (``2026-01-04T00:00:00-05:00,190.95000000000002``).
The compiled reader reads such a file in one pass over its bytes; it takes the file only when
every line is of that kind and the times strictly increase — what the general reader
(:mod:`sewer_io.readings`) would read without a remark — and otherwise declines, having
decided nothing, and the general reader reads the file. This module opens the file; what its
lines mean is the rules'. It loads neither polars nor pyarrow.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from sewer_rules.monitoring import native
from sewer_rules.monitoring.series import Series
from sewer_rules.monitoring.source import ReadOptions, Source

#: The first line is read alone first, so that another file is not read whole for nothing.
_HEADER_BYTES = 1024


class HistorianFile(Source):
    """A file the compiled reader took: one series, no row errors."""

    def __init__(self, path: str | Path, options: ReadOptions, series: Series) -> None:
        super().__init__(path, options)
        self._series = series

    @classmethod
    def open(cls, path: str | Path, options: ReadOptions) -> HistorianFile | None:
        """The file read by the compiled reader, or None: the module is not built or turned
        off, the file is not a CSV of a size held whole (``memory_budget``), only part of it
        is asked for (a meter or a parameter), or a line is not a historian's."""
        path = Path(path)
        whole = options.meter is None and options.parameter is None
        if not (whole and native.available() and path.suffix.lower() == ".csv"):
            return None
        try:
            # unbuffered: the whole file is then read in one call into one object of its
            # size (a buffered reader that has read the first line copies it all once more)
            with path.open("rb", buffering=0) as f:
                if not options.held_whole(os.fstat(f.fileno()).st_size):
                    return None
                head = f.read(_HEADER_BYTES) or b""
                if not native.is_historian_header(head.split(b"\n", 1)[0]):
                    return None
                f.seek(0)
                data = f.readall()
        except OSError:
            return None  # the general reader says what is wrong with it
        series = native.historian_series(data)
        return None if series is None else cls(path, options, series)

    def series(self) -> Iterator[Series]:
        yield self._series
