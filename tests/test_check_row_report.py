"""The row report never crashes: whatever the file's size and the number of bad cells, every
error is listed (row, field, message) and the exit status is the documented one (1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sewer_cli.main import main

from .lab_files import lab_file, scattered

#: A few sizes, one of them beyond the 50,000 rows where polars' chunked columns appear.
SIZES = st.sampled_from([10, 737, 50_000, 200_000])


def check_json(tmp_path: Path, text: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    src, out = tmp_path / "results.csv", tmp_path / "report.json"
    src.write_text(text, encoding="utf-8")
    code = main(["check", str(src), "--format", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


def test_three_bad_dates_in_50000_rows_are_listed(tmp_path: Path) -> None:
    """The reported crash: polars panicked building the messages of a large filtered frame."""
    f = lab_file(50_000, [(10, "sampled_at"), (20_000, "sampled_at"), (40_000, "sampled_at")])
    code, report = check_json(tmp_path, f.text)
    assert code == 1
    assert [(e["row"], e["field"]) for e in report["errors"]] == sorted(f.expected)
    assert all("bad date '2024-13-45 soon'" in e["message"] for e in report["errors"])
    assert len(report["results"]) == 50_000 - 3


@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # a shrink over 200,000-row files takes minutes
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rows=SIZES, n_bad=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_errors_are_always_listed(tmp_path: Path, rows: int, n_bad: int, seed: int) -> None:
    f = lab_file(rows, scattered(rows, n_bad, seed))
    code, report = check_json(tmp_path, f.text)
    assert code == 1
    listed = [(e["row"], e["field"]) for e in report["errors"]]
    assert set(listed) == f.expected and len(listed) == len(f.expected)
    assert listed == sorted(listed, key=lambda e: e[0])
    assert all(e["message"] for e in report["errors"])
    bad_rows = {r for r, _ in f.expected}
    assert {r["row"] for r in report["results"]} == set(range(2, rows + 2)) - bad_rows


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_table_and_csv_list_the_errors_of_a_large_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    f = lab_file(60_000, [(5, "value"), (30_000, "unit"), (59_999, "gap")])
    src = tmp_path / "r.csv"
    src.write_text(f.text, encoding="utf-8")
    assert main(["check", str(src), "--format", fmt]) == 1
    out = capsys.readouterr().out
    assert "unparseable value 'seven'" in out and "unknown unit 'furlongs'" in out
    assert "does not exist on 2024-03-10" in out


def test_spring_forward_gap_says_the_time_does_not_exist(tmp_path: Path) -> None:
    f = lab_file(3, [(1, "gap")])
    code, report = check_json(tmp_path, f.text)
    assert code == 1
    (err,) = report["errors"]
    assert err["row"] == 3 and err["field"] == "sampled_at"
    assert "ISO 8601 expected" not in err["message"]
    assert "local time '2024-03-10T02:30' does not exist on 2024-03-10" in err["message"]
    assert "America/New_York" in err["message"] and "2024-03-10T03:30-04:00" in err["message"]


def test_autumn_repeated_hour_is_the_first_and_analyzed_at_gap_is_explained(
    tmp_path: Path,
) -> None:
    text = (
        "sample_id,sampled_at,sample_type,parameter,value,unit,analyzed_at\n"
        "A,2024-11-03T01:30,grab,pH,7,SU,2024-11-03T01:40-05:00\n"
        "B,2024-03-09T23:00,grab,pH,7,SU,2024-03-10T02:15\n"
    )
    code, report = check_json(tmp_path, text)
    assert [r["row"] for r in report["results"]] == [2]
    # 01:30 read as the first 01:30 (EDT, 05:30 UTC): analysed at 06:40 UTC, after it.
    (err,) = report["errors"]
    assert (err["row"], err["field"]) == (3, "analyzed_at")
    assert "does not exist" in err["message"] and "2024-03-10T03:15-04:00" in err["message"]
    assert code == 1
