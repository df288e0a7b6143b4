"""``sewer-use slugs`` end to end, as a user waits for it, against an idiomatic pandas script.

    .venv/bin/python bench/slug_throughput.py             # 5,000,000 readings, 3 runs of each
    .venv/bin/python bench/slug_throughput.py --quick     # 500,000 readings
    .venv/bin/python bench/slug_throughput.py --runs 5 --keep DIR

Inputs: CSV files of one-minute flow readings (one meter), times ISO 8601 with their offsets,
values exported as a historian or spreadsheet writes binary floats (``cents * 0.01``, so that
``190.95000000000002`` and its kind are common). Two shapes:

- ``events``: a daily cycle with noise, and discharges the rule must measure by *normal
  operation* — 300-minute discharges at ten times the normal flow, an hour at six times, 20
  minutes at eight times, near misses of exactly 15 minutes, two slugs hours apart, and a
  lasting change of level (eight times the old flow for three days: one slug of three days,
  its last two judged on the baseline carried from the day before it);
- ``quiet``: the daily cycle with noise only (no slug).

For each input five things run:

1. the oracle, once: a straightforward sequential reading of the rule in pure Python
   (``csv``, ``datetime``, ``Decimal``; a sliding window of the normal-operation readings, one
   reading at a time, the baseline carried where the window holds none). It is slow; it is
   the reference the slug count must equal;
2. ``sewer-use slugs FILE --format json`` in a child process, ``--runs`` times — as installed:
   with the compiled module (``sewer_native``), which reads a historian's export and judges
   the readings in C — and the same command with ``SEWER_USE_NATIVE=0``, the numpy and polars
   paths alone (what runs where the project was installed without a C compiler, and for every
   file the compiled reader declines), printed beside;
3. two pandas scripts in child processes, ``--runs`` times each:

   - the *rule* script — the yardstick of the ratio: what a pandas user writes for THIS rule.
     ``read_csv``, ``to_datetime(utc=True)``, then the baseline of normal operation kept by
     hand in a loop over the readings (a deque of the 24 hours' normal readings and their
     float sum), then runs by ``cumsum`` (broken at holes longer than 5 minutes) and
     durations. pandas' ``rolling()`` cannot leave out of later windows the readings that
     exceeded their *own* baseline — whether a reading is normal depends on the readings
     before it — so the idiom for this rule is that loop (a fixed point of whole rolling
     passes is possible, but it settles only up to the first misjudged reading a pass, so its
     number of passes depends on the data; that is what ``sewer-use`` does, in numpy).
     Its slug count must equal the oracle's (it uses floats; the benchmark prints it);
   - the *plain* rolling-mean script (``rolling("24h", closed="left").mean()``, a mask, runs,
     durations): the fastest pandas idiom, but of a different rule — a slug's own readings
     raise its threshold — so on the ``events`` input it finds other slugs; its time and
     count are printed beside, for what they are;
4. the floor, ``--runs`` times: a child that imports polars and reads the CSV as text columns
   and does nothing else: what reading the file costs before any time, number or rule is
   read, so the pandas rule script's time over it bounds the ratio a command that reads its
   input with polars can reach (printed; why the reader of historians' exports is compiled).

Each child is timed from start to exit (wall clock), its peak resident memory and CPU seconds
(user + system) taken from the kernel's accounting of that child (``os.wait4``). We print the
median and the spread (min–max) of the runs, and the ratio of the medians. The machine may be
shared: quote medians and ratios. Never run by the tests; its output is the figure quoted in the README and docs/performance.md.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

SEED = 19615
T0 = 1_767_243_600_000_000  # 2026-01-01T00:00:00-05:00 in µs
MIN = 60_000_000
WINDOW = 24 * 60 * MIN
MAX_GAP = 5 * MIN  # the shortest maximum gap; the maximum gap is three usual intervals if longer
LONGER_THAN = 15 * MIN

# The floor: start Python, import polars and read the CSV as text (no time, no number, no rule).
# A command that reads the file with polars cannot take less; the pandas rule script's time over
# this one bounds the ratio such a command can reach.
FLOOR_SCRIPT = """
import sys
import polars as pl
print(pl.read_csv(sys.argv[1], infer_schema=False).height)
"""

PANDAS_SCRIPT = """
import sys
import pandas as pd

