"""``sewer-use slugs`` end to end, as a user waits for it, against the pandas script of the rule,
on every shape of file a meter historian writes.

    .venv/bin/python bench/slug_throughput.py             # 5,000,000 readings a shape, 3 runs
    .venv/bin/python bench/slug_throughput.py --quick     # 500,000 readings a shape
    .venv/bin/python bench/slug_throughput.py --shapes z-seconds,meters --runs 5 --keep DIR
    .venv/bin/python bench/slug_throughput.py --extras    # also the general path, plain pandas, floor
    .venv/bin/python bench/slug_throughput.py --smoke     # 20,000 readings, one run: it works

Inputs: CSV files of one-minute flow readings, values exported as a historian or spreadsheet
writes binary floats (``cents * 0.01``, so that ``190.95000000000002`` and its kind are
common): a daily cycle with noise, and discharges the rule must measure by *normal
operation* — 300-minute discharges at ten times the normal flow, an hour at six times, 20
minutes at eight times, near misses of exactly 15 minutes, two slugs hours apart, and a
lasting change of level (eight times the old flow for three days: one slug of three days, its
last two judged on the baseline carried from the day before it). The same readings are
written in each shape a historian writes its times (:data:`SHAPES`):

- ``offset-seconds`` ``2026-01-01T00:00:00-05:00`` (the town's offset, -04:00 in summer)
- ``z-seconds``      ``2026-01-01T05:00:00Z`` (the commonest UTC spelling)
- ``z-minutes``      ``2026-01-01T05:00Z``
- ``offset-minutes`` ``2026-01-01T00:00-05:00``
- ``fraction``       ``2026-01-01T05:00:00.000Z`` (milliseconds, as JavaScript writes them)
- ``space``          ``2026-01-01 00:00:00-05:00`` (a space for the ``T``)
- ``meters``         ``meter,timestamp,value``: two meters logging each minute, their lines
  interleaved (half the readings each: the first with the discharges, the second quiet).

For each shape, in child processes, alternately (so that a machine whose speed drifts moves
both alike), ``--runs`` times each:

1. ``sewer-use slugs FILE --format json`` as installed (with the compiled module,
   ``sewer_native``, which reads every one of these shapes and judges the readings in C);
2. the pandas script of the rule — the yardstick of the ratio: what a pandas user writes for
   THIS rule. ``read_csv``, ``to_datetime(utc=True)``, then the baseline of normal operation
   kept by hand in a loop over the readings (a deque of the 24 hours' normal readings and
   their float sum), then runs by ``cumsum`` (broken at holes longer than the maximum gap) and
   durations; meter by meter for a file of several. pandas' ``rolling()`` cannot leave out of
   later windows the readings that exceeded their *own* baseline — whether a reading is
   normal depends on the readings before it — so the idiom for this rule is that loop.

With ``--extras``, three more, for what they tell: the same command with
``SEWER_USE_NATIVE=0`` (the numpy and polars paths alone: a machine without a C compiler, or
a file the compiled reader declines); the *plain* rolling-mean script
(``rolling("24h", closed="left").mean()``: the fastest pandas idiom, but of another rule — a
slug's own readings raise its threshold — so it finds other slugs); and the floor, a child
that imports polars and reads the CSV as text and does nothing else (what a command that
reads its input with polars cannot go below).

The slug count must equal the oracle's — a straightforward sequential reading of the rule in
pure Python (``csv``, ``datetime``, ``Decimal``), run once per series — in every shape, with
no row error; so must the pandas script's. Each child is timed from start to exit (wall
clock), its CPU seconds (user + system) and peak resident memory taken from the kernel's
accounting of that child (``os.wait4``). We print the median and the spread of the runs, and
the ratio of the medians, wall and CPU: on a shared machine CPU seconds are the steadier
figure (wall seconds count the time a loaded machine gives to other jobs). The target is
>= 10 x the pandas script of the rule on every shape; the exit status says only whether the
counts agree (never the timing). ``--smoke`` runs every shape on 20,000 readings once: the
test suite runs it so that a change that breaks the benchmark fails there.
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
df["t"] = pd.to_datetime(df["timestamp"], utc=True)
found = 0
for _, part in [(None, df)] if "meter" not in df.columns else df.groupby("meter", sort=True):
    s = pd.Series(part["value"].to_numpy(), index=pd.DatetimeIndex(part["t"]))
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
    found += int(((runs["end"] - runs["start"]) > pd.Timedelta(minutes=15)).sum())
print(found)
"""


