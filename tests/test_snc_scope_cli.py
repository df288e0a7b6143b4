"""``sewer-use snc --not-siu``: the files carry no designation, so the command says whom it takes
to be a significant industrial user, and judges (A), (B), (F) for those only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sewer_cli.main import EXIT_FOUND, EXIT_OK, EXIT_UNUSABLE, main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RESULTS = str(EXAMPLES / "lab-results-2026-03.csv")
LIMITS = str(EXAMPLES / "permit-limits.csv")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["snc", RESULTS, "--limits", LIMITS, "--period", "2026H1", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_facility_is_taken_to_be_an_siu_and_the_output_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys)
    assert code == EXIT_FOUND
    assert "Every facility in the files is taken to be a significant industrial user" in out
    assert "(C), (D), (H) to any industrial user" in out
    code, out, _ = _run(capsys, "--format", "json")
    scope = json.loads(out)["scope"]
    assert scope["siu_only"] == ["A", "B", "E", "F", "G"] and scope["not_siu"] == []


def test_a_facility_named_not_an_siu_is_not_judged_under_a_b_f(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    reports = tmp_path / "reports.csv"
    reports.write_text(
        "facility,report,due,received\nACME-PLATING,periodic,2026-01-15,2026-05-02\n"
    )
    code, out, _ = _run(
        capsys, "--reports", str(reports), "--not-siu", "ACME-PLATING", "--format", "json"
    )
    data = json.loads(out)
    assert code == EXIT_OK
    assert data["facilities_in_snc"] == [] and data["determinations"] == []
    assert data["reports"] == []
    (row,) = data["scope"]["not_siu"]
    assert row["facility"] == "ACME-PLATING" and row["reports_not_judged"] == 1
    assert row["results_not_counted"] > 0
    code, out, _ = _run(capsys, "--not-siu", "ACME-PLATING")
    assert "ACME-PLATING: not an SIU" in out and "In significant noncompliance: none" in out


def test_an_unknown_facility_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--not-siu", "ACME-PLATING,NOPE")
    assert code == EXIT_UNUSABLE and "--not-siu: no facility NOPE" in err