df = pd.read_csv(sys.argv[1])
s = pd.Series(df["value"].to_numpy(), index=pd.to_datetime(df["timestamp"], utc=True))
baseline = s.rolling("24h", closed="left").mean()
judged = s.index >= s.index[0] + pd.Timedelta(hours=24)
hit = pd.Series((s.to_numpy() > 5 * baseline.to_numpy()) & judged, index=s.index)
run = (hit != hit.shift()).cumsum()
times = s.index.to_series()
step = times.shift(-1) - times
interval = times.diff().median()
end = times.shift(-1).where(step <= pd.Timedelta(minutes=5), times + interval)
runs = pd.DataFrame({"start": times[hit], "end": end[hit], "run": run[hit]}).groupby("run")
runs = runs.agg(start=("start", "first"), end=("end", "last"))
print(int(((runs["end"] - runs["start"]) > pd.Timedelta(minutes=15)).sum()))
"""


PANDAS_RULE_SCRIPT = """
import sys
from collections import deque

import pandas as pd

df = pd.read_csv(sys.argv[1])
times = pd.to_datetime(df["timestamp"], utc=True)
us = (times - pd.Timestamp("1970-01-01", tz="UTC")) // pd.Timedelta(microseconds=1)
# The baseline of a reading is the mean of the normal-operation readings of the 24 hours before
# it; a reading above five times its baseline is not normal operation and leaves every later
# baseline. rolling() cannot leave it out (that depends on its own baseline): kept by hand.
# A window with no normal reading carries the mean of the 24 hours ending with the last one.
day = 24 * 3600 * 1_000_000
start = us.iloc[0]
window = deque()
total = 0.0
carried = (0.0, 0)
exceeded = []
for t, v in zip(us.tolist(), df["value"].tolist()):
    while window and window[0][0] < t - day:
        total -= window.popleft()[1]
    base_total, base_count = (total, len(window)) if window else carried
    if t - start >= day and v * base_count > 5 * base_total:
        exceeded.append(True)
    else:
        exceeded.append(False)
        window.append((t, v))
        total += v
        edge = window[0][0] <= t - day  # (t - 24 h, t]: a reading exactly a day before is out
        carried = (total - window[0][1], len(window) - 1) if edge else (total, len(window))
