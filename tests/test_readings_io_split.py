"""The rules read readings from frames; the file (opening, splitting a large one) is sewer_io's."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import polars as pl

import sewer_engines.monitoring.readings as rules_readings
from sewer_engines.monitoring.compact_rows import compact_now
from sewer_engines.monitoring.readings import ReadOptions, SeriesSource
from sewer_engines.monitoring.series import Series
from sewer_io.readings import Readings

FILE_MODULES = {"os", "shutil", "tempfile", "glob", "io"}


def test_the_rules_reading_touches_no_file_system() -> None:
    tree = ast.parse(Path(rules_readings.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0
    }
    assert not imported & FILE_MODULES
    source = Path(rules_readings.__file__).read_text(encoding="utf-8")
    assert "scan_csv" not in source and "read_parquet" not in source


class _Frame(SeriesSource):
    """Readings held in memory, as the office or a test may have them."""

    def __init__(self, frame: pl.DataFrame, options: ReadOptions) -> None:
        super().__init__("memory", options)
        self.frame = frame

    def series(self) -> Iterator[Series]:
        yield from self.series_of(compact_now(self.path, self.frame.lazy(), self.options))


def test_a_frame_gives_the_series_a_file_gives(tmp_path: Path) -> None:
    rows = pl.DataFrame(
        {
            "timestamp": ["2026-03-02T10:00", "2026-03-02T10:01", "2026-03-02T10:02", "bad"],
            "value": ["12.30", "12.5", "N/A", "1"],
            "meter": ["M1", "M1", "M1", "M1"],
        }
    )
    f = tmp_path / "r.csv"
    rows.write_csv(f)
    options = ReadOptions()
    from_file = Readings(f, options)
    from_frame = _Frame(rows, options)
    (a,) = list(from_file.series())
    (b,) = list(from_frame.series())
    assert (a.meter, a.parameter, a.scale) == (b.meter, b.parameter, b.scale) == ("M1", "flow", 1)
    assert a.v.tolist() == b.v.tolist() == [123, 125]
    assert [e.row for e in from_file.errors] == [e.row for e in from_frame.errors] == [5]
