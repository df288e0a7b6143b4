"""``sewer-use demo-report`` — what ``make run`` prints: the bundled examples, evaluated.

Runs the real commands on the files under ``examples/`` (in the clearly labelled demo
jurisdiction, so that money shows), one after another, each under its own heading.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .main import EXIT_OK, main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo-report", help="evaluate the bundled examples (what `make run` shows)")
    p.add_argument("--examples", default=str(EXAMPLES), help="the examples directory")
    p.set_defaults(func=run)


def steps(ex: Path) -> list[tuple[str, list[str]]]:
    return [
        (
            "Laboratory results of March 2026 against the ordinance and the permit's limits",
            [
                "check",
                str(ex / "lab-results-2026-03.csv"),
                "--limits",
                str(ex / "permit-limits.csv"),
                "--jurisdiction",
                "demo",
            ],
        ),
        (
            "Fines for a notice served 2026-01-05 and corrected 2026-01-20 (§ 196-22)",
            [
                "fines",
                "--served",
                "2026-01-05",
                "--corrected",
                "2026-01-20",
                "--jurisdiction",
                "demo",
            ],
        ),
        (
            "Extra-strength surcharge for March 2026 (§ 196-19 E(1)(d), J)",
            [
                "surcharge",
                "--start",
                "2026-03-01",
                "--end",
                "2026-03-30",
                "--flow-mgd",
                "0.020",
                "--bod",
                "600",
                "--tss",
                "250",
                "--grease",
                "80",
                "--jurisdiction",
                "demo",
            ],
        ),
        (
            "A building sewer design (§ 196-18 D, F, G, H)",
            ["sewer-design", str(ex / "building-sewer-design.json"), "--jurisdiction", "demo"],
        ),
        (
            "Continuous monitoring, March 2026: slugs and excursions (§ 196-15 SLUG, § 196-19 C(3), D(1), D(8))",
            [
                "slugs",
                str(ex / "monitoring" / "readings.parquet"),
                "--plot",
                "var/monitoring-2026-03.png",
            ],
        ),
        ("Coverage of the article", ["sections", "--status", "implemented"]),
    ]


def run(args: argparse.Namespace) -> int:
    ex = Path(args.examples)
    Path("var").mkdir(exist_ok=True)
    for title, argv in steps(ex):
        print(f"\n{'=' * 100}\n{title}\n$ sewer-use {' '.join(argv)}\n{'=' * 100}", flush=True)
        code = main(argv)
        print(f"(exit status {code})", flush=True)
    return EXIT_OK
