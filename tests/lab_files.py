"""Generated laboratory files with bad cells scattered in any column, and the errors expected.

Shared by the command-line and office property tests: the same file must give the same
(row, field) list through ``sewer-use check`` and through the office's import.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: A bad cell per column and the field its error names.
BAD_CELLS: dict[str, tuple[str, str]] = {
    "sample_id": ("", "sample_id"),
    "sampled_at": ("2024-13-45 soon", "sampled_at"),
    "sample_type": ("bucket", "sample_type"),
    "parameter": ("unobtainium", "parameter"),
    "value": ("seven", "value"),
    "unit": ("furlongs", "unit"),
}
GAP = "2024-03-10T02:30"  # a naive time that never happened in America/New_York
COLUMNS = ("sample_id", "sampled_at", "sample_type", "parameter", "value", "unit")


@dataclass(frozen=True)
class LabFile:
    text: str
    expected: set[tuple[int, str]]  # (row, field), row 1 = header
    gap_rows: set[int]


def lab_file(rows: int, bad: list[tuple[int, str]], extra: dict[str, str] | None = None) -> LabFile:
    """``rows`` valid pH results (one sample each, a distinct time each), then each
    ``(index, column)`` of ``bad`` made bad; ``column`` ``"gap"`` puts a DST-gap time there.
    ``extra`` columns are appended with a constant value (the office's facility, point)."""
    extra = extra or {}
    cells: dict[tuple[int, str], str] = {}
    expected: set[tuple[int, str]] = set()
    gap_rows: set[int] = set()
    for index, column in bad:
        if column == "gap":
            cells[index, "sampled_at"] = GAP
            expected.add((index + 2, "sampled_at"))
            gap_rows.add(index + 2)
        else:
            cells[index, column] = BAD_CELLS[column][0]
            expected.add((index + 2, BAD_CELLS[column][1]))
    tail = "".join(f",{v}" for v in extra.values())
    lines = [",".join(COLUMNS) + "".join(f",{k}" for k in extra)]
    for i in range(rows):
        # Working hours only (06:00-17:59), so that no valid time falls in a DST gap.
        day, rest = divmod(i % (60 * 12 * 300), 60 * 12)
        stamp = f"2025-{1 + day // 28:02d}-{1 + day % 28:02d}T{6 + rest // 60:02d}:{rest % 60:02d}"
        row = {
            "sample_id": f"S{i}",
            "sampled_at": stamp,
            "sample_type": "grab",
            "parameter": "pH",
            "value": f"{7 + (i % 10) / 10}",
            "unit": "SU",
        }
        if cells:
            for column in COLUMNS:
                row[column] = cells.get((i, column), row[column])
        lines.append(",".join(row[c] for c in COLUMNS) + tail)
    return LabFile("\n".join(lines) + "\n", expected, gap_rows)


def scattered(rows: int, n_bad: int, seed: int) -> list[tuple[int, str]]:
    """``n_bad`` bad cells at random rows and columns (DST gaps included), one per cell."""
    rng = random.Random(seed)
    kinds = [*BAD_CELLS, "gap"]
    chosen: dict[tuple[int, str], str] = {}  # (row index, column) -> kind
    while len(chosen) < min(n_bad, rows * len(COLUMNS)):
        index, kind = rng.randrange(rows), rng.choice(kinds)
        chosen.setdefault((index, "sampled_at" if kind == "gap" else kind), kind)
    return [(index, kind) for (index, _), kind in chosen.items()]
