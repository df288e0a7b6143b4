"""A meter readings file opened by the reader that suits it, and judged.

``sewer-use slugs`` and the office's meter uploads open files here: a historian's export
the compiled reader takes whole (:mod:`sewer_io.historian`), any other file by the general
reader (:mod:`sewer_io.readings`: CSV or Parquet, every layout, row errors, files larger than
memory). Both give the same series for the files the first takes (the tests compare them).
"""

from __future__ import annotations

from pathlib import Path

from sewer_engines.monitoring.analysis import Options, Report, read_options, report_of
from sewer_engines.monitoring.source import ReadOptions, Source
from sewer_rules.parameters import load_jurisdiction

from .historian import HistorianFile


def open_readings(path: str | Path, options: ReadOptions) -> Source:
    """The file's reader: :class:`HistorianFile` when it takes the file, else
    :class:`sewer_io.readings.Readings` (which raises ``ReadingsError`` for a file that
    cannot be used at all)."""
    historian = HistorianFile.open(path, options)
    if historian is not None:
        return historian
    # polars and pyarrow load here, for the general reader only: a file the compiled reader
    # takes is judged without them (their import is a fifth of such a command's time)
    from .readings import Readings

    return Readings(path, options)


def analyse(path: str | Path, options: Options | None = None) -> Report:
    """Judge every series of a readings file (:mod:`sewer_engines.monitoring.analysis`)."""
    options = options or Options()
    params = load_jurisdiction(options.jurisdiction)
    readings = open_readings(path, read_options(options, params))
    return report_of(str(path), readings, options, params)
