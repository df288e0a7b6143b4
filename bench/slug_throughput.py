"""Slug detection throughput: our engine against idiomatic pandas, in one process.

    .venv/bin/python bench/slug_throughput.py            # 10,000,000 readings; 1-year 50-meter CSV
    .venv/bin/python bench/slug_throughput.py --quick    # 1,000,000 readings; 5 meters x 30 days
    .venv/bin/python bench/slug_throughput.py --large 5  # also a ~5 GB CSV, for memory

(a) In memory. One series of one-minute readings (seeded: a daily cycle, noise, injected
plateaus of 16 to 90 minutes and near misses of exactly 15), held as the engine holds it: two
int64 arrays, 16 bytes a reading. We time ``detect_slugs`` from those arrays to the list of
slugs (cadence pass, exact integer test against five times the trailing 24-hour mean, runs,
slug records), single-threaded. Times are this process's CPU time (``time.process_time``),
best of several runs, because the 2-core machine is shared with other work; for this
single-threaded code CPU time equals wall time on an idle machine. Against it, the idiomatic pandas way (the issue's recipe):
``Series.rolling("24h").mean()`` shifted one reading so the current one is excluded, a boolean
mask, runs grouped by ``(mask != mask.shift()).cumsum()``, durations filtered. Both must find
the same slugs; we print readings/s of each and the ratio. Best of several runs each.
A second engine figure is for the same readings with jittered timestamps (±20 s), which takes
the engine's general merge path instead of its regular-interval path.

(b) End to end. A CSV of one year of one-minute flow readings for 50 meters (26.3 million
rows) is written to a temporary folder and judged by ``sewer-use slugs`` in a child process:
we print its wall time and peak resident memory (the child's ru_maxrss). ``--large GB`` does
the same for a CSV of about that many gigabytes (50 meters, flow, pH and temperature, as many
days as needed) to show memory stays bounded when the input is larger than the memory
allowed.

Never run by the tests; figures go in the README. Targets (issue 3): at least 10x pandas and
at least 250 million readings/s single-core for (a).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("POLARS_MAX_THREADS", "2")

import numpy as np
import pandas as pd
import polars as pl

from sewer_rules.monitoring.series import US_PER_MINUTE, Series, cadence
from sewer_rules.monitoring.slugs import Baseline, detect_slugs
from sewer_rules.parameters import load_jurisdiction

SEED = 19615
T0 = 1_767_243_600_000_000  # 2026-01-01T00:00:00-05:00
MIN = US_PER_MINUTE
MAX_GAP = 5 * MIN
ROOT = Path(__file__).resolve().parents[1]


def make_series(
    n: int, rng: np.random.Generator, jitter: bool = False
) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Times (µs) and values (hundredths of a gpm) with injected slugs; and the injected
    (first index, length) of each plateau."""
    t = T0 + np.arange(n, dtype=np.int64) * MIN
    if jitter:
        t += rng.integers(-20, 21, n).astype(np.int64) * 1_000_000
    minute_of_day = (np.arange(n) % 1440).astype(np.float64)
    cycle = 0.5 - 0.5 * np.cos(2 * np.pi * minute_of_day / 1440)
    v = np.round(3000 + 2000 * cycle + rng.normal(0, 150, n)).astype(np.int64)  # 30-50 gpm
    injected = []
    k = 3000
    while k < n - 200:
        length = int(rng.choice([15, 16, 20, 45, 90]))
        v[k : k + length] = rng.integers(40_000, 60_000, length)  # 400-600 gpm
        injected.append((k, length))
        k += int(rng.integers(3000, 9000))
    return t, v, injected


def engine(t: np.ndarray, v: np.ndarray) -> list[tuple[int, int]]:
    params = load_jurisdiction("wappinger")
    s = Series("bench", "flow", "gpm", t, v, 2)
    result = detect_slugs(s, params, params.timezone, cadence(t, MAX_GAP), Baseline())
    return [(x.start, x.end) for x in result.slugs]


