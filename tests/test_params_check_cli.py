"""``sewer-use params --check FILE``: a parameter file checked against the schema without
running anything — exit 0 and "OK: N parameters, M values", or exit 2 listing every problem;
and ``sewer-use params --on`` as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sewer_cli.main import main
from sewer_rules.parameters import load_jurisdiction

BUNDLED_DIR = Path(__file__).resolve().parent.parent / "src" / "sewer_rules" / "jurisdictions"

# Two parameters, three dated values (ph.minimum 2, ph.maximum 1): "OK: 2 parameters, 3 values".
SMALL = """\
jurisdiction: small
parameters:
  ph.minimum:
    description: pH below which a discharge is prohibited
    reference: "§ 196-19 C(3)"
    unit: SU
    values:
      1992-09-28: {value: "5.5", authority: L.L. No. 9-1992}
      2030-01-01: "6"
  ph.maximum:
    description: pH above which a discharge is reviewable
    reference: "§ 196-19 D(8)"
    unit: SU
    values:
      1992-09-28: "9.5"
"""

BAD = """\
jurisdiction: bad
extends: wappinger
parameters:
  fine.daily_amount:
    values:
      2004-03-22: {value: "-5.00", authority: typed wrong}
  notice.correction_days:
    values:
      2026-01-01: "3"
  colour.maximum:
    description: d
    reference: "§ 196-19 D(5)"
    unit: mg/l
    values:
      1992-09-28: "5"
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_valid_file_is_ok_with_its_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "small.yaml"
    f.write_text(SMALL, encoding="utf-8")
    code, out, err = run(capsys, "params", "--check", str(f))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "OK: 2 parameters, 3 values"
    assert str(f) in out.splitlines()[1]


@pytest.mark.parametrize("name", ["wappinger", "demo"])
def test_the_shipped_files_check_ok(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """demo extends wappinger: its count is of the merged set a command would use."""
    code, out, _ = run(capsys, "params", "--check", str(BUNDLED_DIR / name / "parameters.yaml"))
    params = load_jurisdiction(name)
    n, m = len(params.parameters), sum(len(p.values) for p in params)
    assert code == 0
    assert out.splitlines()[0] == f"OK: {n} parameters, {m} values"


def test_a_bad_file_exits_2_listing_every_problem(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(BAD, encoding="utf-8")
    code, out, err = run(capsys, "params", "--check", str(f))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == f"{f}: fine.daily_amount = -5.00 (from 2004-03-22): money must be ≥ 0"
    assert lines[1].startswith(f"{f}: notice.correction_days = 3 (from 2026-01-01): must be ≥ 10")
    assert lines[2].startswith(f"{f}: parameter colour.maximum: not in the parameter schema")
    assert lines[3] == f"sewer-use: {f}: refused, 3 problems"
    assert len(lines) == 4


def test_a_bad_file_in_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "params", "--check", str(f), "--format", "json")
    data = json.loads(out)
    assert code == 2
    assert data["valid"] is False and len(data["problems"]) == 3


def test_a_good_file_in_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "small.yaml"
    f.write_text(SMALL, encoding="utf-8")
    code, out, _ = run(capsys, "params", "--check", str(f), "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert (data["valid"], data["parameters"], data["values"]) == (True, 2, 3)


def test_a_missing_or_unreadable_file_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "params", "--check", str(tmp_path / "nope.yaml"))
    assert code == 2 and "no jurisdiction" in err
    broken = tmp_path / "broken.yaml"
    broken.write_text("jurisdiction: [unclosed\n", encoding="utf-8")
    code, _, err = run(capsys, "params", "--check", str(broken))
    assert code == 2 and "not valid YAML" in err


def test_check_does_not_mix_with_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "small.yaml"
    f.write_text(SMALL, encoding="utf-8")
    code, _, err = run(capsys, "params", "--check", str(f), "--on", "2026-03-02")
    assert code == 2 and "--on and --jurisdiction do not apply" in err


def test_params_on_a_date_still_prints_the_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "params", "--on", "2026-03-02", "--jurisdiction", "demo")
    assert code == 0
    assert "parameters in force on 2026-03-02" in out
    assert "350.00" in out  # fine.daily_amount, EXAMPLE resolution 2026-02 (demo)
    code, out, _ = run(capsys, "params", "--on", "2026-03-02", "--format", "json")
    assert code == 0 and json.loads(out)["jurisdiction"] == "wappinger"


def test_params_refuses_a_bad_jurisdiction_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every command loads its parameters the same way: a bad file is unusable input."""
    f = tmp_path / "bad.yaml"
    f.write_text(BAD, encoding="utf-8")
    code, out, err = run(capsys, "params", "--on", "2026-03-02", "--jurisdiction", str(f))
    assert (code, out) == (2, "")
    assert "money must be ≥ 0" in err and "must be ≥ 10" in err