PANDAS_RULE_SCRIPT = """
import sys
from collections import deque

import pandas as pd

df = pd.read_csv(sys.argv[1])
df["t"] = pd.to_datetime(df["timestamp"], utc=True)
day = 24 * 3600 * 1_000_000
found = 0
for _, part in [(None, df)] if "meter" not in df.columns else df.groupby("meter", sort=True):
    times = part["t"].reset_index(drop=True)
    us = (times - pd.Timestamp("1970-01-01", tz="UTC")) // pd.Timedelta(microseconds=1)
    # The baseline of a reading is the mean of the normal-operation readings of the 24 hours
    # before it; a reading above five times its baseline is not normal operation and leaves
    # every later baseline. rolling() cannot leave it out (that depends on its own baseline):
    # kept by hand. A window with no normal reading carries the mean of the 24 hours ending
    # with the last one.
    start = us.iloc[0]
    window = deque()
    total = 0.0
    carried = (0.0, 0)
    exceeded = []
    for t, v in zip(us.tolist(), part["value"].tolist()):
        while window and window[0][0] < t - day:
            total -= window.popleft()[1]
        base_total, base_count = (total, len(window)) if window else carried
        if t - start >= day and v * base_count > 5 * base_total:
            exceeded.append(True)
        else:
            exceeded.append(False)
            window.append((t, v))
            total += v
            edge = window[0][0] <= t - day  # (t - 24 h, t]: a reading a day before is out
            carried = (total - window[0][1], len(window) - 1) if edge else (total, len(window))
    hit = pd.Series(exceeded, index=times.index)
    step = times.shift(-1) - times
    interval = times.diff().median()
    gap = max(3 * interval, pd.Timedelta(minutes=5))
    run = ((hit != hit.shift()) | (step.shift() > gap)).cumsum()
    end = times.shift(-1).where(step <= gap, times + interval)
    runs = pd.DataFrame({"start": times[hit], "end": end[hit], "run": run[hit]}).groupby("run")
    runs = runs.agg(start=("start", "first"), end=("end", "last"))
    found += int(((runs["end"] - runs["start"]) > pd.Timedelta(minutes=15)).sum())
print(found)
"""

#: How each shape writes a reading's time (polars' strftime), and in which zone: the town's
#: (its offset, -05:00 in winter and -04:00 in summer) or UTC.
SHAPES: dict[str, tuple[str, str]] = {
    "offset-seconds": ("%Y-%m-%dT%H:%M:%S%:z", "America/New_York"),
    "z-seconds": ("%Y-%m-%dT%H:%M:%SZ", "UTC"),
    "z-minutes": ("%Y-%m-%dT%H:%MZ", "UTC"),
    "offset-minutes": ("%Y-%m-%dT%H:%M%:z", "America/New_York"),
    "fraction": ("%Y-%m-%dT%H:%M:%S%.3fZ", "UTC"),
    "space": ("%Y-%m-%d %H:%M:%S%:z", "America/New_York"),
    "meters": ("%Y-%m-%dT%H:%M:%S%:z", "America/New_York"),
}
#: The meters of the ``meters`` shape: the first with the discharges, the second quiet.
METERS = ("FM-101", "FM-102")


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
    """``n`` readings in ``shape``: one meter's, or for ``meters`` two meters' readings of
    the same minutes, ``n // 2`` each, their lines interleaved."""
    import numpy as np
    import polars as pl

    layout, zone = SHAPES[shape]
    if shape == "meters":
        half = n // 2
        events = make_values(half, "events", np.random.default_rng(SEED))
        quiet = make_values(half, "quiet", np.random.default_rng(SEED + 1))
        at = T0 + np.repeat(np.arange(half, dtype=np.int64), 2) * MIN
        meter = np.tile(np.array(METERS), half)
        cents = np.empty(2 * half, dtype=np.int64)
        cents[0::2], cents[1::2] = events, quiet
        columns = {"meter": pl.Series(meter)}
    else:
        at = T0 + np.arange(n, dtype=np.int64) * MIN
        cents = make_values(n, "events", np.random.default_rng(SEED))
        columns = {}
    stamps = (
        pl.Series("t", at)
        .cast(pl.Datetime("us", "UTC"))
        .dt.convert_time_zone(zone)
        .dt.strftime(layout)
    )
    pl.DataFrame({**columns, "timestamp": stamps, "value": cents * 0.01}).write_csv(path)


