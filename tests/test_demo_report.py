"""``make report`` (``sewer-use demo-report``) runs every example through its command."""

from __future__ import annotations

from pathlib import Path

import pytest

from sewer_cli.main import main


def test_every_example_step_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["demo-report"]) == 0
    out = capsys.readouterr().out
    statuses = [line for line in out.splitlines() if line.startswith("(exit status")]
    assert len(statuses) == 6
    assert "(exit status 2)" not in statuses, out
    assert (tmp_path / "var" / "monitoring-2026-03.png").stat().st_size > 10_000
    assert "§ 196-19 C(3)" in out and "Accrued fine: USD 1,550.00" in out
