"""Benchmark: ``sewer-use check`` evaluation throughput against a per-row Python loop.

Generates 1,000,000 laboratory result rows (seeded), then in one run times
(a) the shipped path — read the CSV, validate, evaluate every rule, write the JSON report —
and (b) a straightforward per-row loop over ``csv`` and ``Decimal`` applying the same declared
rules with the same dated parameters, writing the same JSON fields. Both must agree on every
row's status. Prints rows/s of each and the ratio.

    .venv/bin/python bench/check_throughput.py [--rows 1000000] [--keep DIR]

Targets (issue 2): (a) under 3 s for 1,000,000 rows, and at least 10x (b).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from sewer_io.check_io import read_results, write_json
from sewer_rules.analytes import resolve
from sewer_rules.evaluation import evaluate_table
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


def shipped(src: Path, out: Path, jurisdiction: str) -> Counter[str]:
    params = load_jurisdiction(jurisdiction)
    ev = evaluate_table(read_results(src), params)
    with out.open("w") as o:
        write_json(ev, params.jurisdiction, o)
    return Counter(dict(ev.results.group_by("status").len().iter_rows()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--jurisdiction", default="demo")
    ap.add_argument("--keep", help="directory to keep the generated files in")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the shipped path (median)")
    args = ap.parse_args()
    workdir = Path(args.keep or tempfile.mkdtemp(prefix="sewer-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    src = workdir / f"results-{args.rows}.csv"
    if not src.exists():
        t = time.perf_counter()
        generate(src, args.rows)
        print(
            f"generated {args.rows:,} rows ({src.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t:.1f} s"
        )
    load_jurisdiction(args.jurisdiction)  # parameter loading is not part of either timing

    times = []
    for _ in range(args.repeat):  # the shipped path is short: take the median of a few runs
        t = time.perf_counter()
        ours = shipped(src, workdir / "shipped.json", args.jurisdiction)
        times.append(time.perf_counter() - t)
    t_ours = statistics.median(times)
    t = time.perf_counter()
    loop = per_row_loop(src, workdir / "loop.json", args.jurisdiction)
    t_loop = time.perf_counter() - t

    same = ours == loop
    print(f"cores: {os.cpu_count()}   rows: {args.rows:,}   jurisdiction: {args.jurisdiction}")
    print(
        f"(a) shipped  (CSV -> JSON findings): {t_ours:6.2f} s  {args.rows / t_ours:12,.0f} rows/s"
        f"   (median of {args.repeat}: {', '.join(f'{x:.2f}' for x in times)} s)"
    )
    print(
        f"(b) per-row Python loop (csv+Decimal): {t_loop:6.2f} s  {args.rows / t_loop:12,.0f} rows/s"
    )
    print(f"ratio (a)/(b): {t_loop / t_ours:.1f}x   statuses agree: {same}")
    print(f"statuses: {dict(sorted(ours.items()))}")
    if not same:
        print(f"loop statuses: {dict(sorted(loop.items()))}", file=sys.stderr)
        return 1
    if not args.keep:
        for f in workdir.iterdir():
            f.unlink()
        workdir.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
