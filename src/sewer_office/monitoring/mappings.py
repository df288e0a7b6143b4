"""The laboratory mappings the office reads files through: the project's presets
(``sewer_io/lab_layouts``) and the office's own (:class:`~.models.LabMapping`, saved on the
mapping pages by :func:`.services.save_lab_mapping`).

A mapping is found by its name (``sewer-use import-results --mapping NAME``, ``sewer-use check
--mapping NAME``) or by its choice on the import page: ``preset:<name>`` or ``office:<id>``, the
empty choice being the project's own layout (no mapping).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from sewer_engines.evaluation import evaluate_table
from sewer_io import lab_mapping as layouts
from sewer_io.check_io import UnusableFile, mapped_rows, with_row_errors
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import is_staff_member
from sewer_office.accounts.towns import primary

from .in_force import params_in_force
from .lab_files import csv_text_frame
from .models import LabMapping

PRESET = "preset:"
OFFICE = "office:"
OWN_LAYOUT = ""


class NoSuchMapping(LookupError):
    """A mapping name or choice that names no preset and no mapping of the office."""


def as_layout(record: LabMapping) -> layouts.LabMapping:
    """A stored mapping as :mod:`sewer_io.lab_mapping` reads files with it (validated again:
    a mapping stored by an older version that no longer passes says why)."""
    return layouts.LabMapping.from_dict(record.mapping, name=record.name)


def stored(name: str) -> layouts.LabMapping | None:
    """The office's mapping of that name, if any."""
    record = LabMapping.objects.filter(name=name.strip()).first()
    return as_layout(record) if record is not None else None


def named(name: str) -> layouts.LabMapping:
    """A preset or the office's mapping by its name (:class:`NoSuchMapping` when none)."""
    if name in layouts.preset_names():
        return layouts.preset(name)
    found = stored(name)
    if found is None:
        presets = ", ".join(layouts.preset_names())
        raise NoSuchMapping(
            f"no mapping named '{name}': neither a preset ({presets}) nor one of the office's "
            "(Monitoring → Laboratory mappings)"
        )
    return found


def choices(user: Actor) -> list[tuple[str, str]]:
    """What the import page offers ``user``: the project's layout, the presets, and — to the
    office's staff — the office's own mappings (an outside user sees only the presets)."""
    out = [(OWN_LAYOUT, "The project's layout (sewer-use columns)")]
    out += [(f"{PRESET}{name}", f"Preset: {name}") for name in layouts.preset_names()]
    if is_staff_member(user):
        out += [
            (f"{OFFICE}{pk}", f"{name} ({lab})" if lab else name)
            for pk, name, lab in LabMapping.objects.values_list("id", "name", "laboratory")
        ]
    return out


def chosen(choice: str, user: Actor) -> tuple[layouts.LabMapping | None, str]:
    """The mapping a choice of :func:`choices` names (None: the project's layout) and its name."""
    if not choice:
        return None, ""
    if choice.startswith(PRESET) and choice[len(PRESET) :] in layouts.preset_names():
        name = choice[len(PRESET) :]
        return layouts.preset(name), name
    if choice.startswith(OFFICE) and choice[len(OFFICE) :].isdigit() and is_staff_member(user):
        record = LabMapping.objects.filter(pk=int(choice[len(OFFICE) :])).first()
        if record is not None:
            return as_layout(record), record.name
    raise NoSuchMapping(f"no mapping '{choice}'")


# --- a sample file, read and checked on the mapping page --------------------------------------

#: The rows of a sample file kept between the steps of the mapping page (carried in the page).
SAMPLE_ROWS = 200
#: The rows of a checked sample shown as the project reads them.
PREVIEW_ROWS = 20
#: The project's columns shown for each previewed row.
PREVIEW_COLUMNS = (
    "row",
    "sample_id",
    "sampled_at",
    "sample_type",
    "parameter",
    "value",
    "unit",
    "qualifier",
    "reporting_limit",
    "facility",
    "sampling_point",
)


def sample_text(data: bytes, name: str) -> str:
    """A laboratory's sample file, its header and first :data:`SAMPLE_ROWS` rows, as CSV text
    (:class:`UnusableFile` when it is not a CSV file)."""
    frame = csv_text_frame(data, name)
    if not frame.columns or frame.columns == [""]:
        raise UnusableFile(f"{name}: empty file (no header)")
    return frame.head(SAMPLE_ROWS).write_csv()


def sample_frame(text: str) -> pl.DataFrame | None:
    """The sample carried by the page, as text columns (None when there is none)."""
    if not text.strip():
        return None
    try:
        return pl.read_csv(io.StringIO(text), infer_schema=False, raise_if_empty=False)
    except pl.exceptions.PolarsError:
        return None


@dataclass
class SampleCheck:
    """A sample read through a mapping: the first rows as the project reads them and every
    refusal, by row and field (the mapping's and the engine's); ``unusable`` when the file
    cannot be read through the mapping at all."""

    unusable: str = ""
    rows: list[dict[str, Any]] = field(default_factory=list)
    columns: tuple[str, ...] = ()
    errors: list[tuple[int, str, str]] = field(default_factory=list)
    total: int = 0


def check_sample(mapping: layouts.LabMapping, frame: pl.DataFrame, source: str) -> SampleCheck:
    """The sample through ``mapping`` and the engine's validation (nothing stored)."""
    try:
        mapped = mapped_rows(frame, source, mapping)
    except UnusableFile as e:
        return SampleCheck(unusable=str(e))
    project = mapped.frame.drop(*layouts.OFFICE_COLUMNS, strict=False)
    # A mapping is the office's, shared by its member towns, and a sample is only read through
    # it (its refusals shown, nothing judged or stored): the installation's primary town's
    # values read it. An import through the mapping judges each row under its own town's.
    ev = with_row_errors(evaluate_table(project, params_in_force(primary())), mapped.errors)
    shown = tuple(c for c in PREVIEW_COLUMNS if c in mapped.frame.columns)
    return SampleCheck(
        rows=mapped.frame.select(shown).head(PREVIEW_ROWS).to_dicts(),
        columns=shown,
        errors=[(r, f, m) for r, f, m in ev.errors.select("row", "field", "message").iter_rows()],
        total=frame.height,
    )


def qualifier_codes(frame: pl.DataFrame | None, header: str) -> list[str]:
    """The distinct codes of a sample's qualifier column (none without one)."""
    if frame is None or not header or header not in frame.columns:
        return []
    values = frame.get_column(header).cast(pl.String).str.strip_chars().replace("", None)
    return sorted(str(v) for v in values.drop_nulls().unique().to_list())