hit = pd.Series(exceeded, index=times.index)
step = times.shift(-1) - times
interval = times.diff().median()
gap = max(3 * interval, pd.Timedelta(minutes=5))
run = ((hit != hit.shift()) | (step.shift() > gap)).cumsum()
end = times.shift(-1).where(step <= gap, times + interval)
runs = pd.DataFrame({"start": times[hit], "end": end[hit], "run": run[hit]}).groupby("run")
runs = runs.agg(start=("start", "first"), end=("end", "last"))
print(int(((runs["end"] - runs["start"]) > pd.Timedelta(minutes=15)).sum()))
"""


def make_values(n: int, shape: str, rng: Any) -> Any:
    """Flow in hundredths of a gpm (integers); the file writes ``cents * 0.01`` as floats."""
    import numpy as np

    minute = (np.arange(n) % 1440).astype(np.float64)
    cycle = 0.5 - 0.5 * np.cos(2 * np.pi * minute / 1440)
    cents = np.round(3000 + 2000 * cycle + rng.normal(0, 150, n)).astype(np.int64)
    if shape == "quiet":
        return cents
    k = 3 * 1440
    pattern = [(300, 10), (60, 6), (20, 8), (15, 10), (30, 9), (300, 10)]
    p = 0
    while k < n - 6 * 1440:
        length, factor = pattern[p % len(pattern)]
        cents[k : k + length] *= factor
        if p % len(pattern) == 4:  # a second slug four hours after the first
            cents[k + length + 240 : k + 2 * length + 240] *= factor
        p += 1
        k += int(rng.integers(2 * 1440, 5 * 1440))
    # a lasting change of level: eight times the old flow for three days, two thirds in
    at = (2 * n) // 3
    cents[at : at + 3 * 1440] *= 8
    return cents


def write_csv(path: Path, n: int, shape: str) -> None:
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(SEED + (shape == "quiet"))
    cents = make_values(n, shape, rng)
    stamps = (
        pl.Series("t", T0 + np.arange(n, dtype=np.int64) * MIN)
        .cast(pl.Datetime("us", "UTC"))
        .dt.convert_time_zone("America/New_York")
        .dt.strftime("%Y-%m-%dT%H:%M:%S%:z")
    )
    pl.DataFrame({"timestamp": stamps, "value": cents * 0.01}).write_csv(path)


def oracle(path: Path) -> tuple[int, int]:
    """(slugs, readings): the rule read one reading at a time (INTERPRETATIONS.md, "Slugs")."""
    times: list[int] = []
    texts: list[str] = []
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            at = datetime.fromisoformat(row["timestamp"])
            times.append(int(at.timestamp()) * 1_000_000 + at.microsecond)
            texts.append(row["value"])
    decimals = [Decimal(x) for x in texts]
    scale = max(max(0, -int(d.as_tuple().exponent)) for d in decimals)
    values = [int(d.scaleb(scale)) for d in decimals]
    n = len(values)
    window: deque[tuple[int, int]] = deque()  # (time, value) of normal-operation readings
    total = 0
    # the sum and count of the normal readings of (t_L - 24 h, t_L], L the last normal reading:
    # the baseline carried when a reading's own window holds no normal reading
    carried = (0, 0)
    exceeded = [False] * n
    for i in range(n):
        while window and window[0][0] < times[i] - WINDOW:
            total -= window.popleft()[1]
        base_total, base_count = (total, len(window)) if window else carried
        judged = times[i] - times[0] >= WINDOW  # less than 24 h of history: not judged
        if judged and values[i] * base_count > 5 * base_total:
            exceeded[i] = True  # not normal operation: it enters no later baseline
        else:
            window.append((times[i], values[i]))
            total += values[i]
            if window[0][0] <= times[i] - WINDOW:  # exactly a day before: not in (t - 24 h, t]
                carried = (total - window[0][1], len(window) - 1)
            else:
                carried = (total, len(window))
    usual = statistics.median(b - a for a, b in itertools.pairwise(times))
    max_gap = max(3 * usual, MAX_GAP)  # the meter's logging: three usual intervals, >= 5 min
    slugs = 0
    i = 0
    while i < n:
        if not exceeded[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and exceeded[j + 1] and times[j + 1] - times[j] <= max_gap:
            j += 1
        follows = j + 1 < n and times[j + 1] - times[j] <= max_gap
        end = times[j + 1] if follows else times[j] + usual
        slugs += end - times[i] > LONGER_THAN
        i = j + 1
    return slugs, n


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str, float]:
    """Wall seconds, peak RSS (MB), stdout and CPU seconds (user + system) of one child
    (``env``: variables set for it)."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.PIPE, env={**os.environ, **(env or {})}
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err = child.stderr.read().decode() if child.stderr else ""
        if child.returncode not in (0, 1):
            raise SystemExit(f"{cmd[0]} failed ({child.returncode}): {err}")
        out.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        return wall, usage.ru_maxrss // 1024, out.read().decode(), cpu


def sewer_use() -> list[str]:
    script = Path(sys.executable).with_name("sewer-use")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from sewer_cli.main import main; sys.exit(main())"]


def figures(label: str, runs: list[tuple[float, int, str, float]]) -> tuple[float, float, str]:
    """Median wall seconds, median CPU seconds, and the line printed for them."""
    walls = [r[0] for r in runs]
    peak = max(r[1] for r in runs)
    median = statistics.median(walls)
    cpu = statistics.median(r[3] for r in runs)
    line = (
        f"    {label:<16} median {median:6.2f} s  (spread {min(walls):.2f}–{max(walls):.2f} s, "
        f"{len(walls)} runs), CPU {cpu:5.2f} s, peak RSS {peak} MB"
    )
    return median, cpu, line