def oracle(path: Path, meter: str | None = None) -> tuple[int, int]:
    """(slugs, readings) of one meter's readings (``meter``; None: a file of one meter): the
    rule read one reading at a time (docs/interpretations.md, "Slugs")."""
    times: list[int] = []
    texts: list[str] = []
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if meter is not None and row["meter"] != meter:
                continue
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


#: Whether the compiled reader takes a file (printed: a shape it declined would run on the
#: general path, and the figure would say so only by its size).
TAKEN_SCRIPT = """
import sys
from sewer_io.historian import HistorianFile
from sewer_engines.monitoring.source import ReadOptions
print("yes" if HistorianFile.open(sys.argv[1], ReadOptions()) is not None else "no")
"""


def expected_slugs(path: Path, shape: str) -> tuple[int, int]:
    """The oracle's slugs and readings for the file (meter by meter), in children, so that
    this process stays small: a child's ru_maxrss starts from the size of the process it was
    forked from."""
    slugs = readings = 0
    for meter in METERS if shape == "meters" else (None,):
        told = subprocess.run(
            [sys.executable, __file__, "--oracle", str(path), *([meter] if meter else [])],
            capture_output=True,
            text=True,
            check=True,
        )
        a, b = (int(x) for x in told.stdout.split())
        slugs, readings = slugs + a, readings + b
    return slugs, readings


