"""A meter readings file opened for the rules: CSV or Parquet, lazily, series by series.

The hygiene (columns, times, exact values, units, duplicates, row errors) is the rules'
(:mod:`sewer_engines.monitoring.readings`); this module does what touches the file system:
opening the file, estimating what its compact form would take in memory, and — for a file
larger than the memory budget — splitting it in one streaming pass into one Parquet file per
meter and parameter in a temporary folder (removed afterwards), read back one series at a
time. This is the general reader: ``sewer-use slugs`` and the office's meter uploads open a
file through :func:`sewer_io.meter_files.open_readings`, which sends here every file the
compiled reader of historians' exports (:mod:`sewer_io.historian`) does not take.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sewer_engines.monitoring.columns import check_columns
from sewer_engines.monitoring.compact_rows import compact, compact_now
from sewer_engines.monitoring.readings import SeriesSource
from sewer_engines.monitoring.series import Series
from sewer_engines.monitoring.source import ReadingsError, ReadOptions, first_line


@dataclass(frozen=True)
class ParquetSize:
    """What a Parquet file's footer declares: its rows, and the bytes of its pages
    decompressed (before their encodings are undone: a run of one value stays small)."""

    rows: int
    decompressed: int


def parquet_size(path: Path) -> ParquetSize:
    """The size a Parquet file declares (:class:`ParquetSize`), read from its footer alone —
    nothing is decompressed; :class:`ReadingsError` when the file has no readable footer."""
    try:
        meta = pq.read_metadata(path)
    except (pa.ArrowException, OSError) as e:
        raise ReadingsError(f"{path}: cannot read: {first_line(e)}") from None
    decompressed = sum(
        meta.row_group(g).column(c).total_uncompressed_size
        for g in range(meta.num_row_groups)
        for c in range(meta.num_columns)
    )
    return ParquetSize(int(meta.num_rows), int(decompressed))


def scan(path: Path) -> pl.LazyFrame:
    """The file as a lazy frame of text columns (CSV) or its own types (Parquet)."""
    suffix = path.suffix.lower()
    if not path.is_file():
        raise ReadingsError(f"{path}: no such file")
    if suffix == ".csv":
        return pl.scan_csv(path, infer_schema=False, raise_if_empty=False)
    if suffix in (".parquet", ".pq"):
        return pl.scan_parquet(path)
    raise ReadingsError(f"{path}: readings must be a .csv or .parquet file")


class Readings(SeriesSource):
    """A readings file, opened lazily; iterate :meth:`series` to get one series at a time."""

    def __init__(self, path: str | Path, options: ReadOptions | None = None) -> None:
        super().__init__(path, options)
        # the columns are checked at once; the full lazy query (which samples the file for its
        # time layouts) is built only for a file read in partitions (:meth:`series`)
        check_columns(self.path, scan(self.path))

    def _estimate(self) -> int:
        """Bytes the compact form of the file would take in memory (about 40 a row)."""
        if self.path.suffix.lower() == ".csv":
            return self.path.stat().st_size
        try:
            rows = pl.scan_parquet(self.path).select(pl.len()).collect().item()
        except pl.exceptions.PolarsError as e:
            raise ReadingsError(f"{self.path}: cannot read: {first_line(e)}") from None
        return int(rows) * 40

    def series(self) -> Iterator[Series]:
        """Each meter's series of each parameter, sorted by meter then parameter."""
        if self.options.held_whole(self._estimate()):
            yield from self.series_of(compact_now(self.path, scan(self.path), self.options))
            return
        self.spilled = True
        folder = tempfile.mkdtemp(prefix="sewer-slugs-", dir=self.options.spill_dir)
        try:
            lazy = compact(self.path, scan(self.path), self.options)
            keyed = lazy.with_columns(
                pl.col("meter").fill_null(""), pl.col("parameter").fill_null("")
            )
            try:
                keyed.sink_parquet(
                    pl.PartitionBy(folder, key=["meter", "parameter"], include_key=True),
                    mkdir=True,
                    engine="streaming",
                )
            except (pl.exceptions.PolarsError, OSError) as e:
                raise ReadingsError(f"{self.path}: cannot read: {first_line(e)}") from None
            # one folder per meter and spelling of a parameter: group the spellings of one
            # parameter, then read and judge one series at a time
            leaves: dict[tuple[str, str], list[str]] = {}
            for d, _, files in os.walk(folder):
                if not any(f.endswith(".parquet") for f in files):
                    continue
                parts = [unquote(p.split("=", 1)[-1]) for p in Path(d).relative_to(folder).parts]
                meter, raw = [*parts, "", ""][:2]
                leaves.setdefault((meter, self.spelled(raw)), []).append(d)
            for key in sorted(leaves):
                frames = [pl.read_parquet(Path(d) / "*.parquet") for d in sorted(leaves[key])]
                yield from self.series_of(pl.concat(frames))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
