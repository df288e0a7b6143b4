"""Benchmark: start-up of ``sewer-use --help`` and of every sub-command's ``--help``, as processes.

What a user waits for when asking for help: the whole process, interpreter start included.
Each command line runs ``--runs`` times (after one warm-up run); the table gives the median wall
time, the spread (min–max), the peak resident memory of the slowest run, and the median
against the baseline ``python -c pass`` (the interpreter alone). A reference line times the
import of the heavy libraries the commands use (polars, numpy, pint, Django, matplotlib,
pyarrow, networkx) — what every ``--help`` paid when the parser imported every command.

    .venv/bin/python bench/cli_startup.py [--runs 7]

Target (a command answers before a person notices a wait): every ``--help`` at most 0.25 s end to end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sewer_cli.main import COMMANDS

TARGET_S = 0.25
# ``manage`` hands --help to Django's own command line: it runs the command, it is not help.
SKIP = {"manage"}
HEAVY = "import polars, numpy, pint, django, matplotlib.pyplot, pyarrow, networkx"


def sewer_use() -> str:
    beside = Path(sys.executable).with_name("sewer-use")
    found = str(beside) if beside.exists() else shutil.which("sewer-use")
    if not found:
        raise SystemExit("sewer-use is not installed beside this interpreter (make venv)")
    return found


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process (its own rusage, via wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024  # Linux reports kilobytes


def measure(argv: list[str], runs: int) -> tuple[list[float], float]:
    run_once(argv)  # warm-up: file cache, .pyc
    results = [run_once(argv) for _ in range(runs)]
    return [w for w, _ in results], max(r for _, r in results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="runs per command line (default 7)")
    ap.add_argument(
        "--smoke", action="store_true", help="one run of three command lines, no target"
    )
    args = ap.parse_args()
    exe = sewer_use()
    lines: list[tuple[str, list[str]]] = [
        ("python -c pass (baseline)", [sys.executable, "-c", "pass"]),
        ("sewer-use --help", [exe, "--help"]),
        *[
            (f"sewer-use {name} --help", [exe, name, "--help"])
            for name in COMMANDS
            if name not in SKIP
        ],
        ("reference: import the heavy libraries", [sys.executable, "-c", HEAVY]),
    ]
    if args.smoke:  # that every command line still measures, not how fast
        args.runs, lines = 1, lines[:3]
    print(f"{args.runs} runs each (after one warm-up); wall time of the whole process\n")
    head = f"{'command':<44} {'median s':>9} {'min–max s':>13} {'× baseline':>10} {'peak MB':>8}"
    print(head)
    print("-" * len(head))
    baseline = 0.0
    worst = ("", 0.0)
    for label, argv in lines:
        walls, rss = measure(argv, args.runs)
        med = statistics.median(walls)
        if not baseline:
            baseline = med
        spread = f"{min(walls):.3f}–{max(walls):.3f}"
        print(f"{label:<44} {med:>9.3f} {spread:>13} {med / baseline:>10.1f} {rss:>8.0f}")
        if label.startswith("sewer-use") and med > worst[1]:
            worst = (label, med)
    verdict = "meets" if worst[1] <= TARGET_S else "MISSES"
    print(
        f"\nslowest help: {worst[0]} at {worst[1]:.3f} s median — {verdict} the {TARGET_S} s target"
    )
    return 0 if args.smoke or worst[1] <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