def bench(path: Path, shape: str, runs: int, expected: int, extras: bool) -> tuple[bool, str]:
    """Time the command and the pandas script of the rule on one file; (counts right, the
    summary line)."""
    size = path.stat().st_size
    command = [*sewer_use(), "slugs", str(path), "--format", "json"]
    pandas_rule = [sys.executable, "-c", PANDAS_RULE_SCRIPT, str(path)]
    taken = timed([sys.executable, "-c", TAKEN_SCRIPT, str(path)])[2].strip()
    ours: list[tuple[float, int, str, float]] = []
    rule: list[tuple[float, int, str, float]] = []
    for _ in range(runs):  # alternately: a machine whose speed drifts moves both alike
        ours.append(timed(command))
        rule.append(timed(pandas_rule))
    doc = json.loads(ours[-1][2])
    found = sum(len(series["slugs"]) for series in doc["series"])
    readings = sum(series["readings"] for series in doc["series"])
    errors = doc["errors_total"]
    rule_count = int(rule[-1][2].strip())
    ours_median, ours_cpu, ours_line = figures("sewer-use slugs", ours)
    rule_median, rule_cpu, rule_line = figures("pandas, the rule", rule)
    print(
        f"{shape}: {path.name}, {readings:,} readings, {size / 1e6:.0f} MB; compiled reader "
        f"took it: {taken}"
    )
    print(ours_line + f"; {found} slugs, {errors} row errors")
    print(rule_line + f"; {rule_count} slugs (normal operation, a loop per reading)")
    same = found == expected == rule_count and errors == 0
    if extras:
        general = [timed(command, {"SEWER_USE_NATIVE": "0"}) for _ in range(runs)]
        plain = [timed([sys.executable, "-c", PANDAS_SCRIPT, str(path)]) for _ in range(runs)]
        floor = [timed([sys.executable, "-c", FLOOR_SCRIPT, str(path)]) for _ in range(runs)]
        general_median, _, general_line = figures("  numpy, polars", general)
        plain_median, _, plain_line = figures("pandas, plain", plain)
        floor_median, _, floor_line = figures("read as text", floor)
        same_report = general[-1][2] == ours[-1][2]
        same = same and same_report
        print(
            general_line + f"; SEWER_USE_NATIVE=0, {rule_median / general_median:.1f}x the "
            f"pandas script of the rule; report byte for byte the same: "
            f"{'yes' if same_report else 'NO'}"
        )
        print(
            plain_line + f"; {int(plain[-1][2].strip())} slugs (plain rolling mean: another "
            f"rule), {plain_median / ours_median:.1f}x"
        )
        print(
            floor_line + f"; polars reads the file as text, nothing else: at most "
            f"{rule_median / floor_median:.1f}x the pandas script of the rule for a polars reader"
        )
    print(
        f"    ratio {rule_median / ours_median:.1f}x the pandas script of the rule (CPU "
        f"{rule_cpu / ours_cpu:.1f}x); slug count equal to the oracle's ({expected}) and the "
        f"pandas script's: {'yes' if same else 'NO'}"
    )
    summary = (
        f"| {shape} | {readings:,} | {ours_median:.2f} ({ours_cpu:.2f}) | "
        f"{rule_median:.2f} ({rule_cpu:.2f}) | {rule_median / ours_median:.1f} x "
        f"({rule_cpu / ours_cpu:.1f} x) | {found} | {taken} |"
    )
    return same, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="500,000 readings instead of 5,000,000")
    ap.add_argument(
        "--smoke", action="store_true", help="20,000 readings, one run: that it works, no timing"
    )
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each command (default 3)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated (default all)")
    ap.add_argument("--extras", action="store_true", help="also the general path, plain, floor")
    ap.add_argument("--keep", metavar="DIR", help="write the generated CSVs here and keep them")
    ap.add_argument("--oracle", nargs="+", metavar="CSV", help=argparse.SUPPRESS)
    ap.add_argument("--write", nargs=3, metavar=("CSV", "SHAPE", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.oracle:
        print(*oracle(Path(args.oracle[0]), args.oracle[1] if len(args.oracle) > 1 else None))
        return
    if args.write:
        write_csv(Path(args.write[0]), int(args.write[2]), args.write[1])
        return
    shapes = [x for x in args.shapes.split(",") if x]
    unknown = sorted(set(shapes) - set(SHAPES))
    if unknown:
        raise SystemExit(f"unknown shapes: {', '.join(unknown)} (known: {', '.join(SHAPES)})")
    n = 20_000 if args.smoke else 500_000 if args.quick else 5_000_000
    runs = 1 if args.smoke else args.runs
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
    print(f"command: {' '.join(['bench/slug_throughput.py', *sys.argv[1:]])}")
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="slug-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    ok = True
    rows = []
    known: dict[bool, int] = {}  # the oracle's count: one for every shape of one meter
    try:
        for shape in shapes:
            path = folder / f"flow-{shape}-{n}.csv"
            if not path.exists():
                subprocess.run(
                    [sys.executable, __file__, "--write", str(path), shape, str(n)], check=True
                )
            several = shape == "meters"
            if several not in known:
                start = time.perf_counter()
                known[several], readings = expected_slugs(path, shape)
                print(
                    f"oracle (sequential, pure Python) on {path.name}: {known[several]} slugs "
                    f"in {readings:,} readings, {time.perf_counter() - start:.0f} s"
                )
            same, row = bench(path, shape, runs, known[several], args.extras)
            ok &= same
            rows.append(row)
    finally:
        if not args.keep:
            for p in folder.iterdir():
                p.unlink()
            folder.rmdir()
    print()
    print(
        "| shape | readings | sewer-use slugs s (CPU s) | pandas, the rule s (CPU s) | ratio "
        "(CPU) | slugs | compiled reader |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    if not ok:
        raise SystemExit(
            "the slug count differs from the oracle's or the pandas script's, rows were "
            "refused, or the two paths' reports differ"
        )


if __name__ == "__main__":
    main()
