"""``sewer-use slugs`` sets up its own process: numpy's huge pages off unless the user chose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import os, sys
from sewer_cli.main import main
code = main(["slugs", sys.argv[1], "--format", "json", "--output", os.devnull])
print(os.environ.get("NUMPY_MADVISE_HUGEPAGE"))
"""


def _readings(tmp_path: Path) -> Path:
    f = tmp_path / "r.csv"
    lines = [f"2026-03-02T{h:02d}:{m:02d}:00-05:00,10" for h in range(24) for m in range(60)]
    f.write_text("timestamp,value\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return f


@pytest.mark.parametrize(("given", "seen"), [(None, "0"), ("1", "1")])
def test_huge_pages_are_off_unless_the_user_set_them(
    tmp_path: Path, given: str | None, seen: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if given is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = given
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(_readings(tmp_path))],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert out.stdout.split()[-1] == seen
