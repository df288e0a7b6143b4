"""The words a laboratory mapping is written in, shared by every part of the package: the
columns a mapping may fill, what a qualifier code may mean, the errors, and how headers and
names are compared.
"""

from __future__ import annotations

from enum import StrEnum

import polars as pl

from sewer_rules.evaluation import OPTIONAL_COLUMNS, REQUIRED_COLUMNS

#: The project's columns, as ``sewer-use check`` reads them.
PROJECT_COLUMNS: tuple[str, ...] = (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
#: The office import's own columns (sewer_office.monitoring.lab_import): the sampling point,
#: the chain of custody, and who took the sample (``sampler``: town or user).
OFFICE_COLUMNS: tuple[str, ...] = (
    "sampling_point",
    "collected_by",
    "relinquished_at",
    "relinquished_by",
    "received_at",
    "received_by",
    "laboratory",
    "sampler",
)
#: The mapping's one column that is not the project's: a CAS Registry Number, read for the
#: parameter when the analyte's name does not resolve.
CAS_COLUMN = "cas_number"
#: Every column a mapping may fill, in the order the mapped frame has them.
TARGETS: tuple[str, ...] = (*PROJECT_COLUMNS, *OFFICE_COLUMNS, CAS_COLUMN)
#: The columns that hold dates and times (read with the mapping's ``date_format``).
DATE_COLUMNS: tuple[str, ...] = ("sampled_at", "analyzed_at", "relinquished_at", "received_at")
#: Columns that come from the file, never from a constant.
NOT_CONSTANT: tuple[str, ...] = (*DATE_COLUMNS, "value", CAS_COLUMN)
#: The town's time zone when a mapping names none: the engine's own default for a jurisdiction
#: without one (sewer_rules.parameters), and Wappinger's.
DEFAULT_TIMEZONE = "America/New_York"
#: ``date_format`` for dates already in ISO 8601: passed to the engine as written (a time
#: without offset is then the jurisdiction's town time, as in the project's own layout).
ISO = "iso"
#: ``qualifiers`` when codes are taken as written, as in the project's own layout.
AS_WRITTEN = "as written"


class Meaning(StrEnum):
    """What a laboratory's qualifier code means to the project."""

    NON_DETECT = "non-detect"  # below the reporting limit: the project's U
    ESTIMATED = "estimated"  # detected, estimated (between detection and reporting limit): J
    BLANK = "blank"  # also found in the method blank: B
    KEEP = "keep"  # a note kept as the laboratory wrote it, no bearing on the evaluation


#: The code the project stores for each meaning (``keep``: the laboratory's own).
WRITTEN: dict[Meaning, str] = {
    Meaning.NON_DETECT: "U",
    Meaning.ESTIMATED: "J",
    Meaning.BLANK: "B",
}

MEANING_HELP: dict[Meaning, str] = {
    Meaning.NON_DETECT: "non-detect (below the reporting limit; stored U)",
    Meaning.ESTIMATED: "estimated (detected below the reporting limit; stored J)",
    Meaning.BLANK: "found in the method blank (stored B)",
    Meaning.KEEP: "a note, kept as written",
}


class MappingError(ValueError):
    """A mapping that cannot be used: each problem names its field."""

    def __init__(self, name: str, problems: list[str]) -> None:
        self.name = name
        self.problems = problems
        super().__init__(f"mapping {name!r}: " + "; ".join(problems))


class FileDoesNotFit(ValueError):
    """A laboratory file the mapping cannot read at all (a column it names is missing, dates
    that are not in its format): the message names the file, the column and the mapping."""


class RowsRefused(ValueError):
    """:meth:`LabMapping.apply` on a file some of whose rows the mapping refuses."""

    def __init__(self, errors: pl.DataFrame) -> None:
        self.errors = errors
        first = errors.row(0, named=True) if errors.height else {}
        super().__init__(
            f"{errors.height} row error(s), the first: row {first.get('row')}, "
            f"field {first.get('field')}: {first.get('message')}"
        )


ERROR_SCHEMA: dict[str, pl.DataType] = {
    "row": pl.Int64(),
    "field": pl.String(),
    "message": pl.String(),
}


def norm(text: str) -> str:
    """A header or an analyte's name as compared: trimmed, lower case, single spaces."""
    return " ".join(text.replace("\ufeff", "").strip().lower().split())


def has_row_numbers(frame: pl.DataFrame) -> bool:
    """Whether a text frame carries its rows' numbers: an integer ``row`` column."""
    return "row" in frame.schema and frame.schema["row"].is_integer()


def file_columns(frame: pl.DataFrame) -> list[str]:
    """The laboratory's own columns of a text frame (all but the rows' numbers)."""
    numbers = "row" if has_row_numbers(frame) else None
    return [c for c in frame.columns if c != numbers]
