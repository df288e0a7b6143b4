"""Every benchmark still runs: each ``bench/*.py`` with ``--smoke`` (tiny sizes, SQLite in a
temporary directory, nothing asserted about time) exits 0.

A benchmark nothing runs rots unseen — an upload cap once stopped the full-volume page bench at
its first import and the figures it printed could no longer be reproduced. The scripts are
found by glob, so a new bench is covered without editing this file. The office benches copy
one migrated SQLite schema (``SEWER_BENCH_SCHEMA``, written by the first of them) instead of
migrating each their own: the runs together take tens of seconds, not minutes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted((ROOT / "bench").glob("*.py"))
#: A smoke run that takes longer than this is hung, not slow.
TIMEOUT_S = 600
#: The lines of standard error shown when a bench fails.
TAIL = 40


def test_the_benches_are_found() -> None:
    names = {p.name for p in BENCHES}
    assert {"office_volume.py", "office_pages.py", "check_throughput.py"} <= names


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the first office bench keeps the migrated schema the others copy."""
    return tmp_path_factory.mktemp("bench-schema") / "schema.sqlite3"


@pytest.mark.bench
@pytest.mark.database_free
@pytest.mark.parametrize("script", BENCHES, ids=[p.stem for p in BENCHES])
def test_bench_runs_at_smoke_size(script: Path, schema: Path, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SEWER_BENCH_SCHEMA": str(schema),
        "SEWER_USE_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, str(script), "--smoke"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        out = "\n".join(done.stdout.splitlines()[-TAIL:])
        err = "\n".join(done.stderr.splitlines()[-TAIL:])
        pytest.fail(
            f"bench/{script.name} --smoke exited {done.returncode}; its output ends:\n{out}\n"
            f"and its standard error:\n{err}",
            pytrace=False,
        )
