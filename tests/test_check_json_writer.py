"""The JSON report of a large evaluation is the same document whichever way it is written:
straight into a seekable file (first half by polars into the file) or piece by piece into a
pipe."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sewer_engines.evaluation import evaluate_table
from sewer_io import check_io
from sewer_io.check_io import frame_with_rows, write_json
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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.text(max_size=12)),
            st.one_of(st.none(), st.lists(st.one_of(st.none(), st.text(max_size=6)), max_size=3)),
            st.one_of(st.none(), st.booleans()),
        ),
        max_size=12,
    ),
    st.integers(min_value=1, max_value=5),
)
def test_arrays_are_polars_ndjson_objects_joined_by_commas(
    rows: list[tuple[str | None, list[str | None] | None, bool | None]], slice_rows: int
) -> None:
    """Byte for byte what polars' NDJSON writer writes (its lines joined by commas, null lists
    of the named fields as ``[]``): any text (quotes, controls, line separators, non-ASCII),
    nulls, nested lists of structs, any slicing."""
    frame = pl.DataFrame(
        {
            "row": list(range(2, len(rows) + 2)),
            "text": [r[0] for r in rows],
            "items": [None if r[1] is None else [{"k": k} for k in r[1]] for r in rows],
            "flag": [r[2] for r in rows],
        },
        schema={
            "row": pl.Int64,
            "text": pl.String,
            "items": pl.List(pl.Struct({"k": pl.String})),
            "flag": pl.Boolean,
        },
    )
    filled = frame.with_columns(pl.col("items").fill_null(pl.lit([], dtype=frame["items"].dtype)))
    lines = io.BytesIO()
    filled.write_ndjson(lines)
    expected = b"[" + lines.getvalue().rstrip(b"\n").replace(b"\n", b",") + b"]"
    old = check_io.SLICE_ROWS
    check_io.SLICE_ROWS = slice_rows
    try:
        assert check_io.json_array(frame, ("items",)) == expected
    finally:
        check_io.SLICE_ROWS = old
    assert json.loads(expected) == filled.to_dicts()
