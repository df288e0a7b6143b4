"""The check of a whole bundle: every file read, every row checked, nothing written.

Files are read in the order of :data:`~.columns.COLUMNS` (approvals before their conditions and
limits); each row goes to the reader of its file, and a row's problem is listed without stopping
the others. What no row names (documents, files that are not records) is noted.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from django.utils import timezone

from sewer_office.archive.bundle import Bundle, UnusableFile
from sewer_office.core.models import ImportedRecord
from sewer_rules.hostile import control_character, shorten

from .approvals import approval, condition, granted_conditions, limit
from .columns import COLUMNS, read_csv
from .context import Context, Plan
from .inspections import inspection
from .permits import permit
from .values import RowError
from .violations import violation

#: The reader of each file's rows.
READERS: dict[str, Callable[[Context, int, dict[str, str]], None]] = {
    "permits.csv": permit,
    "approvals.csv": approval,
    "approval_conditions.csv": condition,
    "approval_limits.csv": limit,
    "inspections.csv": inspection,
    "violations.csv": violation,
}


def plan(bundle: Bundle, *, default_source: str = "", today: date | None = None) -> Plan:
    """Read and check every row of ``bundle``: what it would create and every problem."""
    ctx = Context(bundle, default_source.strip(), today or timezone.localdate())
    if ("approval_conditions.csv" in bundle.csv or "approval_limits.csv" in bundle.csv) and (
        "approvals.csv" not in bundle.csv
    ):
        raise UnusableFile(
            f"{bundle.name}: approval_conditions.csv and approval_limits.csv name approvals of "
            "approvals.csv, which is missing"
        )
    files = [(name, read_csv(name, bundle.csv[name])) for name in COLUMNS if name in bundle.csv]
    _load_imported_numbers(ctx, files)
    for name, rows in files:
        ctx.plan.rows[name] = len(rows)
        for number, row in rows:
            if name == "approvals.csv":
                ctx.listed_approvals.add(row.get("number", ""))
            bad = _control_characters(row)
            if bad:
                for column, message in bad:
                    ctx.problem(name, number, column, message)
                continue
            try:
                READERS[name](ctx, number, row)
            except RowError as e:
                ctx.problem(name, number, e.column, e.message)
    granted_conditions(ctx)
    unused = sorted(set(bundle.documents) - ctx.plan.used_documents)
    if unused:
        ctx.plan.notes.append(
            f"{len(unused)} document(s) in documents/ no row names, not imported: "
            + ", ".join(shorten(u, 60) for u in unused[:10])
            + (" ..." if len(unused) > 10 else "")
        )
    if bundle.ignored:
        ctx.plan.notes.append(
            "not read (not a file of records or a document): "
            + ", ".join(shorten(i, 60) for i in bundle.ignored[:10])
        )
    return ctx.plan


def _control_characters(row: dict[str, str]) -> list[tuple[str, str]]:
    out = []
    for column, text in row.items():
        found = control_character(text)
        if found is not None:
            out.append((column, f"holds the control character {found}, which no record may"))
    return out


def _load_imported_numbers(
    ctx: Context, files: list[tuple[str, list[tuple[int, dict[str, str]]]]]
) -> None:
    """The paper numbers of this import that an earlier import brought in already."""
    numbers = {row["number"] for _name, rows in files for _n, row in rows if row.get("number")}
    if not numbers:
        return
    wanted = sorted(numbers)
    for i in range(0, len(wanted), 500):
        for ct, number, batch in ImportedRecord.objects.filter(
            original_number__in=wanted[i : i + 500]
        ).values_list("content_type_id", "original_number", "batch_name"):
            ctx.imported_numbers[(ct, number)] = batch
