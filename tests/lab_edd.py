"""One set of laboratory results written twice: in the project's layout and in a laboratory's
EDD (the generic-edd preset's columns, US dates), for the tests of ``--mapping``."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EDD = ROOT / "examples" / "lab-edd" / "hudson-valley-labs-2026-03.csv"
EDD_MAPPING = ROOT / "examples" / "lab-edd" / "hudson-valley-labs.yaml"
HEADER = (
    "Sample ID,Collection Date,Sample Type,Analyte,CAS Number,Result,Units,Qualifier,"
    "Reporting Limit,Method"
)

#: One set of results, written in the project's layout and in a laboratory's.
RECORDS = [
    # sample, local time, type, project name, lab name, CAS, value, unit, qualifier, RL, analysed
    ("AP-1C", "2026-03-02 07:00", "composite", "Copper", "Copper, Total Recoverable", "7440-50-8", "1.4", "mg/l", "", "", "2026-03-09 12:00"),
    ("AP-1C", "2026-03-02 07:00", "composite", "Zinc", "Zinc, Total Recoverable", "7440-66-6", "2.5", "mg/l", "", "", "2026-03-09 12:00"),
    ("AP-1C", "2026-03-02 07:00", "composite", "Chromium", "Chromium, Total Recoverable", "7440-47-3", "0.02", "mg/l", "U", "0.02", "2026-03-09 12:00"),
    ("AP-1C", "2026-03-02 07:00", "composite", "BOD5", "BOD, 5-day", "", "612", "mg/l", "", "", "2026-03-03 09:00"),
    ("AP-1G", "2026-03-02 10:42", "grab", "pH", "pH", "", "5.1", "SU", "", "", "2026-03-02 10:47"),
    ("AP-1G", "2026-03-02 10:42", "grab", "Temperature", "Temperature", "", "151", "°F", "", "", ""),
    ("AP-1G", "2026-03-02 10:42", "grab", "Phenols", "Phenolics, Total", "", "0.097", "mg/l", "J", "0.1", "2026-03-20 12:00"),
    ("AP-2G", "2026-11-01 01:30", "grab", "Oil and grease", "Oil & Grease", "", "120", "mg/l", "", "", "2026-11-03 10:00"),
    ("AP-3G", "2026-03-08 02:30", "grab", "pH", "pH", "", "7", "SU", "", "", ""),  # never happened
    ("AP-4G", "2026-03-12 10:00", "grab", "Unobtainium", "Unobtainium", "", "1", "mg/l", "", "", ""),
]  # fmt: skip


def write_both(tmp_path: Path, facility: str = "ACME-PLATING") -> tuple[Path, Path]:
    """The records in the project's layout (ISO, town time) and in the generic EDD (US dates)."""
    own = tmp_path / "own.csv"
    lab = tmp_path / "lab.csv"
    with own.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(
            [
                "sample_id", "sampled_at", "sample_type", "parameter", "value", "unit",
                "facility", "qualifier", "reporting_limit", "analyzed_at", "method",
            ]
        )  # fmt: skip
        for s, t, kind, name, _lab, _cas, value, unit, q, rl, at in RECORDS:
            w.writerow([s, t.replace(" ", "T"), kind, name, value, unit, facility, q, rl,
                        at.replace(" ", "T"), "M"])  # fmt: skip
    with lab.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow([*HEADER.split(","), "Analysis Date", "Facility"])

        def us(text: str) -> str:
            return f"{text[5:7]}/{text[8:10]}/{text[0:4]} {text[11:]}" if text else ""

        for s, t, kind, _name, lab_name, cas, value, unit, q, rl, at in RECORDS:
            w.writerow([s, us(t), kind.title(), lab_name, cas, value, unit.upper().replace("MG/L", "mg/L"),
                        q, rl, "M", us(at), facility])  # fmt: skip
    return own, lab


def without_row_text(document: dict[str, Any]) -> dict[str, Any]:
    """The report of ``check --format json`` less what repeats the file's own words."""
    for result in document["results"]:
        result.pop("value", None)
        result.pop("unit", None)
    for error in document["errors"]:
        error.pop("message", None)
    return document
