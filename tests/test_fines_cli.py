"""``sewer-use fines`` with the day the violation ceased, its verification and later notices
(§ 196-22 A, B as revised) — table, JSON, exit statuses. Every count is derived by hand in a
comment: served Mon 2026-01-05 with 10 days → deadline Thu 2026-01-15."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sewer_cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["fines", *argv])
    except SystemExit as e:  # argparse refuses a malformed argument itself (status 2)
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(capsys, *argv, "--format", "json")
    return code, json.loads(out)


def test_later_order_suspends_the_count_18_plus_6(capsys: pytest.CaptureFixture[str]) -> None:
    # 01-16..02-02 = 18 days; the order served 02-02 with 30 days: deadline Wed 03-04, so
    # 02-03..03-04 are not counted; 03-05..03-10 = 6 days → 24
    argv = (
        "--served",
        "2026-01-05",
        "--later-notice",
        "2026-02-02:30",
        "--corrected",
        "2026-03-10",
    )
    code, data = run_json(capsys, *argv)
    assert code == 1
    assert data["days"] == 24
    assert [n["served"] for n in data["notices"]] == ["2026-01-05", "2026-02-02"]
    later = data["notices"][1]
    assert (later["period_days"], later["deadline"]) == (30, "2026-03-04")
    assert later["suspends"] == {"first_day": "2026-02-03", "last_day": "2026-03-04", "days": 30}
    assert [(p["first_day"], p["days"]) for p in data["periods"]] == [
        ("2026-01-16", 18),
        ("2026-03-05", 6),
    ]
    code, out, _ = run(capsys, *argv)
    assert "Later notice 1 served 2026-02-02, stating 30 days: deadline end of 2026-03-04" in out
    assert "Days of continuing violation: 24, 2026-01-16 to 2026-02-02 (18) + " in out


def test_later_notice_period_defaults_to_ten(capsys: pytest.CaptureFixture[str]) -> None:
    # second notice Mon 2026-01-19 + 10 = Thu 01-29; as of 02-01: 01-16..19 (4) + 30..02-01 (3)
    code, data = run_json(
        capsys, "--served", "2026-01-05", "--later-notice", "2026-01-19", "--as-of", "2026-02-01"
    )
    assert code == 1
    assert (
        data["notices"][1]["period_days"] == 10 and data["notices"][1]["deadline"] == "2026-01-29"
    )
    assert data["days"] == 7


def test_ceased_after_the_deadline_verified_later(capsys: pytest.CaptureFixture[str]) -> None:
    # ceased 01-18: 16th, 17th, 18th = 3 days; the verification on 01-25 adds none
    code, data = run_json(
        capsys, "--served", "2026-01-05", "--corrected", "2026-01-18", "--verified", "2026-01-25"
    )
    assert code == 1
    assert (data["days"], data["corrected"], data["verified"]) == (3, "2026-01-18", "2026-01-25")
    code, out, _ = run(
        capsys, "--served", "2026-01-05", "--corrected", "2026-01-18", "--verified", "2026-01-25"
    )
    assert "ceased on 2026-01-18, as the verification found it (verified on 2026-01-25" in out


def test_reported_in_time_and_verified_late_has_no_fine(capsys: pytest.CaptureFixture[str]) -> None:
    # ceased 01-10, before the deadline 01-15: no day counted, exit 0
    code, data = run_json(
        capsys, "--served", "2026-01-05", "--corrected", "2026-01-10", "--verified", "2026-01-25"
    )
    assert code == 0
    assert data["days"] == 0 and data["state"] == "corrected_in_time"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--corrected", "2026-01-18", "--verified", "2026-01-17"],
            "--verified 2026-01-17 is before",
        ),
        (["--verified", "2026-01-17", "--as-of", "2026-02-01"], "--verified needs --corrected"),
        (["--later-notice", "2026-01-04", "--as-of", "2026-02-01"], "before the first notice"),
        (
            [
                "--later-notice",
                "2026-02-02",
                "--later-notice",
                "2026-01-20",
                "--as-of",
                "2026-03-01",
            ],
            "in the order they were served",
        ),
        (["--later-notice", "2026-01-20:five", "--as-of", "2026-03-01"], "whole number of days"),
        (["--later-notice", "2026-01-20:7", "--as-of", "2026-03-01"], "shorter than the 10 days"),
        (["--later-notice", "2026-03-02", "--as-of", "2026-03-01"], "after the as-of date"),
    ],
)
def test_unusable_dates_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, "--served", "2026-01-05", *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_calendar_cases_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    # Sat 2028-02-05 + 10 = Tue 02-15 (Susan B. Anthony Day, not in § 24): not moved
    _, data = run_json(capsys, "--served", "2028-02-05", "--as-of", "2028-02-16")
    assert data["deadline"] == "2028-02-15" and data["days"] == 1
    # Wed 2027-12-15 + 10 = Sat 12-25 (Christmas) → Sun → Mon 12-27
    _, data = run_json(capsys, "--served", "2027-12-15", "--as-of", "2027-12-27")
    assert data["deadline"] == "2027-12-27" and data["days"] == 0
    # Sat 2026-10-24 + 10 = Tue 11-03, general election day → Wed 11-04
    _, data = run_json(capsys, "--served", "2026-10-24", "--as-of", "2026-11-04")
    assert data["deadline"] == "2026-11-04" and data["days"] == 0
