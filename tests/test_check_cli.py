"""``sewer-use check`` honours its contract: columns, JSON fields, statuses, errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sewer_cli.main import main

HEADER = "sample_id,sampled_at,sample_type,parameter,value,unit"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def write(tmp_path: Path, text: str, name: str = "r.csv") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["check", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_compliant_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(
        tmp_path,
        f"{HEADER}\nS1,2026-03-02T08:00,grab,pH,7.1,SU\nS1,2026-03-02,composite,BOD,120,mg/l\n",
    )
    code, doc = run_json(capsys, str(f))
    assert code == 0
    assert doc["jurisdiction"] == "wappinger"
    assert [r["status"] for r in doc["results"]] == ["compliant", "compliant"]
    assert doc["errors"] == []


def test_json_contract_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, f"{HEADER},facility\nS1,2026-03-02T08:00,grab,pH,5.4,SU,ACME\n")
    code, doc = run_json(capsys, str(f))
    assert code == 1
    (r,) = doc["results"]
    assert list(r) == [
        "row",
        "sample_id",
        "parameter",
        "value",
        "unit",
        "status",
        "findings",
        "advisories",
    ]
    assert (
        r["row"] == 2 and r["sample_id"] == "S1" and r["parameter"] == "ph" and r["value"] == "5.4"
    )
    assert r["status"] == "prohibited"
    (finding,) = r["findings"]
    assert finding == {
        "status": "prohibited",
        "citation": "§ 196-19 C(3)",
        "limit": "5.5",
        "limit_unit": "SU",
        "message": "pH 5.4 SU is lower than 5.5 SU",
    }
    assert doc["samples"] == [
        {"sample_id": "S1", "classifications": {"cooling_water": None, "unpolluted_water": False}}
    ]


def test_classifications_are_yes_no_unknown_true_false_null_in_json_and_words_in_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§ 196-15: a declared cooling-system source with BOD/SS ≤ 10 and no oil is cooling water
    (true); the same water with BOD 11 is not (false); without a declared source, unknown (null)."""
    rows = "".join(
        f"{s},2026-03-02,composite,{p},{v},mg/l,{src}\n"
        for s, src, bod in (
            ("A", "cooling_system", "10"),
            ("B", "cooling_system", "11"),
            ("C", "", "3"),
        )
        for p, v in (("BOD", bod), ("TSS", "10"), ("O&G", "<5"))
    )
    f = write(tmp_path, f"{HEADER},source\n{rows}")
    code, doc = run_json(capsys, str(f))
    assert code == 0
    assert [(s["sample_id"], s["classifications"]["cooling_water"]) for s in doc["samples"]] == [
        ("A", True),
        ("B", False),
        ("C", None),
    ]
    main(["check", str(f)])
    table = capsys.readouterr().out.split("Samples (", 1)[1].splitlines()
    cells = {line.split()[0]: line.split()[1:] for line in table[2:] if line.strip()}
    assert cells["A"][0] == "yes" and cells["B"][0] == "no" and cells["C"][0] == "unknown"


def test_row_errors_are_listed_and_the_rest_evaluated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(
        tmp_path,
        f"{HEADER}\nS1,2026-03-02,grab,pH,7,SU\nS2,2026-03-02,grab,O&G,7,mg/kg/x\nS3,yesterday,grab,pH,7,SU\n"
        "S4,2026-03-02,grab,pH,15,SU\nS5,2026-03-02,grab,zinc,-1,mg/l\nS6,2026-03-02,grab,unobtainium,1,mg/l\n"
        "S7,2026-03-02,grab,pH,seven,SU\nS8,2026-03-02,sometimes,pH,7,SU\n",
    )
    code, doc = run_json(capsys, str(f))
    assert code == 1
    assert [r["row"] for r in doc["results"]] == [2]
    errors = {(e["row"], e["field"]) for e in doc["errors"]}
    assert errors == {
        (3, "unit"),
        (4, "sampled_at"),
        (5, "value"),
        (6, "value"),
        (7, "parameter"),
        (8, "value"),
        (9, "sample_type"),
    }
    assert {"row": 3, "field": "unit", "message": "unknown unit 'mg/kg/x'"} in doc["errors"]


def test_review_exits_1_and_abnormal_strength_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    review = write(tmp_path, f"{HEADER}\nS1,2026-03-02,grab,pH,9.6,SU\n", "a.csv")
    abnormal = write(tmp_path, f"{HEADER}\nS1,2026-03-02,composite,BOD,600,mg/l\n", "b.csv")
    assert main(["check", str(review)]) == 1
    assert main(["check", str(abnormal)]) == 0
    capsys.readouterr()


def test_header_names_are_case_insensitive_and_extra_columns_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = write(
        tmp_path,
        "Sample_ID,SAMPLED_AT,Sample_Type,Parameter,Value,Unit,Lab Notes\nS1,2026-03-02,grab,pH,7,SU,ok\n",
    )
    code, doc = run_json(capsys, str(f))
    assert code == 0 and doc["results"][0]["status"] == "compliant"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "sample_id,sampled_at,sample_type,parameter,value\nS1,2026-03-02,grab,pH,7\n",
            "missing required column 'unit'",
        ),
        ("", "empty file"),
        (f"{HEADER}\n", "empty file"),
    ],
)
def test_unusable_files_exit_2_naming_file_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    f = write(tmp_path, text)
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(f) in err and "Traceback" not in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_binary_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.csv"
    f.write_bytes(b"\xff\xfe\x00\x01" * 50)
    assert main(["check", str(f)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_output_file_and_csv_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, f"{HEADER}\nS1,2026-03-02,grab,pH,5.4,SU\nS1,2026-03-02,grab,pH,x,SU\n")
    out = tmp_path / "out.csv"
    assert main(["check", str(f), "--format", "csv", "--output", str(out)]) == 1
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("row,sample_id,facility,parameter,value,unit,status,citations")
    assert "prohibited" in lines[1] and "§ 196-19 C(3)" in lines[1]
    assert lines[2].startswith("3,") and "error" in lines[2]
    assert capsys.readouterr().out == ""


def test_bad_limits_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, f"{HEADER}\nS1,2026-03-02,grab,pH,7,SU\n")
    limits = write(
        tmp_path, "facility,parameter,limit_type,value,unit\nF,pH,weekly_average,6,SU\n", "l.csv"
    )
    assert main(["check", str(f), "--limits", str(limits)]) == 2
    err = capsys.readouterr().err
    assert "row 2" in err and "limit_type" in err and str(limits) in err


def test_example_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "check",
            str(EXAMPLES / "lab-results-2026-03.csv"),
            "--limits",
            str(EXAMPLES / "permit-limits.csv"),
            "--jurisdiction",
            "demo",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "§ 196-19 C(3)" in out and "§ 196-15 NORMAL SEWAGE" in out and "Monthly averages" in out


def test_large_file_json_is_one_valid_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past 100,000 rows the JSON is serialised in halves; the document must still be whole."""
    rows = [
        f"S{i // 4},2026-03-02T08:{i % 60:02d},grab,pH,{5 + (i % 50) / 10:.1f},SU"
        for i in range(100_010)
    ]
    f = write(tmp_path, HEADER + "\n" + "\n".join(rows) + "\n")
    out = tmp_path / "out.json"
    assert main(["check", str(f), "--format", "json", "--output", str(out)]) == 1
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["row"] for r in doc["results"]] == list(range(2, 100_012))
    assert doc["results"][0]["status"] == "prohibited"  # pH 5.0
    capsys.readouterr()
