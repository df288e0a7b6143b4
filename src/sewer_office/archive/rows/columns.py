"""The files of records and their columns, and reading one CSV file against them.

:data:`COLUMNS` lists, for each file a bundle may hold, its required and optional columns (the
meaning of each is in ``docs/past-records.md``). A column not listed refuses the file, so that a
misspelt column never silently loses what it holds. permits.csv holds every kind of permit, each
reading its own columns (:data:`PERMIT_FIELDS`); they are listed here because they are columns of
the file.
"""

from __future__ import annotations

import csv
import io

from sewer_office.archive.bundle import UnusableFile
from sewer_rules.hostile import shorten

#: Columns every file of records may have.
COMMON = ("number", "documents", "source")

#: The columns of permits.csv each kind reads besides the common ones (column → model field).
#: A value in a column the row's kind does not read is refused (it would be lost).
PERMIT_FIELDS: dict[str, dict[str, str]] = {
    "building-sewer": {
        "permit_class": "permit_class",
        "service_use": "service_use",
        "industrial_wastes": "industrial_wastes",
        "building": "building",
        "reuses_old_sewer": "reuses_old_sewer",
        "fee_paid_on": "fee_paid_on",
        "fee_receipt": "fee_receipt",
        "fee_waived_on": "fee_waived_on",
        "fee_waiver_authority": "fee_waiver_authority",
        "plans_approved_on": "plans_approved_on",
        "road_opening_number": "road_opening_number",
        "road_opening_issued_on": "road_opening_issued_on",
        "ready_on": "ready_on",
        "inspected_on": "inspected_on",
        "connected_on": "connected_on",
        "supervised_by": "supervised_by",
    },
    "private-system": {
        "system_type": "system_type",
        "design_flow_gpd": "design_flow_gpd",
        "health_approval_ref": "health_approval_ref",
        "health_approved_on": "health_approved_on",
        "completion_ref": "completion_ref",
        "completed_on": "completed_on",
        "forms_filed_on": "forms_filed_on",
        "co_number": "co_number",
        "co_issued_on": "co_issued_on",
        "connection_required_on": "connection_required_on",
        "abandoned_on": "abandoned_on",
        "filled_with": "filled_with",
    },
    "subdivision": {
        "name": "name",
        "lots": "lots",
        "smallest_lot_acres": "smallest_lot_acres",
        "estimated_cost": "estimated_cost",
        "provision": "provision",
        "fee_paid_on": "fee_paid_on",
        "fee_receipt": "fee_receipt",
        "health_approval_ref": "health_approval_ref",
        "health_approved_on": "health_approved_on",
        "plans_approved_on": "plans_approved_on",
        "filed_with_planning_board_on": "filed_with_planning_board_on",
    },
    "grinder": {
        "facility": "establishment",
        "make_model": "make_model",
        "motor_hp": "motor_hp",
        "decided_on": "decided_on",
    },
    "interceptor": {
        "facility": "establishment",
        "interceptor_kind": "kind",
        "basis": "basis",
        "unit_type": "unit_type",
        "capacity": "capacity",
        "location": "location",
        "accessible": "accessible",
        "installed_on": "installed_on",
        "health_approval_ref": "health_approval_ref",
        "approved_on": "approved_on",
    },
    "flushing": {
        "building": "building",
        "planned_on": "planned_on",
        "water_source": "water_source",
        "water_unpolluted": "water_unpolluted",
        "tri_municipal_notified_on": "tri_municipal_notified_on",
        "acknowledged_on": "acknowledged_on",
        "flushed_on": "flushed_on",
    },
}
#: The kind's columns that a row of that kind must fill.
PERMIT_REQUIRED: dict[str, tuple[str, ...]] = {
    "building-sewer": ("permit_class",),
    "private-system": ("system_type",),
    "subdivision": ("name", "lots", "smallest_lot_acres", "estimated_cost", "provision"),
    "grinder": ("make_model", "motor_hp"),
    "interceptor": ("facility", "interceptor_kind", "basis"),
    "flushing": ("planned_on", "water_source", "tri_municipal_notified_on"),
}

#: Every kind's columns of permits.csv.
PERMIT_KIND_COLUMNS = sorted({c for cols in PERMIT_FIELDS.values() for c in cols})

COLUMNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # file: (required columns, optional columns)
    "permits.csv": (
        ("kind", "number", "state", "filed_on"),
        (
            *COMMON,
            "applicant",
            "applicant_id",
            "parcel",
            "description",
            *PERMIT_KIND_COLUMNS,
        ),
    ),
    "approvals.csv": (
        ("number", "state", "facility", "discharge_kind", "filed_on"),
        (
            *COMMON,
            "applicant",
            "applicant_id",
            "flow_gpd",
            "temperature_f",
            "concentrations",
            "categorical_category",
            "decided_on",
            "term_years",
            "expires_on",
            "renews",
            "description",
        ),
    ),
    "approval_conditions.csv": (("approval", "kind", "text"), ()),
    "approval_limits.csv": (
        ("approval", "parameter", "limit_type", "value", "unit"),
        ("effective_from", "effective_to", "citation"),
    ),
    "inspections.csv": (
        ("kind", "state", "inspector"),
        (
            *COMMON,
            "facility",
            "parcel",
            "location",
            "on_easement",
            "unscheduled",
            "scheduled_for",
            "started_at",
            "ended_at",
            "notes",
            "observations",
            "credential",
            "cancel_reason",
        ),
    ),
    "violations.csv": (
        ("kind", "section", "description", "observed_on", "state"),
        (*COMMON, "person", "person_id", "facility", "parcel", "closed_on"),
    ),
}

#: The order the files are read (and their rows reported) in.
FILE_ORDER = {name: i for i, name in enumerate(COLUMNS)}


def read_csv(name: str, text: str) -> list[tuple[int, dict[str, str]]]:
    """(row, {column: stripped text}) of each record of ``name`` (row 1 = the header; a record
    over several lines counts once); the header checked against :data:`COLUMNS`
    (:class:`UnusableFile` for a missing or unknown column)."""
    required, optional = COLUMNS[name]
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise UnusableFile(f"{name}: empty file (no header)") from None
    except csv.Error as e:
        raise UnusableFile(f"{name}: unreadable as CSV: {e}") from None
    columns = [h.strip().lower() for h in header]
    _check_header(name, columns, required, optional)
    out: list[tuple[int, dict[str, str]]] = []
    try:
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            if len(cells) > len(columns) and any(c.strip() for c in cells[len(columns) :]):
                raise UnusableFile(
                    f"{name}: row {number}: {len(cells)} cells, more than the "
                    f"{len(columns)} columns of the header"
                )
            row = {
                c: (cells[i].strip() if i < len(cells) else "") for i, c in enumerate(columns) if c
            }
            out.append((number, row))
    except csv.Error as e:
        raise UnusableFile(f"{name}: unreadable as CSV: {e}") from None
    if not out:
        raise UnusableFile(f"{name}: a header but no rows")
    return out


def _check_header(
    name: str, columns: list[str], required: tuple[str, ...], optional: tuple[str, ...]
) -> None:
    known = set(required) | set(optional)
    for c in columns:
        if c and c not in known:
            raise UnusableFile(
                f"{name}: unknown column '{shorten(c)}' (the columns are: "
                f"{', '.join([*required, *optional])})"
            )
    seen = set()
    for c in columns:
        if c and c in seen:
            raise UnusableFile(f"{name}: column '{c}' twice")
        seen.add(c)
    for c in required:
        if c not in columns:
            raise UnusableFile(f"{name}: missing required column '{c}'")
