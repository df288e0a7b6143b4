"""``sewer-use slugs`` and ``check`` set up their own process: the allocators
(``sewer_cli/allocator.py``: numpy's huge pages off and glibc's freed blocks kept for slugs, one
jemalloc arena per CPU for polars — unless the user chose) and what they load (no pandas).
Each probe runs in a Python process of its own: allocators read their settings once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sewer_cli.allocator import JEMALLOC, NUMPY_HUGE_PAGES, cpus

PROBE = """
import os, sys
from sewer_cli.main import main
out = os.devnull
code = main([sys.argv[1], sys.argv[2], "--format", "json", "--output", out, *sys.argv[3:]])
import polars as pl
print(os.environ.get("NUMPY_MADVISE_HUGEPAGE"), os.environ.get("_RJEM_MALLOC_CONF"))
"""

CHOSEN = (NUMPY_HUGE_PAGES, JEMALLOC)


def _readings(tmp_path: Path) -> Path:
    f = tmp_path / "r.csv"
    lines = [f"2026-03-02T{h:02d}:{m:02d}:00-05:00,10" for h in range(24) for m in range(60)]
    f.write_text("timestamp,value\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return f


def _results(tmp_path: Path) -> Path:
    f = tmp_path / "results.csv"
    f.write_text(
        "sample_id,sampled_at,sample_type,parameter,value,unit\nS1,2026-03-02T09:00,grab,pH,7.1,SU\n",
        encoding="utf-8",
    )
    return f


def _python(script: str, *args: str, unset: tuple[str, ...] = (), **given: str) -> list[str]:
    """The words ``script`` prints, run by a new Python with the variables starting with any of
    ``unset`` removed from the environment and ``given`` set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(unset)} if unset else None
    if given:
        env = {**(env if env is not None else os.environ), **given}
    out = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.split()


def _probe(args: list[str], given: dict[str, str]) -> list[str]:
    huge_pages, jemalloc = _python(PROBE, *args, unset=CHOSEN, **given)[-2:]
    # polars adds its own defaults in front of the setting when it loads (polars/__init__.py)
    return [huge_pages, jemalloc.rsplit(",", 1)[-1]]


@pytest.mark.parametrize(
    ("given", "seen"),
    [
        ({}, ["0", f"narenas:{cpus()}"]),
        ({NUMPY_HUGE_PAGES: "1", JEMALLOC: "narenas:8"}, ["1", "narenas:8"]),
    ],
)
def test_slugs_sets_its_allocators_unless_the_user_did(
    tmp_path: Path, given: dict[str, str], seen: list[str]
) -> None:
    assert _probe(["slugs", str(_readings(tmp_path))], given) == seen


@pytest.mark.parametrize(
    ("given", "seen"),
    [
        ({}, ["None", f"narenas:{cpus()}"]),
        ({JEMALLOC: "narenas:8"}, ["None", "narenas:8"]),
        # what a parent that loaded polars passes on: polars' defaults, no number of arenas
        ({JEMALLOC: "dirty_decay_ms:500,muzzy_decay_ms:1000"}, ["None", f"narenas:{cpus()}"]),
    ],
)
def test_check_gives_polars_one_arena_per_cpu_unless_the_user_chose(
    tmp_path: Path, given: dict[str, str], seen: list[str]
) -> None:
    assert _probe(["check", str(_results(tmp_path))], given) == seen


def test_a_setting_comes_too_late_once_polars_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """jemalloc has read its settings when polars loaded: nothing is set that would not act."""
    import polars  # noqa: F401

    from sewer_cli import allocator

    monkeypatch.delenv(JEMALLOC, raising=False)
    allocator.for_columns()
    assert JEMALLOC not in os.environ


def test_slugs_keeps_freed_memory_for_reuse_and_check_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slug engine works numpy arrays batch after batch: glibc is asked to keep the blocks
    it frees (``mallopt``); ``check`` works polars columns (jemalloc) and is left as it is."""
    from sewer_cli import allocator
    from sewer_cli.main import main

    calls: list[str] = []

    def kept() -> bool:
        calls.append("kept")
        return True

    monkeypatch.setattr(allocator, "keep_freed_memory", kept)
    main(["slugs", str(_readings(tmp_path)), "--format", "json", "--output", os.devnull])
    assert calls == ["kept"]
    main(["check", str(_results(tmp_path)), "--format", "json", "--output", os.devnull])
    assert calls == ["kept"]


KEEP = """
import sys
from sewer_cli.allocator import keep_freed_memory
print(keep_freed_memory())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
@pytest.mark.parametrize(
    ("given", "seen"), [({}, "True"), ({"MALLOC_TRIM_THRESHOLD_": "131072"}, "False")]
)
def test_glibc_keeps_freed_blocks_unless_the_user_set_its_variables(
    given: dict[str, str], seen: str
) -> None:
    assert _python(KEEP, unset=("MALLOC_",), **given) == [seen]


NO_PANDAS = """
import sys
from sewer_cli.main import main
main(["slugs", sys.argv[1], "--format", "json", "--output", sys.argv[2]])
print("pandas" in sys.modules)
"""


@pytest.mark.parametrize("blank_time", [False, True])
def test_slugs_does_not_load_pandas(tmp_path: Path, blank_time: bool) -> None:
    """pyarrow imports pandas (0.15 s) for its ``to_numpy``; the times are taken from Arrow's
    buffers instead (``sewer_engines/monitoring/stamps.py``), with or without a blank time."""
    readings = _readings(tmp_path)
    if blank_time:
        lines = readings.read_text().splitlines()
        lines[5] = "," + lines[5].split(",", 1)[1]
        readings.write_text("\n".join(lines) + "\n")
    assert _python(NO_PANDAS, str(readings), str(tmp_path / "r.json"))[-1] == "False"
