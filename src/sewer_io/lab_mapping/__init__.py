"""A laboratory's own file layout read as the project's: one mapping per laboratory.

Laboratories send their results as their own electronic deliverables (EDDs): their own headers
(``Sample ID``, ``Collection Date``, ``Analyte``, ``CAS Number``, ``Result``...), their own date
forms (``03/02/2026 08:00``) and their own qualifier codes. A :class:`LabMapping` says, once per
laboratory, which of its columns holds each of the project's columns
(:data:`~sewer_rules.evaluation.REQUIRED_COLUMNS`, the optional ones, the office's
:data:`OFFICE_COLUMNS`), how its dates are written, what its qualifier codes mean and which
columns it lacks are one constant for the whole file. :meth:`LabMapping.read` turns the
laboratory's text frame into the project's layout, column-wise with polars, keeping the row
numbers of the laboratory's file.

Nothing is guessed: a date is read only in the format the mapping names (``03/02/2026`` is
2 March or 3 February as the mapping says, never as it seems likely), a qualifier code only
when the mapping gives its meaning, and a laboratory column the mapping names but the file
lacks refuses the file. :func:`describe_columns` and :func:`suggest` read a sample file to help
write a mapping; they say what is ambiguous and leave the choice to whoever writes it.

Presets for common layouts are shipped as YAML in ``sewer_io/lab_layouts/`` (:func:`preset`);
the office stores its own mappings as the dictionaries of :meth:`LabMapping.to_dict`. Pure: no
file is opened here but the presets and a mapping file (``sewer_io.check_io`` reads the
laboratory's file).

The parts: :mod:`.vocabulary` (the columns, qualifier meanings, errors), :mod:`.dates` (date
formats checked and read, a sample column's dates told apart), :mod:`.validation` (the
dictionary form checked), :mod:`.mapping` (:class:`LabMapping` and how it reads a file),
:mod:`.files` (presets and mapping files), :mod:`.describe` and :mod:`.suggest` (a sample file
read to help write a mapping).
"""

from .dates import DateReading, check_date_format, date_reading, time_reading
from .describe import ColumnReading, describe_column, describe_columns
from .files import looks_like_file, mapping_from_text, preset, preset_names, read_mapping_file
from .mapping import LabMapping, Mapped
from .suggest import Suggestion, suggest
from .validation import MAX_NAME
from .vocabulary import (
    AS_WRITTEN,
    CAS_COLUMN,
    DATE_COLUMNS,
    DEFAULT_TIMEZONE,
    ISO,
    MEANING_HELP,
    NOT_CONSTANT,
    OFFICE_COLUMNS,
    PROJECT_COLUMNS,
    TARGETS,
    FileDoesNotFit,
    MappingError,
    Meaning,
    RowsRefused,
)

__all__ = [
    "AS_WRITTEN",
    "CAS_COLUMN",
    "DATE_COLUMNS",
    "DEFAULT_TIMEZONE",
    "ISO",
    "MAX_NAME",
    "MEANING_HELP",
    "NOT_CONSTANT",
    "OFFICE_COLUMNS",
    "PROJECT_COLUMNS",
    "TARGETS",
    "ColumnReading",
    "DateReading",
    "FileDoesNotFit",
    "LabMapping",
    "Mapped",
    "MappingError",
    "Meaning",
    "RowsRefused",
    "Suggestion",
    "check_date_format",
    "date_reading",
    "describe_column",
    "describe_columns",
    "looks_like_file",
    "mapping_from_text",
    "preset",
    "preset_names",
    "read_mapping_file",
    "suggest",
    "time_reading",
]