def pandas_way(t: np.ndarray, v: np.ndarray) -> list[tuple[int, int]]:
    """The idiomatic pandas implementation the issue describes."""
    idx = pd.DatetimeIndex(t.astype("datetime64[us]"))
    s = pd.Series(v / 100.0, index=idx)
    baseline = s.rolling("24h").mean().shift(1)  # mean of the 24 h up to the previous reading
    judged = idx >= idx[0] + pd.Timedelta(hours=24)
    mask = pd.Series((s.to_numpy() > 5 * baseline.to_numpy()) & judged, index=idx)
    run = (mask != mask.shift()).cumsum()
    frame = pd.DataFrame(
        {"t": idx, "next": pd.Series(idx).shift(-1).to_numpy(), "run": run.to_numpy()}
    )
    frame = frame[mask.to_numpy()]
    interval = pd.Series(idx).diff().median()
    frame["end"] = frame["next"].where(
        frame["next"] - frame["t"] <= pd.Timedelta(MAX_GAP, "us"), frame["t"] + interval
    )
    runs = frame.groupby("run").agg(start=("t", "first"), end=("end", "last"))
    slugs = runs[(runs["end"] - runs["start"]) > pd.Timedelta(minutes=15)]
    return [
        (int(a.value // 1000), int(b.value // 1000))
        for a, b in zip(slugs["start"], slugs["end"], strict=True)
    ]


def best(fn, *args, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    times = []
    out = None
    for _ in range(repeat):
        start = time.process_time()  # CPU time of this process: the machine is shared
        out = fn(*args)
        times.append(time.process_time() - start)
    return min(times), out


def in_memory(n: int, repeat: int) -> None:
    rng = np.random.default_rng(SEED)
    t, v, injected = make_series(n, rng)
    ours_s, ours = best(engine, t, v, repeat=repeat)
    pandas_s, theirs = best(pandas_way, t, v, repeat=max(1, repeat // 2))
    same = ours == theirs
    long_enough = sum(1 for k, length in injected if length > 15 and k >= 1440)
    print(
        f"(a) in memory: {n:,} one-minute readings of one series, {len(injected)} plateaus injected"
    )
    print(
        f"    slugs found: ours {len(ours)}, pandas {len(theirs)} (injected longer than 15 min: {long_enough}); same slugs: {same}"
    )
    print(f"    ours:   {ours_s * 1e3:9.1f} ms  {n / ours_s / 1e6:8.1f} M readings/s")
    print(f"    pandas: {pandas_s * 1e3:9.1f} ms  {n / pandas_s / 1e6:8.1f} M readings/s")
    print(f"    ratio:  {pandas_s / ours_s:9.1f} x")
    tj, vj, _ = make_series(n, np.random.default_rng(SEED), jitter=True)
    j_s, _ = best(engine, tj, vj, repeat=repeat)
    print(
        f"    ours, jittered timestamps (general path): {j_s * 1e3:.1f} ms  {n / j_s / 1e6:.1f} M readings/s"
    )
    if not same:
        raise SystemExit("the engine and pandas disagree")


def _decimal_text(scaled: np.ndarray, places: int) -> pl.Series:
    """Integers as decimals with ``places`` places, as a meter writes them (never via floats)."""
    x = pl.Series("x", scaled)
    unit = 10**places
    return pl.select(
        pl.format(
            "{}{}.{}",
            pl.when(x < 0).then(pl.lit("-")).otherwise(pl.lit("")),
            x.abs() // unit,
            (x.abs() % unit).cast(pl.String).str.zfill(places),
        )
    ).to_series()


def write_csv(
    path: Path, meters: int, days: int, parameters: tuple[str, ...], rng: np.random.Generator
) -> int:
    """One-minute readings, ISO 8601 times with offsets; written meter by meter."""
    n = days * 1440
    t = pl.Series("t", T0 + np.arange(n, dtype=np.int64) * MIN).cast(pl.Datetime("us", "UTC"))
    stamps = t.dt.convert_time_zone("America/New_York").dt.strftime("%Y-%m-%dT%H:%M:%S%:z")
    rows = 0
    with path.open("wb") as fh:
        for m in range(meters):
            for p in parameters:
                _, v, _ = make_series(n, rng)
                if p == "flow":
                    text = _decimal_text(v, 2)  # hundredths of a gpm, written as decimals
                elif p == "pH":
                    text = _decimal_text(np.round(700 + rng.normal(0, 20, n)).astype(np.int64), 2)
                else:
                    text = _decimal_text(np.round(700 + rng.normal(0, 30, n)).astype(np.int64), 1)
                frame = pl.DataFrame(
                    {"timestamp": stamps, "meter": f"IU-{m + 1:02d}", "parameter": p, "value": text}
                )
                frame.write_csv(fh, include_header=rows == 0)
                rows += n
    return rows


# The child reports its own peak resident memory (VmHWM of its process image after exec):
# ru_maxrss would also count the pages of this large parent process it was forked from.
_CHILD = """
import sys
from sewer_cli.main import main
code = main(sys.argv[1:])
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print(f"peak-kb {peak}", file=sys.stderr)
sys.exit(code)
"""


def end_to_end(path: Path, label: str) -> None:
    """Run ``sewer-use slugs`` on ``path`` in a child process: wall time and its peak RSS."""
    size = path.stat().st_size
    args = ["slugs", str(path), "--format", "json", "--output", os.devnull]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"sewer-use slugs failed ({done.returncode}): {done.stderr}")
    peak_kb = int(done.stderr.split("peak-kb ")[1].split()[0])
    print(f"{label}: {size / 1e9:.2f} GB, judged in {wall:.1f} s, peak RSS {peak_kb / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--quick", action="store_true", help="a small run (1M readings, 5 meters x 30 days)"
    )
    ap.add_argument("--large", type=float, metavar="GB", help="also judge a CSV of about this size")
    ap.add_argument("--keep", metavar="DIR", help="write the generated CSVs here and keep them")
    args = ap.parse_args()
    print(
        f"numpy {np.__version__}, pandas {pd.__version__}, polars {pl.__version__}; POLARS_MAX_THREADS={os.environ['POLARS_MAX_THREADS']}"
    )
    in_memory(1_000_000 if args.quick else 10_000_000, repeat=3 if args.quick else 9)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="slug-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED + 1)
    meters, days = (5, 30) if args.quick else (50, 365)
    csv_path = folder / f"flow-{meters}-meters-{days}-days.csv"
    start = time.perf_counter()
    rows = write_csv(csv_path, meters, days, ("flow",), rng)
    print(
        f"(b) end to end: {rows:,} rows ({meters} meters x {days} days of one-minute flow), written in {time.perf_counter() - start:.0f} s"
    )
    end_to_end(csv_path, "    sewer-use slugs")
    if args.large:
        days = max(1, round(args.large * 1e9 / (50 * 3 * 1440 * 44)))  # about 44 bytes a row
        big = folder / f"all-{days}-days.csv"
        rows = write_csv(big, 50, days, ("flow", "pH", "temperature"), rng)
        print(
            f"(c) larger than memory allowed: {rows:,} rows (50 meters x 3 parameters x {days} days)"
        )
        end_to_end(big, "    sewer-use slugs")
    if not args.keep:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
