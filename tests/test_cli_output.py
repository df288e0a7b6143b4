"""``--output FILE``: a report replaces the file at that path, as an ordinary overwrite would.

A previous report that is a plain file of the user's is replaced by a new file (renamed aside
and deleted in a thread, ``sewer_cli/output.py``: emptying a large file and writing it again
costs ext4 a write-back on close); everything else is opened as any program opens it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sewer_cli import output
from sewer_cli.main import UsageError, main


def _write(path: Path, text: str) -> None:
    with output.destination(str(path)) as fh:
        fh.write(text)


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_previous_report_is_replaced_with_its_permissions_and_nothing_left_beside(
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.json"
    report.write_text("old report, longer than the new one\n" * 1000)
    report.chmod(0o640)
    before = report.stat().st_ino
    _write(report, "new\n")
    assert report.read_text() == "new\n"
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert report.stat().st_ino != before  # a new file took the name
    assert _names(tmp_path) == ["report.json"]  # the old one is gone, not hidden beside


def test_a_new_path_is_created(tmp_path: Path) -> None:
    _write(tmp_path / "new.csv", "a,b\n")
    assert (tmp_path / "new.csv").read_text() == "a,b\n"
    assert _names(tmp_path) == ["new.csv"]


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    _write(link, "new")
    assert link.is_symlink()
    assert target.read_text() == "new"
    assert _names(tmp_path) == ["link.txt", "target.txt"]


def test_a_file_with_another_name_is_written_in_place(tmp_path: Path) -> None:
    first = tmp_path / "a.txt"
    first.write_text("old")
    second = tmp_path / "b.txt"
    os.link(first, second)
    _write(first, "new")
    assert second.read_text() == "new"
    assert first.stat().st_ino == second.stat().st_ino


def test_a_read_only_file_is_not_replaced(tmp_path: Path) -> None:
    """Refused as an ordinary overwrite refuses it (root may write it: then in place)."""
    report = tmp_path / "report.txt"
    report.write_text("old")
    report.chmod(0o444)
    before = report.stat().st_ino
    if os.geteuid() == 0:  # root writes a read-only file: in place, as any program does
        _write(report, "new")
        assert report.read_text() == "new"
    else:
        with pytest.raises(UsageError, match="cannot write"):
            _write(report, "new")
        assert report.read_text() == "old"
    assert report.stat().st_ino == before
    assert stat.S_IMODE(report.stat().st_mode) == 0o444


def test_when_the_new_file_cannot_be_made_the_old_report_is_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = tmp_path / "report.txt"
    report.write_text("old")

    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(output.os, "open", refuse)
    with pytest.raises(UsageError, match="cannot write"):
        _write(report, "new")
    assert report.read_text() == "old"
    assert _names(tmp_path) == ["report.txt"]


def test_check_may_write_its_report_over_its_own_input(tmp_path: Path) -> None:
    """The results are read whole before the report replaces the file."""
    results = tmp_path / "results.csv"
    results.write_text(
        "sample_id,sampled_at,sample_type,parameter,value,unit\nS1,2026-03-02T09:00,grab,pH,4.1,SU\n",
        encoding="utf-8",
    )
    code = main(["check", str(results), "--format", "csv", "--output", str(results)])
    assert code == 1
    text = results.read_text(encoding="utf-8")
    assert "prohibited" in text and "§ 196-19 C(3)" in text
    assert _names(tmp_path) == ["results.csv"]
