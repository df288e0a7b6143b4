"""Benchmark: ``sewer-use check`` end to end, as a process, against the per-row reference.

Generates laboratory results files (seeded) of several shapes and, in one run, times whole
processes on each:

(a) ``sewer-use check FILE --format json --output OUT`` — start-up, reading, validation, every
    rule, the report written (the columnar engine, ``sewer_engines.evaluation``);
(b) the per-row reference, ``sewer_rules.evaluation.check``, over the same file read by the
    ``csv`` module, writing the same JSON results — the plain reading of the law, one row at a
    time, as a process of its own (``--reference``).

Both must agree on every row's status, findings and advisories and on the row errors
(compared in a child process). Shapes: ``one`` (one result a sample, every sample id and time
distinct, six parameters) and ``ten`` (ten results a sample, ten parameters), each with its
times written in one of the forms a laboratory file takes — ``T`` (``2026-03-02T08:30:15``),
``Z`` (``2026-03-02T13:30Z``), ``offset`` (``2026-03-02 08:30:15.250-05:00``) — or ``mixed``
(every accepted form, row by row).

    .venv/bin/python bench/check_throughput.py [--rows 1000000] [--runs 3]
        [--shapes one-mixed,ten-mixed,...] [--keep DIR] [--smoke]

Targets: (a) ≤ 3 s on 1,000,000 rows and ≥ 10 × (b), on every shape. ``--smoke`` runs every
shape at a few hundred rows (seconds), checks that engine and reference agree, asserts no time.
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
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

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
STAMPS = ("T", "Z", "offset", "mixed")
SHAPES = tuple(f"{n}-{s}" for n in ("one", "ten") for s in STAMPS)
TOWN = ZoneInfo("America/New_York")


def stamp(moment: datetime, form: str, rng: random.Random) -> str:
    """A town time written in one of the forms laboratories use."""
    if form == "mixed":
        form = rng.choice(["T", "Z", "offset", "minutes", "space", "fraction"])
    aware = moment  # a town time; the forms without an offset write its clock time
    if form == "T":
        return moment.strftime("%Y-%m-%dT%H:%M:%S")
    if form == "minutes":
        return moment.strftime("%Y-%m-%dT%H:%M")
    if form == "space":
        return moment.strftime("%Y-%m-%d %H:%M")
    if form == "Z":
        return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")
    if form == "fraction":
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{rng.randrange(1000):03d}"
    return aware.isoformat(sep=" ", timespec="milliseconds")  # offset: ±HH:MM, fraction, space


def generate(path: Path, rows: int, per_sample: int, form: str, seed: int = 7) -> None:
    """``rows`` results, ``per_sample`` a sample (one time each), times written in ``form``."""
    rng = random.Random(seed)
    kinds = ANALYTES[:6] if per_sample == 1 else ANALYTES
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(HEADER)
        written = ""
        for i in range(rows):
            spelling, unit, lo, hi, stype = kinds[i % len(kinds)]
            if i % per_sample == 0:  # a new sample: one time for all its results
                day = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 1000))
                moment = datetime(day.year, day.month, day.day, rng.randrange(6, 18), tzinfo=TOWN)
                moment += timedelta(minutes=rng.randrange(60), seconds=rng.randrange(60))
                written = stamp(moment, form, rng)
            roll = rng.random()
            rl = ""
            if roll < 0.05 and spelling not in ("pH", "Temperature"):
                value = f"<{rng.choice(['0.005', '0.01', '0.05', '5'])}"
            elif roll < 0.07 and spelling not in ("pH", "Temperature"):
                value, rl = "ND", rng.choice(["0.01", "0.02", "3"])
            else:
                value = f"{rng.uniform(lo, hi):.{3 if hi < 20 else 1}f}"
            sample = f"S{i // per_sample}"
            w.writerow([sample, written, stype, spelling, value, unit, f"F{(i // 400) % 40}", rl])


# --- (b) the per-row reference, as a process --------------------------------------------------


def run_reference(src: Path, out: Path, jurisdiction: str) -> None:
    """The plain reading of the rules over the file, its results written as the engine's JSON
    results (``row, sample_id, parameter, value, unit, status, findings, advisories``)."""
    from sewer_rules.evaluation import check
    from sewer_rules.parameters import load_jurisdiction

    params = load_jurisdiction(jurisdiction)
    with src.open(newline="", encoding="utf-8") as fh:
        report = check(csv.DictReader(fh), params)
    with out.open("w", encoding="utf-8") as o:
        o.write(json.dumps({"jurisdiction": params.jurisdiction})[:-1] + ', "results": [')
        for i, res in enumerate(report.results):
            r = res.reading
            doc = {
                "row": r.row,
                "sample_id": r.sample_id,
                "parameter": r.analyte.name,
                "value": r.value_text,
                "unit": r.unit.symbol,
                "status": str(res.status),
                "findings": [f.as_dict() for f in res.findings],
                "advisories": [a.as_dict() for a in res.advisories],
            }
            o.write(("," if i else "") + json.dumps(doc, ensure_ascii=False))
        errors = [{"row": e.row, "field": e.field, "message": e.message} for e in report.errors]
        o.write('], "errors": ' + json.dumps(errors, ensure_ascii=False) + "}\n")


def compare(engine: Path, reference: Path) -> bool:
    """Every row's status, findings and advisories, and the errors, the same in both reports."""
    with engine.open(encoding="utf-8") as fh:
        a = json.load(fh)
    with reference.open(encoding="utf-8") as fh:
        b = json.load(fh)
    return a["results"] == b["results"] and a["errors"] == b["errors"]


