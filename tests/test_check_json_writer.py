"""The JSON report of a large evaluation is the same document whichever way it is written:
straight into a seekable file (first half by polars into the file) or piece by piece into a
pipe."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl

from sewer_io.check_io import frame_with_rows, write_json
from sewer_rules.evaluation import evaluate_table
from sewer_rules.parameters import load_jurisdiction


class Pipe(io.TextIOWrapper):
    """A text stream whose byte buffer cannot seek, like a pipe."""

    def __init__(self) -> None:
        self.raw_bytes = io.BytesIO()
        super().__init__(_Unseekable(self.raw_bytes), encoding="utf-8")


class _Unseekable(io.BufferedWriter):
    def seekable(self) -> bool:
        return False


def test_large_report_is_identical_in_a_file_and_in_a_pipe(tmp_path: Path) -> None:
    n = 120_000
    values = [f"{5 + (i % 50) / 10:.1f}" for i in range(n)]
    raw = frame_with_rows(
        pl.DataFrame(
            {
                "sample_id": [f"S{i // 4}" for i in range(n)],
                "sampled_at": ["2026-03-02T10:00"] * n,
                "sample_type": ["grab"] * n,
                "parameter": ["pH"] * n,
                "value": values,
                "unit": ["SU"] * n,
            }
        ),
        "generated",
    )
    params = load_jurisdiction("wappinger")
    ev = evaluate_table(raw, params)
    path = tmp_path / "report.json"
    with path.open("w", encoding="utf-8") as fh:
        write_json(ev, "wappinger", fh)
    pipe = Pipe()
    write_json(ev, "wappinger", pipe)
    pipe.flush()
    in_file = path.read_bytes()
    assert in_file == pipe.raw_bytes.getvalue()
    doc = json.loads(in_file)
    assert len(doc["results"]) == n
    assert doc["results"][0]["status"] == "prohibited"  # pH 5.0 < 5.5, § 196-19 C(3)
    assert doc["results"][n // 2]["row"] == n // 2 + 2  # the seam between the halves
