"""Benchmark: ``sewer-use check`` end to end, as a process, against a per-row Python loop.

Generates 1,000,000 laboratory result rows (seeded) in two shapes — ``ten``: ten results per
sample (one time per sample), and ``one``: one result per sample (every sample id and time
distinct, as some laboratories send) — then, in one run, times whole processes:

(a) ``sewer-use check FILE --format json|table|csv --output OUT`` — start-up, reading,
    validation, every rule, the report written — several runs each, the formats taking turns:
    median, spread, peak RSS;
(b) a straightforward per-row loop over ``csv`` and ``Decimal`` applying the same declared
    rules with the same dated parameters and writing the same JSON fields, run as a process
    (``--loop``) on the same file.

Both must agree on every row's status (compared in a child process, so that this process
stays small: a forked child's ``ru_maxrss`` starts from its parent's). Peak memory is the
child's ``ru_maxrss`` (os.wait4).

    .venv/bin/python bench/check_throughput.py [--rows 1000000] [--runs 3] [--keep DIR]

Targets (issue 10): (a) JSON ≤ 3 s for 1,000,000 rows and ≥ 10x (b), for both shapes; peak
memory ≤ 1 GB; table and CSV no slower than JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from sewer_rules.analytes import resolve
from sewer_rules.evaluation.engine import RULES
from sewer_rules.findings import Status
from sewer_rules.limits import Bound
from sewer_rules.parameters import load_jurisdiction
from sewer_rules.units import convert, format_decimal, parse_unit

HEADER = [
    "sample_id",
    "sampled_at",
    "sample_type",
    "parameter",
    "value",
    "unit",
    "facility",
    "reporting_limit",
]
# (spelling, unit, low, high, sample type)
ANALYTES = [
    ("pH", "SU", 4.5, 11.0, "grab"),
    ("BOD", "mg/l", 50, 700, "composite"),
    ("TSS", "mg/L", 40, 500, "composite"),
    ("O&G", "mg/l", 5, 160, "grab"),
    ("Cyanide, total", "ug/L", 100, 2600, "grab"),
    ("copper", "mg/l", 0.01, 2.0, "composite"),
    ("zinc", "mg/l", 0.01, 3.0, "composite"),
    ("Temperature", "F", 50, 170, "grab"),
    ("chloride", "mg/l", 20, 900, "composite"),
    ("phenols", "mg/l", 0.001, 1.0, "grab"),
]


def generate(path: Path, rows: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        stamp = ""
        for i in range(rows):
            spelling, unit, lo, hi, stype = ANALYTES[i % len(ANALYTES)]
            if i % len(ANALYTES) == 0:  # a sample: one time for all its results
                day = date.fromordinal(date(2024, 1, 1).toordinal() + rng.randrange(0, 1000))
                stamp = f"{day.isoformat()}T{rng.randrange(6, 18):02d}:{rng.randrange(60):02d}"
            roll = rng.random()
            rl = ""
            if roll < 0.05 and spelling not in ("pH", "Temperature"):
                value = f"<{rng.choice(['0.005', '0.01', '0.05', '5'])}"
            elif roll < 0.07 and spelling not in ("pH", "Temperature"):
                value, rl = "ND", rng.choice(["0.01", "0.02", "3"])
            else:
                value = f"{rng.uniform(lo, hi):.{3 if hi < 20 else 1}f}"
            w.writerow(
                [
                    f"S{i // len(ANALYTES)}",
                    stamp,
                    stype,
                    spelling,
                    value,
                    unit,
                    f"F{(i // 400) % 40}",
                    rl,
                ]
            )


# --- (b) the straightforward per-row loop -------------------------------------------------------

TOWN = ZoneInfo("America/New_York")


def per_row_loop(src: Path, out: Path, jurisdiction: str) -> Counter[str]:
    params = load_jurisdiction(jurisdiction)
    rules_by_analyte: dict[str, list] = {}
    for rule in RULES:
        rules_by_analyte.setdefault(rule.analyte, []).append(rule)
    statuses: Counter[str] = Counter()
    with src.open(newline="") as fh, out.open("w") as o:
        o.write(f'{{"jurisdiction": "{jurisdiction}", "results": [\n')
        for n, rec in enumerate(csv.DictReader(fh), start=2):
            analyte = resolve(rec["parameter"])
            unit = parse_unit(rec["unit"])
            text = rec["value"].strip()
            nd = text.startswith("<") or text.upper() == "ND"
            number = Decimal(
                text[1:] if text.startswith("<") else rec["reporting_limit"] if nd else text
            )
            canon = convert(number, unit.symbol, analyte.canonical_unit)
            on = datetime.fromisoformat(rec["sampled_at"]).replace(tzinfo=TOWN).date()
            findings = []
            for rule in rules_by_analyte.get(analyte.name, []):
                pv = params.get(rule.parameter, on)
                if pv.value is None:
                    if rule.unconfigured:
                        findings.append((rule.unconfigured, rule, None, pv))
                    continue
                lim = convert(pv.value, pv.unit, analyte.canonical_unit)
                upper = rule.bound is Bound.UPPER
                if not nd:
                    if (canon > lim) if upper else (canon < lim):
                        findings.append((rule.status, rule, lim, pv))
                elif upper and canon > lim:
                    findings.append((Status.INCONCLUSIVE, rule, lim, pv))
                elif not upper:
                    findings.append(
                        (rule.status if canon <= lim else Status.INCONCLUSIVE, rule, lim, pv)
                    )
            if analyte.name in ("dissolved_solids", "chloride", "color", "flow"):
                findings.append((Status.NO_LIMIT, None, None, None))
            findings.sort(key=lambda f: f[0].rank)
            status = findings[0][0] if findings else Status.COMPLIANT
            statuses[str(status)] += 1
            doc = {
                "row": n,
                "sample_id": rec["sample_id"],
                "parameter": analyte.name,
                "value": text,
                "unit": unit.symbol,
                "status": str(status),
                "findings": [
                    {
                        "status": str(s),
                        "citation": str(r.citation) if r else "",
                        "limit": format_decimal(pv.value) if pv and pv.value is not None else None,
                        "limit_unit": pv.unit if pv else None,
                    }
                    for s, r, _, pv in findings
                ],
            }
            o.write(json.dumps(doc, ensure_ascii=False) + ",\n")
        o.write("]}\n")
    return statuses


def generate_one_per_sample(path: Path, rows: int, seed: int = 11) -> None:
    """Every row its own sample: a distinct sample id and a distinct time on every line."""
    rng = random.Random(seed)
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        for i in range(rows):
            spelling, unit, lo, hi, stype = ANALYTES[i % len(ANALYTES)]
            day = date.fromordinal(date(2024, 1, 1).toordinal() + rng.randrange(0, 1000))
            stamp = (
                f"{day.isoformat()}T{rng.randrange(6, 18):02d}:{rng.randrange(60):02d}"
                f":{rng.randrange(60):02d}"
            )
            roll = rng.random()
            rl = ""
            if roll < 0.05 and spelling not in ("pH", "Temperature"):
                value = f"<{rng.choice(['0.005', '0.01', '0.05', '5'])}"
            elif roll < 0.07 and spelling not in ("pH", "Temperature"):
                value, rl = "ND", rng.choice(["0.01", "0.02", "3"])
            else:
                value = f"{rng.uniform(lo, hi):.{3 if hi < 20 else 1}f}"
            w.writerow([f"L{i}", stamp, stype, spelling, value, unit, f"F{(i // 400) % 40}", rl])


# --- timing processes ----------------------------------------------------------------------


def run_process(cmd: list[str]) -> tuple[float, int, int]:
    """Wall time (s), peak RSS (MB) and exit status of one child process.

    The page cache is flushed first (``os.sync``, not timed): each run writes a report of up
    to 300 MB, and without it the next process pays for writing the previous one's to disk
    (the first JSON run after the loop's report took a second longer than the same command
    later in the same run)."""
    os.sync()
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss // 1024, proc.returncode


def timed(cmd: list[str], runs: int) -> tuple[float, float, float, int]:
    """Median and spread (min, max) of ``runs`` runs, and the largest peak RSS (MB)."""
    return timed_round_robin({"": cmd}, runs)[""]


def timed_round_robin(
    commands: dict[str, list[str]], runs: int
) -> dict[str, tuple[float, float, float, int]]:
    """:func:`timed` of each command, the commands taking turns (one run of each, ``runs``
    times over): every command sees the machine in the same states, where runs of one command
    back to back would give the first command whatever state the loop before it left (run
    first after the 22-second loop, the JSON runs took 0.2 s more than the same work run last,
    "check alone", in each of three runs of 2026-12-03 and -05)."""
    times: dict[str, list[float]] = {label: [] for label in commands}
    peaks = dict.fromkeys(commands, 0)
    for _ in range(runs):
        for label, cmd in commands.items():
            elapsed, rss, code = run_process(cmd)
            if code not in (0, 1):
                raise SystemExit(f"{' '.join(cmd)} exited with {code}")
            times[label].append(elapsed)
            peaks[label] = max(peaks[label], rss)
    return {
        label: (statistics.median(ts), min(ts), max(ts), peaks[label])
        for label, ts in times.items()
    }


CHECK_ALONE = """
import argparse, sys
from sewer_cli import cmd_check
parser = argparse.ArgumentParser(prog="sewer-use")
cmd_check.register(parser.add_subparsers(dest="command", required=True))
args = parser.parse_args(["check", *sys.argv[1:]])
sys.exit(args.func(args))
"""


def sewer_use() -> str:
    exe = Path(sys.executable).with_name("sewer-use")
    return str(exe) if exe.exists() else "sewer-use"


def shipped_statuses(report: Path) -> dict[int, str]:
    with report.open(encoding="utf-8") as fh:
        doc = json.load(fh)
    return {r["row"]: r["status"] for r in doc["results"]}


def loop_statuses(report: Path) -> dict[int, str]:
    out = {}
    with report.open(encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            if line.startswith("{"):
                doc = json.loads(line.rstrip(",\n"))
                out[doc["row"]] = doc["status"]
    return out


def bench_shape(
    name: str, src: Path, workdir: Path, rows: int, runs: int, jurisdiction: str
) -> bool:
    print(f"\nshape {name}: {rows:,} rows, {src.stat().st_size / 1e6:.0f} MB")
    loop_out = workdir / f"loop-{name}.json"
    t_loop, _, _, rss_loop = timed(
        [sys.executable, __file__, "--loop", str(src), str(loop_out), jurisdiction], 1
    )
    json_out = workdir / f"shipped-{name}.json"
    commands: dict[str, list[str]] = {}
    for fmt in ("json", "table", "csv"):
        out = json_out if fmt == "json" else workdir / f"shipped-{name}.{fmt}"
        cmd = [sewer_use(), "check", str(src), "--jurisdiction", jurisdiction]
        commands[fmt] = [*cmd, "--format", fmt, "--output", str(out)]
    # The same command with a parser of the check sub-command alone: what ``sewer-use check``
    # costs once the command line imports only the sub-command being run.
    alone = [sys.executable, "-c", CHECK_ALONE, str(src), "--jurisdiction", jurisdiction]
    commands["json, check alone"] = [*alone, "--format", "json", "--output", str(json_out)]
    results = timed_round_robin(commands, runs)
    # Compared in a child process: the reports parsed here would raise this process's memory,
    # and a child forked afterwards starts its peak RSS from its parent's (Linux' ru_maxrss).
    compare = [sys.executable, __file__, "--compare", str(json_out), str(loop_out)]
    same = subprocess.run(compare, check=False).returncode == 0
    print(f"  (b) per-row loop (csv+Decimal), process: {t_loop:6.2f} s  peak {rss_loop:5d} MB")
    for fmt, (med, lo, hi, rss) in results.items():
        print(
            f"  (a) sewer-use check --format {fmt:<17}: {med:6.2f} s  (median of {runs}, "
            f"{lo:.2f}-{hi:.2f})  peak {rss:5d} MB  {rows / med:10,.0f} rows/s  "
            f"{t_loop / med:5.1f}x the loop"
        )
    print(f"  statuses agree on every row: {same}")
    return same


def startup(runs: int) -> None:
    med, lo, hi, _ = timed([sewer_use(), "--help"], runs)
    print(f"sewer-use --help: {med:.2f} s (median of {runs}, {lo:.2f}-{hi:.2f})")
    code = "import sewer_io.check_io, sewer_rules.parameters"
    med, lo, hi, _ = timed([sys.executable, "-c", code], runs)
    print(f"importing check's own run path: {med:.2f} s (median of {runs}, {lo:.2f}-{hi:.2f})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--jurisdiction", default="demo")
    ap.add_argument("--keep", help="directory to keep the generated files in")
    ap.add_argument("--runs", type=int, default=3, help="runs of each shipped command (median)")
    ap.add_argument("--shapes", default="one,ten", help="one (result per sample), ten, or both")
    ap.add_argument(
        "--loop", nargs=3, metavar=("SRC", "OUT", "JURISDICTION"), help=argparse.SUPPRESS
    )
    ap.add_argument("--compare", nargs=2, metavar=("SHIPPED", "LOOP"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.compare:  # statuses of the two reports, in a process of its own
        shipped, loop = (Path(f) for f in args.compare)
        return 0 if shipped_statuses(shipped) == loop_statuses(loop) else 1
    if args.loop:  # the baseline, as a process of its own
        per_row_loop(Path(args.loop[0]), Path(args.loop[1]), args.loop[2])
        return 0
    workdir = Path(args.keep or tempfile.mkdtemp(prefix="sewer-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"cores: {os.cpu_count()}   rows: {args.rows:,}   jurisdiction: {args.jurisdiction}")
    startup(args.runs)
    ok = True
    for shape in args.shapes.split(","):
        src = workdir / f"results-{shape}-{args.rows}.csv"
        if not src.exists():
            (generate_one_per_sample if shape == "one" else generate)(src, args.rows)
        ok &= bench_shape(shape, src, workdir, args.rows, args.runs, args.jurisdiction)
    if not args.keep:
        shutil.rmtree(workdir)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