# --- timing processes ----------------------------------------------------------------------


def run_process(cmd: list[str]) -> tuple[float, float, int]:
    """Wall time (s), CPU time (s, user + system) and exit status of one child process."""
    os.sync()
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t
    return elapsed, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def sewer_use() -> list[str]:
    exe = Path(sys.executable).with_name("sewer-use")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "sewer_cli"]


def bench_shape(shape: str, src: Path, workdir: Path, rows: int, runs: int, juris: str) -> bool:
    engine_out, reference_out = (
        workdir / f"engine-{shape}.json",
        workdir / f"reference-{shape}.json",
    )
    engine = [*sewer_use(), "check", str(src), "--jurisdiction", juris, "--format", "json"]
    engine += ["--output", str(engine_out)]
    reference = [sys.executable, __file__, "--reference", str(src), str(reference_out), juris]
    times: dict[str, list[tuple[float, float]]] = {"engine": [], "reference": []}
    for _ in range(runs):  # taking turns: both see the machine in the same states
        for label, cmd in (("engine", engine), ("reference", reference)):
            wall, cpu, code = run_process(cmd)
            if code not in (0, 1):
                raise SystemExit(f"{' '.join(cmd)} exited with {code}")
            times[label].append((wall, cpu))
    same = compare(engine_out, reference_out)
    e = statistics.median(w for w, _ in times["engine"])
    r = statistics.median(w for w, _ in times["reference"])
    e_cpu = statistics.median(c for _, c in times["engine"])
    r_cpu = statistics.median(c for _, c in times["reference"])
    print(
        f"{shape:<11} {rows:>10,} {e:8.2f} {r:9.2f} {r / e:7.1f}x   cpu {e_cpu:6.2f} {r_cpu:7.2f}"
        f"   agree: {same}"
    )
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3, help="runs of each command (median)")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"any of {', '.join(SHAPES)}")
    ap.add_argument("--jurisdiction", default="demo")
    ap.add_argument("--keep", help="directory to keep the generated files in")
    ap.add_argument("--smoke", action="store_true", help="every shape, a few hundred rows")
    ap.add_argument("--reference", nargs=3, metavar=("SRC", "OUT", "JURISDICTION"))
    args = ap.parse_args()
    if args.reference:
        run_reference(Path(args.reference[0]), Path(args.reference[1]), args.reference[2])
        return 0
    if args.smoke:
        args.rows, args.runs = 300, 1
    shapes = args.shapes.split(",")
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        ap.error(f"unknown shape {unknown[0]!r}")
    workdir = Path(args.keep or tempfile.mkdtemp(prefix="sewer-check-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"cores: {os.cpu_count()}   jurisdiction: {args.jurisdiction}   runs: {args.runs}")
    print("shape             rows  check s  refer. s   ratio   (cpu s: check, reference)")
    ok = True
    try:
        for shape in shapes:
            count, form = shape.split("-")
            src = workdir / f"results-{shape}-{args.rows}.csv"
            if not src.exists():
                generate(src, args.rows, 1 if count == "one" else 10, form)
            ok &= bench_shape(shape, src, workdir, args.rows, args.runs, args.jurisdiction)
    finally:
        if not args.keep:
            shutil.rmtree(workdir)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
