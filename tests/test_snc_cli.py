"""``sewer-use snc``: the JSON contract, exit statuses and refusals (40 CFR 403.8(f)(2)(viii))."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sewer_cli.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RESULTS = str(EXAMPLES / "lab-results-2026-03.csv")
LIMITS = str(EXAMPLES / "permit-limits.csv")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract_one_entry_per_facility_parameter_limit(capsys) -> None:
    code, out, _ = run(
        capsys, "snc", RESULTS, "--limits", LIMITS, "--period", "2026H1", "--format", "json"
    )
    data = json.loads(out)
    assert code == 1  # Acme's March copper average exceeds its monthly limit: (A) and (B)
    assert data["period"] == {"start": "2026-01-01", "end": "2026-06-30"}
    keys = {"facility", "parameter", "limit_type", "limit", "measurements", "exceeding"}
    keys |= {"trc_exceeding", "snc", "criteria", "citations"}
    for d in data["determinations"]:
        assert keys <= set(d)
    series = [(d["facility"], d["parameter"], d["limit_type"]) for d in data["determinations"]]
    assert len(series) == len(set(series))
    copper = next(
        d
        for d in data["determinations"]
        if d["parameter"] == "copper" and d["limit_type"] == "monthly_average"
    )
    assert copper["snc"] is True
    assert copper["criteria"] == ["A", "B"]
    assert copper["citations"] == ["40 CFR 403.8(f)(2)(viii)(A)", "40 CFR 403.8(f)(2)(viii)(B)"]
    assert copper["counted"] and copper["counted"][0]["exceeds"] is True
    assert data["facilities_in_snc"] == ["ACME-PLATING"]


def test_no_snc_exits_0(capsys, tmp_path: Path) -> None:
    limits = tmp_path / "limits.csv"
    limits.write_text(
        "facility,parameter,limit_type,value,unit\nACME-PLATING,zinc,daily_maximum,2.0,mg/l\n"
    )
    code, out, _ = run(capsys, "snc", RESULTS, "--limits", str(limits), "--period", "2026H1")
    assert code == 0
    assert "In significant noncompliance: none" in out


def test_late_report_is_snc_f(capsys, tmp_path: Path) -> None:
    limits = tmp_path / "limits.csv"
    limits.write_text(
        "facility,parameter,limit_type,value,unit\nACME-PLATING,zinc,daily_maximum,2.0,mg/l\n"
    )
    reports = tmp_path / "reports.csv"
    reports.write_text(
        "facility,report,due,received\nACME-PLATING,periodic compliance report,2026-01-15,2026-03-02\n"
    )
    code, out, _ = run(
        capsys, "snc", RESULTS, "--limits", str(limits), "--period", "2026H1",
        "--reports", str(reports), "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 1
    assert data["reports"][0]["days_late"] == 46
    assert data["reports"][0]["criteria"] == ["F"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--period", "2026H3"], "period '2026H3'"),
        (["--period", "2026-03..2026-08"], "calendar halves"),
        (["--period", "2026-02..2026-02", "--rolling"], "holds no quarter's end"),
    ],
)
def test_unusable_period_exits_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "snc", RESULTS, "--limits", LIMITS, *argv)
    assert code == 2
    assert message in err


def test_results_with_row_errors_are_refused_with_every_error(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "sample_id,sampled_at,sample_type,parameter,value,unit,facility\n"
        "S1,2026-03-02T08:00,grab,copper,abc,mg/l,ACME-PLATING\n"
        "S2,not a date,grab,copper,1.2,mg/l,ACME-PLATING\n"
    )
    code, _, err = run(capsys, "snc", str(bad), "--limits", LIMITS, "--period", "2026H1")
    assert code == 2
    assert f"{bad}: row 2: field 'value'" in err
    assert f"{bad}: row 3: field 'sampled_at'" in err