def bench(path: Path, runs: int) -> bool:
    size = path.stat().st_size
    start = time.perf_counter()
    # the oracle and the generator run in children, so that this process stays small: a
    # child's ru_maxrss starts from the size of the process it was forked from
    told = subprocess.run(
        [sys.executable, __file__, "--oracle", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    expected, n = (int(x) for x in told.stdout.split())
    print(
        f"{path.name}: {n:,} readings, {size / 1e6:.0f} MB; oracle (sequential, pure Python): "
        f"{expected} slugs, {time.perf_counter() - start:.0f} s"
    )
    command = [*sewer_use(), "slugs", str(path), "--format", "json"]
    ours = [timed(command) for _ in range(runs)]
    general = [timed(command, {"SEWER_USE_NATIVE": "0"}) for _ in range(runs)]
    rule = [timed([sys.executable, "-c", PANDAS_RULE_SCRIPT, str(path)]) for _ in range(runs)]
    plain = [timed([sys.executable, "-c", PANDAS_SCRIPT, str(path)]) for _ in range(runs)]
    floor = [timed([sys.executable, "-c", FLOOR_SCRIPT, str(path)]) for _ in range(runs)]
    doc = json.loads(ours[-1][2])
    (series,) = doc["series"]
    found = len(series["slugs"])
    errors = doc["errors_total"]
    rule_count = int(rule[-1][2].strip())
    plain_count = int(plain[-1][2].strip())
    ours_median, ours_cpu, ours_line = figures("sewer-use slugs", ours)
    general_median, _, general_line = figures("  numpy, polars", general)
    rule_median, rule_cpu, rule_line = figures("pandas, the rule", rule)
    plain_median, plain_cpu, plain_line = figures("pandas, plain", plain)
    floor_median, _, floor_line = figures("read as text", floor)
    same_report = general[-1][2] == ours[-1][2]
    print(ours_line + f"; {found} slugs, {errors} row errors")
    print(
        general_line + f"; SEWER_USE_NATIVE=0, {rule_median / general_median:.1f}x the pandas "
        f"script of the rule; report byte for byte the same: {'yes' if same_report else 'NO'}"
    )
    print(rule_line + f"; {rule_count} slugs (normal operation, a loop per reading)")
    print(plain_line + f"; {plain_count} slugs (plain rolling mean: another rule)")
    print(
        floor_line + f"; polars reads the file as text, nothing else: at most "
        f"{rule_median / floor_median:.1f}x the pandas script of the rule for a polars reader"
    )
    same = found == expected and errors == 0 and same_report
    print(
        f"    ratio {rule_median / ours_median:.1f}x the pandas script of the rule "
        f"({plain_median / ours_median:.1f}x the plain rolling mean); "
        f"slug count equal to the oracle's: {'yes' if same else 'NO'}"
    )
    # CPU seconds do not count the time a loaded machine gives to other jobs (a process
    # waiting for a core), which wall seconds do: on a shared machine they are the steadier
    # figure (but they add up the cores polars uses, where wall time would not).
    print(
        f"    CPU ratio {rule_cpu / ours_cpu:.1f}x the pandas script of the rule "
        f"({plain_cpu / ours_cpu:.1f}x the plain rolling mean)"
    )
    return same


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="500,000 readings instead of 5,000,000")
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each command (default 3)")
    ap.add_argument("--keep", metavar="DIR", help="write the generated CSVs here and keep them")
    ap.add_argument("--oracle", metavar="CSV", help=argparse.SUPPRESS)
    ap.add_argument("--write", nargs=3, metavar=("CSV", "SHAPE", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.oracle:
        print(*oracle(Path(args.oracle)))
        return
    if args.write:
        write_csv(Path(args.write[0]), int(args.write[2]), args.write[1])
        return
    n = 500_000 if args.quick else 5_000_000
    versions = subprocess.run(
        [
            sys.executable,
            "-c",
            "import numpy, pandas, polars; "
            "print(f'numpy {numpy.__version__}, pandas {pandas.__version__}, "
            "polars {polars.__version__}')",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"python {sys.version.split()[0]}, {versions}, {os.cpu_count()} CPUs")
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="slug-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    ok = True
    try:
        for shape in ("events", "quiet"):
            path = folder / f"flow-{shape}-{n}.csv"
            if not path.exists():
                subprocess.run(
                    [sys.executable, __file__, "--write", str(path), shape, str(n)], check=True
                )
            ok &= bench(path, args.runs)
    finally:
        if not args.keep:
            for p in folder.iterdir():
                p.unlink()
            folder.rmdir()
    if not ok:
        raise SystemExit(
            "the slug count differs from the oracle's, rows were refused, or the two paths' "
            "reports differ"
        )


if __name__ == "__main__":
    main()
