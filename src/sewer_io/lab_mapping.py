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

Presets for common layouts are shipped as YAML in ``lab_layouts/`` (:func:`preset`); the
office stores its own mappings as the dictionaries of :meth:`LabMapping.to_dict`. Pure: no
file is opened here but the presets (``sewer_io.check_io`` reads the laboratory's file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import polars as pl
import yaml

from sewer_rules.analytes import (
    CAS_NUMBERS,
    CAS_PATTERN,
    SPELLINGS,
    UnknownAnalyte,
    cas_check_digit_ok,
    resolve,
)
from sewer_rules.evaluation import OPTIONAL_COLUMNS, REQUIRED_COLUMNS
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES
from sewer_rules.units import ALIASES

#: The project's columns, as ``sewer-use check`` reads them.
PROJECT_COLUMNS: tuple[str, ...] = (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
#: The office import's own columns (sewer_office.monitoring.lab_import): the sampling point and
#: the chain of custody.
OFFICE_COLUMNS: tuple[str, ...] = (
    "sampling_point",
    "collected_by",
    "relinquished_at",
    "relinquished_by",
    "received_at",
    "received_by",
    "laboratory",
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
#: What the mapped dates look like: ISO 8601 with the offset in force at the time.
ISO_OUT = "%Y-%m-%dT%H:%M:%S%:z"
MAX_NAME = 80

_ISO_DATE = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$"
)
#: How the engine reads a qualifier as a non-detect (sewer_rules.evaluation.prepare).
_ND_QUALIFIER = re.compile(r"(?i)^(?:u|nd|<)$")
_DIRECTIVE = re.compile(r"%(.)")
_ALLOWED_DIRECTIVES = set("YymbBdeHIMSpz%")


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


@dataclass(frozen=True)
class Mapped:
    """A laboratory file read through a mapping: the rows in the project's layout (``row``
    first, the file's line), and the rows the mapping refused, by row, field and message (those
    rows are not in ``frame``)."""

    frame: pl.DataFrame
    errors: pl.DataFrame


def _norm(text: str) -> str:
    """A header or an analyte's name as compared: trimmed, lower case, single spaces."""
    return " ".join(text.replace("\ufeff", "").strip().lower().split())


@dataclass(frozen=True)
class LabMapping:
    """How one laboratory's file is read (see the module's text and docs/laboratory-files.md).

    ``columns``: project column → the laboratory's header; a date column may name two headers,
    a date and a time, read together. ``optional``: project columns whose header the file may
    lack (as the project's own optional columns). ``analytes``: the laboratory's names (compared
    in lower case) → a project parameter, beside the project's own spellings. ``qualifiers``:
    code (as written, case counts) → :class:`Meaning`; ``None`` reads codes as written, as the
    project's own layout does. ``constants``: project column → one value for every row.
    """

    name: str
    columns: Mapping[str, tuple[str, ...]]
    laboratory: str = ""
    description: str = ""
    date_format: str = ISO
    timezone: str = DEFAULT_TIMEZONE
    analytes: Mapping[str, str] = field(default_factory=dict)
    qualifiers: Mapping[str, Meaning] | None = None
    constants: Mapping[str, str] = field(default_factory=dict)
    optional: tuple[str, ...] = ()

    # --- the dictionary form (YAML, JSON, the office's record) -------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The mapping as plain data: what a YAML or JSON file holds and the office stores."""
        out: dict[str, Any] = {"name": self.name}
        if self.laboratory:
            out["laboratory"] = self.laboratory
        if self.description:
            out["description"] = self.description
        out["columns"] = {
            target: headers[0] if len(headers) == 1 else list(headers)
            for target, headers in self.columns.items()
        }
        if self.optional:
            out["optional"] = list(self.optional)
        out["date_format"] = self.date_format
        out["timezone"] = self.timezone
        if self.analytes:
            out["analytes"] = dict(self.analytes)
        out["qualifiers"] = (
            AS_WRITTEN
            if self.qualifiers is None
            else {code: str(m) for code, m in self.qualifiers.items()}
        )
        if self.constants:
            out["constants"] = dict(self.constants)
        return out

    @classmethod
    def from_dict(cls, data: Any, *, name: str | None = None) -> LabMapping:
        """A mapping from its dictionary, every problem named (:class:`MappingError`)."""
        return _from_dict(data, name)

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True, width=100)

    # --- what the mapping reads ----------------------------------------------------------------

    def read(self, frame: pl.DataFrame, source: str) -> Mapped:
        """The laboratory's text frame (as read, headers as written; an integer ``row`` column
        is kept as the rows' numbers, else the rows are numbered from 2, the header being line
        1) in the project's layout, and the rows the mapping refuses.

        :class:`FileDoesNotFit` when the file lacks a column the mapping names, or its dates
        are not ISO 8601 and the mapping gives no format.

        What is read rather than copied (dates, parameters, qualifier codes) is worked on the
        distinct values of its columns and joined back to the rows: a laboratory repeats a
        sample's time and a few names and codes over many rows, so a million-row file costs a
        few hash passes, not a million parses."""
        frame = _numbered(frame)
        found = _headers(frame, source)
        present: dict[str, tuple[str, ...]] = {}
        for target, headers in self.columns.items():
            actual = [found.get(_norm(h)) for h in headers]
            if all(a is not None for a in actual):
                present[target] = tuple(a for a in actual if a is not None)
            elif target not in self.optional:
                missing = next(h for h, a in zip(headers, actual, strict=True) if a is None)
                raise FileDoesNotFit(
                    f"{source}: no column '{missing}' (the mapping '{self.name}' reads {target} "
                    f"from it); the file's columns: {', '.join(_listed(frame))}"
                )
        copied: list[pl.Expr] = [pl.col("row")]
        read: list[pl.Series] = []
        for target in TARGETS:
            if target in self.constants:
                copied.append(pl.lit(self.constants[target], dtype=pl.String).alias(target))
            elif target in DATE_COLUMNS and target in present:
                read += self._dates(frame, target, present[target], source)
            elif target == "parameter" and ("parameter" in present or CAS_COLUMN in present):
                read += self._parameters(frame, present)
            elif target == "qualifier" and target in present:
                read += self._qualifiers(frame, present[target][0])
            elif target in present and target != CAS_COLUMN:
                copied.append(pl.col(present[target][0]).cast(pl.String).alias(target))
        mapped = frame.select(copied).with_columns(read)
        problems = [c for c in mapped.columns if c.startswith(_PROBLEM)]
        order = ["row", *(t for t in TARGETS if t in mapped.columns)]
        if not problems:
            return Mapped(mapped.select(order), pl.DataFrame(schema=ERROR_SCHEMA))
        errors = pl.concat(
            [
                mapped.filter(pl.col(c).is_not_null()).select(
                    "row",
                    pl.lit(c[len(_PROBLEM) :], dtype=pl.String).alias("field"),
                    pl.col(c).alias("message"),
                )
                for c in problems
            ]
        ).sort("row", maintain_order=True)
        if errors.height:
            mapped = mapped.filter(pl.all_horizontal(pl.col(problems).is_null()))
        return Mapped(mapped.select(order), errors)

    def apply(self, frame: pl.DataFrame, source: str) -> pl.DataFrame:
        """:meth:`read`, all or nothing: :class:`RowsRefused` when any row is refused."""
        mapped = self.read(frame, source)
        if mapped.errors.height:
            raise RowsRefused(mapped.errors)
        return mapped.frame

    # --- the columns that are read, not copied (each: its value and its problem per row) -----

    def _dates(
        self, frame: pl.DataFrame, target: str, headers: tuple[str, ...], source: str
    ) -> list[pl.Series]:
        named = " + ".join(f"'{h}'" for h in headers)
        if self.date_format == ISO:
            text = _date_text(
                frame.select(headers).unique(maintain_order=True).head(SAMPLE_VALUES), headers
            )
            probe = _values(text)
            # Refused as a whole only when none of the column's first values is ISO 8601 (a
            # few bad dates among ISO ones are the engine's row errors, as without a mapping).
            if probe.len() and not probe.str.contains(_ISO_DATE.pattern).any():
                reading = date_reading(probe)
                hint = (
                    f"choose {' or '.join(reading.formats)}"
                    if reading.formats
                    else "give its date_format"
                )
                raise FileDoesNotFit(
                    f"{source}: column {named} ({target}) holds dates like '{probe.item(0)}', "
                    f"not ISO 8601, and the mapping '{self.name}' gives no date_format: {hint}"
                )
            if len(headers) == 1:
                return [frame.get_column(headers[0]).cast(pl.String).alias(target)]
            return [_date_text(frame, headers).alias(target)]

        def derive(distinct: pl.DataFrame) -> pl.DataFrame:
            text = _date_text(distinct, tuple(distinct.columns))
            iso, gap = _parse_format(text, self.date_format, self.timezone)
            bad = text.is_not_null() & iso.is_null()
            problem = pl.select(
                pl.when(pl.lit(bad) & pl.lit(gap))
                .then(
                    pl.format(
                        "'{}' never happened in {} (the clocks moved forward)",
                        pl.lit(text),
                        pl.lit(self.timezone),
                    )
                )
                .when(pl.lit(bad))
                .then(
                    pl.format(
                        "'{}' is not a date in the mapping's format {}",
                        pl.lit(text),
                        pl.lit(self.date_format),
                    )
                )
            ).to_series()
            return distinct.with_columns(iso.alias(target), problem.alias(_PROBLEM + target))

        return _through(frame, headers, derive)

    def _parameters(
        self, frame: pl.DataFrame, present: Mapping[str, tuple[str, ...]]
    ) -> list[pl.Series]:
        """Each row's project parameter: the name's (the mapping's names first, then the
        project's spellings), else the CAS number's; a name and a CAS number that name two
        analytes refuse the row. A row neither resolves keeps its name (the engine refuses it:
        unknown parameter)."""
        names = {**SPELLINGS, **{_norm(k): v for k, v in self.analytes.items()}}
        columns: list[pl.Series] = []  # the name's text, its parameter; the CAS number's
        for target, table in (("parameter", names), (CAS_COLUMN, CAS_NUMBERS)):
            if target not in present:
                continue
            header = present[target][0]
            columns.append(frame.get_column(header).cast(pl.String))

            def derive(distinct: pl.DataFrame, table: Mapping[str, str] = table) -> pl.DataFrame:
                keys = distinct.get_column(distinct.columns[0]).to_list()
                found = [table.get(_norm(k)) if k else None for k in keys]
                return distinct.with_columns(pl.Series("found", found, dtype=pl.String))

            columns += _through(frame, (header,), derive)
        found = columns[1::2]
        chosen = pl.select(
            pl.coalesce(*(pl.lit(f) for f in found), *(pl.lit(t) for t in columns[0::2]))
        ).to_series()
        problem = pl.repeat(None, frame.height, dtype=pl.String, eager=True)
        if len(found) == 2:
            by_name, by_cas = found
            clash = (by_name.is_not_null() & by_cas.is_not_null() & (by_name != by_cas)).fill_null(
                False
            )
            if clash.any():
                idx = clash.arg_true()
                words = pl.select(
                    pl.format(
                        "'{}' is {} but its CAS number {} is {}",
                        pl.lit(columns[0].gather(idx).str.strip_chars()),
                        pl.lit(by_name.gather(idx)),
                        pl.lit(columns[2].gather(idx).str.strip_chars()),
                        pl.lit(by_cas.gather(idx)),
                    )
                ).to_series()
                problem = problem.scatter(idx, words)
        return [chosen.alias("parameter"), problem.alias(_PROBLEM + "parameter")]

    def _qualifiers(self, frame: pl.DataFrame, header: str) -> list[pl.Series]:
        qualifiers = self.qualifiers
        known = ", ".join(sorted(qualifiers)) if qualifiers else "none"

        def derive(distinct: pl.DataFrame) -> pl.DataFrame:
            written: list[str | None] = []
            problems: list[str | None] = []
            for (text,) in distinct.iter_rows():
                code = (text or "").strip()
                if not code:
                    written.append(None)
                    problems.append(None)
                elif qualifiers is None:
                    written.append(code)
                    problems.append(None)
                elif code in qualifiers:
                    written.append(WRITTEN.get(qualifiers[code], code))
                    problems.append(None)
                else:
                    written.append(None)
                    problems.append(f"qualifier '{code}' has no meaning in the mapping ({known})")
            return distinct.with_columns(
                pl.Series("qualifier", written, dtype=pl.String),
                pl.Series(_PROBLEM + "qualifier", problems, dtype=pl.String),
            )

        return _through(frame, (header,), derive)


#: The prefix of a read column's problems while a frame is mapped.
_PROBLEM = "\x00problem:"
#: The names of the laboratory's columns a read column is worked from (:func:`_through`).
_KEY = "\x00key"


# --- reading helpers --------------------------------------------------------------------------


def _through(frame: pl.DataFrame, keys: tuple[str, ...], derive: Any) -> list[pl.Series]:
    """``derive`` (a frame of the distinct values of ``keys``, named :data:`_KEY` 0, 1... →
    the same with its new columns) worked once per distinct value and joined back to every
    row, in the rows' order."""
    names = [f"{_KEY}{i}" for i in range(len(keys))]
    part = frame.select(
        pl.col(k).cast(pl.String).alias(n) for k, n in zip(keys, names, strict=True)
    )
    table = derive(part.unique())
    joined = part.join(table, on=names, how="left", maintain_order="left", nulls_equal=True)
    return [joined.get_column(c) for c in joined.columns if c not in names]


def _numbered(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with its integer ``row`` (kept when given, else the file's lines from 2)."""
    if "row" in frame.columns and frame.schema["row"].is_integer():
        return frame.with_columns(pl.col("row").cast(pl.Int64))
    return frame.with_row_index("__row", offset=2).select(
        pl.col("__row").cast(pl.Int64).alias("row"), pl.exclude("__row")
    )


def _listed(frame: pl.DataFrame) -> list[str]:
    return [f"'{c}'" for c in frame.columns if not (c == "row" and frame.schema[c].is_integer())]


def _headers(frame: pl.DataFrame, source: str) -> dict[str, str]:
    """The file's headers by their compared form; a header twice refuses the file."""
    found: dict[str, str] = {}
    for column in frame.columns:
        if column == "row" and frame.schema[column].is_integer():
            continue
        key = _norm(column)
        if key in found:
            raise FileDoesNotFit(f"{source}: the column '{column.strip()}' appears twice")
        found[key] = column
    return found


def _date_text(frame: pl.DataFrame, headers: tuple[str, ...]) -> pl.Series:
    """A date column's text (a date and a time column joined by a space), trimmed, null when
    empty."""
    parts = [
        frame.get_column(h).cast(pl.String).str.strip_chars().replace("", None) for h in headers
    ]
    if len(parts) == 1:
        return parts[0]
    date, time = parts
    return pl.select(
        pl.when(pl.lit(date).is_null())
        .then(pl.lit(None, dtype=pl.String))
        .when(pl.lit(time).is_null())
        .then(pl.lit(date))
        .otherwise(pl.concat_str([pl.lit(date), pl.lit(time)], separator=" "))
    ).to_series()


def date_only(fmt: str) -> str | None:
    """The date part of a format that also has a time (``%m/%d/%Y %H:%M`` → ``%m/%d/%Y``):
    a value with no time is read as midnight, as the engine reads ``2026-03-02``."""
    directives = _DIRECTIVE.findall(fmt)
    if not any(d in "HIMSp" for d in directives):
        return None
    cut = re.search(r"[ T]+%[HI]", fmt)
    return fmt[: cut.start()] if cut else None


def _parse_format(text: pl.Series, fmt: str, tz: str) -> tuple[pl.Series, pl.Series]:
    """Texts in ``fmt`` → ISO 8601 with offset (null when not in the format, or a local time
    that does not exist), and whether each null is such a time."""
    aware = "%z" in fmt
    dtype = pl.Datetime("us", "UTC") if aware else pl.Datetime("us")
    naive = text.str.strptime(dtype, fmt, strict=False, cache=False)
    short = date_only(fmt)
    if short is not None:
        alone = text.str.strptime(pl.Datetime("us"), short, strict=False, cache=False)
        if aware:
            alone = alone.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
            alone = alone.dt.convert_time_zone("UTC")
        naive = naive.fill_null(alone)
    if aware:
        local = naive.dt.convert_time_zone(tz)
        return local.dt.strftime(ISO_OUT), pl.repeat(False, text.len(), eager=True)
    local = naive.dt.replace_time_zone(tz, ambiguous="earliest", non_existent="null")
    gap = (naive.is_not_null() & local.is_null()).fill_null(False)
    return local.dt.strftime(ISO_OUT), gap


# --- the dictionary form, validated ------------------------------------------------------------

_KEYS = (
    "name",
    "laboratory",
    "description",
    "columns",
    "optional",
    "date_format",
    "timezone",
    "analytes",
    "qualifiers",
    "constants",
)


def _text_value(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) else None


def check_date_format(fmt: str) -> str:
    """ "" when ``fmt`` reads a date (and time) unambiguously, else what is wrong with it.

    Only the directives of dates and times are allowed; a year, a month and a day are needed;
    a 12-hour clock needs ``%p``. The format is tried on a date whose day, month and hour
    cannot be taken one for another (23 November 2026, 17:45)."""
    directives = _DIRECTIVE.findall(fmt)
    odd = sorted({d for d in directives if d not in _ALLOWED_DIRECTIVES})
    if odd:
        return f"'{fmt}': %{', %'.join(odd)} is not a directive of a date or time"
    if not fmt.strip() or not directives:
        return f"'{fmt}' is not a date format (e.g. %m/%d/%Y %H:%M)"
    if not ({"Y", "y"} & set(directives)):
        return f"'{fmt}' has no year (%Y)"
    if not ({"m", "b", "B"} & set(directives)):
        return f"'{fmt}' has no month (%m)"
    if not ({"d", "e"} & set(directives)):
        return f"'{fmt}' has no day (%d)"
    if "I" in directives and "p" not in directives:
        return f"'{fmt}' has a 12-hour clock (%I) without AM/PM (%p)"
    sample = datetime(2026, 11, 23, 17, 45, 39, tzinfo=timezone(timedelta(hours=-5)))
    text = sample.strftime(fmt)
    dtype = pl.Datetime("us", "UTC") if "%z" in fmt else pl.Datetime("us")
    parsed = pl.Series([text]).str.strptime(dtype, fmt, strict=False).item()
    if parsed is None:
        return f"'{fmt}' cannot read its own dates ({text})"
    local = parsed.astimezone(sample.tzinfo) if parsed.tzinfo else parsed
    if (local.year, local.month, local.day) != (2026, 11, 23):
        return f"'{fmt}' reads {text} as {local:%Y-%m-%d}"
    if ({"H", "I"} & set(directives)) and (local.hour, local.minute) != (17, 45):
        return f"'{fmt}' reads {text} at {local:%H:%M}"
    return ""


def _from_dict(data: Any, name: str | None) -> LabMapping:
    label = name or (data.get("name") if isinstance(data, dict) else None) or "(unnamed)"
    problems: list[str] = []
    if not isinstance(data, dict):
        raise MappingError(str(label), ["a mapping is a dictionary of its fields"])
    for key in data:
        if key not in _KEYS:
            problems.append(f"unknown field '{key}' (fields: {', '.join(_KEYS)})")
    mapping_name = _text_value(data.get("name", name or ""))
    if name is not None:
        mapping_name = name.strip()
    if not mapping_name:
        problems.append("name: missing")
    elif len(mapping_name) > MAX_NAME:
        problems.append(f"name: longer than {MAX_NAME} characters")
    elif any(ord(c) < 32 for c in mapping_name):
        problems.append("name: holds a control character")
    texts: dict[str, str] = {}
    for key in ("laboratory", "description"):
        value = data.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            problems.append(f"{key}: text expected")
        texts[key] = value.strip() if isinstance(value, str) else ""

    columns = _columns(data.get("columns"), problems)
    optional = _optional(data.get("optional"), problems)
    constants = _constants(data.get("constants"), problems)
    for target in sorted(set(columns) & set(constants), key=TARGETS.index):
        problems.append(f"{target}: both a column and a constant (choose one)")
    for target in REQUIRED_COLUMNS:
        if target in columns or target in constants:
            continue
        if target == "parameter" and CAS_COLUMN in columns:
            continue
        source = "a column" if target in NOT_CONSTANT else "a column or a constant"
        problems.append(f"{target}: required, the mapping must give {source}")
    for target in optional:
        if target in REQUIRED_COLUMNS or (target == CAS_COLUMN and "parameter" not in columns):
            problems.append(f"optional: {target} is required, its column cannot be optional")
        elif target not in columns:
            problems.append(f"optional: {target} is not one of the mapping's columns")

    date_format = data.get("date_format", ISO)
    if not isinstance(date_format, str) or not date_format.strip():
        problems.append("date_format: 'iso' or a format such as %m/%d/%Y %H:%M")
        date_format = ISO
    elif date_format.strip().lower() == ISO:
        date_format = ISO
    elif wrong := check_date_format(date_format.strip()):
        problems.append(f"date_format: {wrong}")
    else:
        date_format = date_format.strip()
    tz = data.get("timezone", DEFAULT_TIMEZONE) or DEFAULT_TIMEZONE
    if not isinstance(tz, str):
        problems.append("timezone: a time zone name such as America/New_York")
        tz = DEFAULT_TIMEZONE
    else:
        try:
            ZoneInfo(tz.strip())
        except (ZoneInfoNotFoundError, ValueError):
            problems.append(f"timezone: '{tz}' is not a time zone (e.g. America/New_York)")
        tz = tz.strip()

    analytes = _analytes(data.get("analytes"), problems)
    qualifiers = _qualifiers(data.get("qualifiers", AS_WRITTEN), problems)
    if problems:
        raise MappingError(str(mapping_name or label), problems)
    return LabMapping(
        name=str(mapping_name),
        laboratory=texts["laboratory"],
        description=texts["description"],
        columns=columns,
        optional=optional,
        date_format=date_format,
        timezone=tz,
        analytes=analytes,
        qualifiers=qualifiers,
        constants=constants,
    )


def _columns(value: Any, problems: list[str]) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict) or not value:
        problems.append("columns: a dictionary of project column → the laboratory's header")
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for target, header in value.items():
        if target not in TARGETS:
            problems.append(f"columns: '{target}' is not a project column ({', '.join(TARGETS)})")
            continue
        headers = header if isinstance(header, list) else [header]
        texts = [_text_value(h) for h in headers]
        if not texts or any(not t for t in texts):
            problems.append(f"columns.{target}: the laboratory's header (text) expected")
            continue
        if len(texts) > 2 or (len(texts) == 2 and target not in DATE_COLUMNS):
            problems.append(
                f"columns.{target}: one header (two, a date and a time, only for "
                f"{', '.join(DATE_COLUMNS)})"
            )
            continue
        if len(texts) == 2 and _norm(texts[0] or "") == _norm(texts[1] or ""):
            problems.append(f"columns.{target}: the date and the time are the same column")
            continue
        out[target] = tuple(t for t in texts if t)
    return dict(sorted(out.items(), key=lambda kv: TARGETS.index(kv[0])))


def _optional(value: Any, problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append("optional: a list of project columns")
        return ()
    return tuple(sorted(set(value), key=lambda t: TARGETS.index(t) if t in TARGETS else 99))


def _constants(value: Any, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append("constants: a dictionary of project column → value")
        return {}
    out: dict[str, str] = {}
    for target, constant in value.items():
        if target not in TARGETS or target in NOT_CONSTANT:
            allowed = [t for t in TARGETS if t not in NOT_CONSTANT]
            problems.append(
                f"constants: '{target}' cannot be a constant (possible: {', '.join(allowed)})"
            )
            continue
        text = _text_value(constant)
        if not text:
            problems.append(f"constants.{target}: a text (quote it in YAML) expected")
            continue
        if target == "sample_type" and text.lower() not in SAMPLE_TYPES:
            problems.append(
                f"constants.sample_type: '{text}' is not one of {', '.join(SAMPLE_TYPES)}"
            )
            continue
        if target == "parameter":
            try:
                text = resolve(text).name
            except UnknownAnalyte as e:
                problems.append(f"constants.parameter: {e}")
                continue
        out[target] = text.lower() if target == "sample_type" else text
    return dict(sorted(out.items(), key=lambda kv: TARGETS.index(kv[0])))


def _analytes(value: Any, problems: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append("analytes: a dictionary of the laboratory's name → project parameter")
        return {}
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for lab_name, parameter in value.items():
        lab = _text_value(lab_name)
        if not lab:
            problems.append(f"analytes: '{lab_name}' is not a name (quote it in YAML)")
            continue
        if _norm(lab) in seen:
            problems.append(f"analytes: '{lab}' and '{seen[_norm(lab)]}' are the same name")
            continue
        seen[_norm(lab)] = lab
        try:
            out[lab] = resolve(str(parameter)).name
        except UnknownAnalyte:
            problems.append(f"analytes.{lab}: '{parameter}' is not a project parameter")
    return out


def _qualifiers(value: Any, problems: list[str]) -> dict[str, Meaning] | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == AS_WRITTEN):
        return None
    if not isinstance(value, dict):
        problems.append(f"qualifiers: '{AS_WRITTEN}' or a dictionary of code → meaning")
        return None
    out: dict[str, Meaning] = {}
    meanings = ", ".join(str(m) for m in Meaning)
    for code, meaning in value.items():
        text = _text_value(code)
        if not text:
            problems.append(f"qualifiers: '{code}' is not a code (quote it in YAML: 'N', 'Y')")
            continue
        try:
            chosen = Meaning(str(meaning).strip().lower())
        except ValueError:
            problems.append(f"qualifiers.{text}: '{meaning}' is not a meaning ({meanings})")
            continue
        if chosen == Meaning.KEEP and _ND_QUALIFIER.match(text):
            problems.append(
                f"qualifiers.{text}: the project reads '{text}' as a non-detect; it cannot be "
                "kept as written"
            )
            continue
        out[text] = chosen
    return out


# --- files and presets ----------------------------------------------------------------------

LAYOUTS = "lab_layouts"


def preset_names() -> list[str]:
    """The names of the mappings shipped with the project (``lab_layouts/*.yaml``)."""
    folder = resources.files("sewer_io").joinpath(LAYOUTS)
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def preset(name: str) -> LabMapping:
    """A shipped mapping by its name (:class:`KeyError` when there is none)."""
    if name not in preset_names():
        raise KeyError(name)
    text = resources.files("sewer_io").joinpath(LAYOUTS, f"{name}.yaml").read_text("utf-8")
    return LabMapping.from_dict(yaml.safe_load(text), name=name)


def mapping_from_text(text: str, source: str) -> LabMapping:
    """A mapping written as YAML or JSON (JSON is YAML); :class:`MappingError` when unusable."""
    try:
        data = json.loads(text) if source.lower().endswith(".json") else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as e:
        raise MappingError(source, [f"unreadable: {str(e).splitlines()[0]}"]) from None
    return LabMapping.from_dict(data)


MAPPING_SUFFIXES = (".yaml", ".yml", ".json")


def looks_like_file(spec: str) -> bool:
    """Whether a ``--mapping`` argument names a file (a mapping file's suffix, or a path)."""
    return spec.lower().endswith(MAPPING_SUFFIXES) or "/" in spec or "\\" in spec


def read_mapping_file(path: str | Path) -> LabMapping:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MappingError(
            str(p), [f"cannot be read: {getattr(e, 'strerror', None) or e}"]
        ) from None
    return mapping_from_text(text, str(p))


# --- reading a sample file: what each column holds ------------------------------------------------

#: Date forms tried on a sample column (the ISO form is recognised apart).
DATE_PARTS = (
    "%m/%d/%Y",
    "%d/%m/%Y",
    "%m/%d/%y",
    "%d/%m/%y",
    "%Y/%m/%d",
    "%m-%d-%Y",
    "%d-%m-%Y",
    "%d.%m.%Y",
    "%d-%b-%Y",
    "%d-%b-%y",
    "%d %b %Y",
    "%b %d, %Y",
    "%Y%m%d",
)
TIME_PARTS = (" %H:%M", " %H:%M:%S", " %I:%M %p", " %I:%M:%S %p")
TIME_FORMATS = ("%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M:%S %p", "%H%M")
_SWAPPED = {"%m/%d": "%d/%m", "%d/%m": "%m/%d", "%m-%d": "%d-%m", "%d-%m": "%m-%d"}
#: Distinct values of a column read to describe it (a sample file is small; a large one is
#: described by its first distinct values).
SAMPLE_VALUES = 2000


@dataclass(frozen=True)
class DateReading:
    """How a column's dates can be read: the formats that read every value (two when day and
    month can be taken one for the other), and the value that shows it."""

    formats: tuple[str, ...]
    iso: bool = False
    example: str = ""

    @property
    def ambiguous(self) -> bool:
        return len(self.formats) > 1

    def question(self) -> str:
        if not self.ambiguous:
            return ""
        first, second = (_read(self.example, f) for f in self.formats[:2])
        return f"{self.example} could be {first} or {second}: choose {' or '.join(self.formats)}"


def _read(text: str, fmt: str) -> str:
    value = pl.Series([text]).str.strptime(pl.Datetime("us"), fmt, strict=False).item()
    if value is None:
        short = date_only(fmt)
        value = (
            pl.Series([text]).str.strptime(pl.Datetime("us"), short, strict=False).item()
            if short
            else None
        )
    return f"{value.day} {value:%B}" if value is not None else "?"


def _values(values: pl.Series) -> pl.Series:
    text = values.cast(pl.String).str.strip_chars().replace("", None).drop_nulls()
    return text.unique(maintain_order=True).head(SAMPLE_VALUES)


def date_reading(values: pl.Series) -> DateReading:
    """The formats that read every non-empty value of a column as a date (and time).

    ISO 8601 is recognised as such. Otherwise each common form (:data:`DATE_PARTS` with or
    without :data:`TIME_PARTS`) is tried: a form reads the column when it reads every value
    (a value without its time as midnight), a four-digit year being one after 1900. When both
    a month-first and a day-first form read it, the reading is ambiguous: both are given,
    with a value that shows it."""
    text = _values(values)
    if text.len() == 0:
        return DateReading(())
    if text.str.contains(_ISO_DATE.pattern).all():
        return DateReading((ISO,), iso=True, example=str(text.item(0)))
    found: list[str] = []
    for part in DATE_PARTS:
        alone = text.str.strptime(pl.Datetime("us"), part, strict=False, cache=False)
        if "%Y" in part:
            alone = pl.select(
                pl.when(pl.lit(alone).dt.year() >= 1900).then(pl.lit(alone))
            ).to_series()
        if alone.is_not_null().all():
            found.append(part)
            continue
        for time in TIME_PARTS:
            full = text.str.strptime(pl.Datetime("us"), part + time, strict=False, cache=False)
            if "%Y" in part:
                full = pl.select(
                    pl.when(pl.lit(full).dt.year() >= 1900).then(pl.lit(full))
                ).to_series()
            if full.is_not_null().any() and (full.is_not_null() | alone.is_not_null()).all():
                found.append(part + time)
    if not found:
        return DateReading(())
    # A day and month that can be swapped: shown on a value whose day and month differ and
    # both could be a month (the first such, else the first value).
    example = str(text.item(0))
    if len(found) > 1:
        first = pl.select(
            pl.lit(text)
            .str.extract(r"^(\d{1,2})[/.-](\d{1,2})[/.-]", 1)
            .cast(pl.Int32, strict=False)
            .alias("a"),
            pl.lit(text)
            .str.extract(r"^(\d{1,2})[/.-](\d{1,2})[/.-]", 2)
            .cast(pl.Int32, strict=False)
            .alias("b"),
        )
        shows = (
            (first.get_column("a") != first.get_column("b"))
            & (first.get_column("a") <= 12)
            & (first.get_column("b") <= 12)
        )
        shown = text.filter(shows.fill_null(False))
        if shown.len():
            example = str(shown.item(0))
    return DateReading(tuple(found), example=example)


def time_reading(values: pl.Series) -> tuple[str, ...]:
    """The formats that read every non-empty value of a column as a time of day alone."""
    text = _values(values)
    if text.len() == 0:
        return ()
    out = []
    for fmt in TIME_FORMATS:
        if text.str.strptime(pl.Time, fmt, strict=False, cache=False).is_not_null().all():
            out.append(fmt)
    return tuple(out)


@dataclass(frozen=True)
class ColumnReading:
    """What one column of a sample file holds, in words, and what it could be mapped to."""

    header: str
    kind: (
        str  # empty, dates, times, cas, parameters, qualifiers, numbers, units, sample types, text
    )
    text: str
    examples: tuple[str, ...] = ()
    dates: DateReading | None = None
    times: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    target: str = ""  # the project column its header suggests ("" when none)


#: Header words that suggest a project column (compared trimmed, lower case, single spaces).
HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "sample_id": (
        "sample id",
        "sample_id",
        "sample",
        "client sample id",
        "sample name",
        "field sample id",
        "sys_sample_code",
        "sample number",
        "sample no",
        "client id",
    ),
    "sampled_at": (
        "collection date",
        "sampled_at",
        "sample date",
        "date sampled",
        "sampled",
        "collected",
        "collection datetime",
        "sample_date",
        "date collected",
        "collect date",
        "collection date/time",
        "sample date/time",
    ),
    "sample_type": ("sample type", "sample_type", "collection type", "grab/composite", "type"),
    "parameter": (
        "analyte",
        "parameter",
        "chemical name",
        "analyte name",
        "compound",
        "test",
        "chemical",
        "parameter name",
        "analyte_name",
    ),
    CAS_COLUMN: (
        "cas",
        "cas number",
        "cas no",
        "cas no.",
        "cas #",
        "cas_rn",
        "casrn",
        "cas rn",
        "cas_number",
    ),
    "value": (
        "result",
        "result value",
        "value",
        "concentration",
        "result_value",
        "reported result",
    ),
    "unit": ("units", "unit", "result units", "result_unit", "result unit", "reporting units"),
    "qualifier": (
        "qualifier",
        "lab qualifier",
        "flag",
        "qualifiers",
        "result qualifier",
        "lab_qualifiers",
        "q",
        "lab flag",
        "data qualifier",
    ),
    "reporting_limit": (
        "reporting limit",
        "reporting_limit",
        "rl",
        "pql",
        "mrl",
        "quantitation limit",
        "reporting_detection_limit",
        "report limit",
    ),
    "analyzed_at": (
        "analysis date",
        "analyzed_at",
        "analyzed",
        "date analyzed",
        "analyzed date",
        "analysis_date",
        "analysis date/time",
        "date of analysis",
    ),
    "method": (
        "method",
        "analysis method",
        "analytical method",
        "test method",
        "lab_anl_method_name",
    ),
    "facility": ("facility", "facility code", "facility id", "site", "site id", "site code"),
    "sampling_point": (
        "sampling point",
        "sampling_point",
        "sample point",
        "sys_loc_code",
        "location code",
        "location",
        "outfall",
    ),
    "laboratory": ("laboratory", "lab", "lab name", "lab_name_code"),
    "collected_by": ("collected by", "collected_by", "sampler", "sampled by"),
    "received_at": ("received", "received_at", "date received", "receipt date", "received date"),
    "received_by": ("received by", "received_by"),
    "relinquished_at": ("relinquished", "relinquished_at", "date relinquished"),
    "relinquished_by": ("relinquished by", "relinquished_by"),
    "source": ("source", "water source"),
}
_TIME_WORDS = ("collection time", "sample time", "time sampled", "time collected", "collect time")
_BY_WORD = {w: target for target, words in HEADER_WORDS.items() for w in words}


def _examples(text: pl.Series, n: int = 4) -> tuple[str, ...]:
    return tuple(str(v) for v in text.head(n).to_list())


def describe_column(header: str, values: pl.Series) -> ColumnReading:
    """What a column of a sample file holds, read from its values (and its header only for
    what cannot be told apart from the values: qualifier codes, a date's time column)."""
    text = _values(values)
    target = _BY_WORD.get(_norm(header), "")
    if text.len() == 0:
        return ColumnReading(header, "empty", "empty", target=target)
    examples = _examples(text)
    if text.str.contains(CAS_PATTERN.pattern).all():
        known = [f"{v} → {CAS_NUMBERS[v]}" for v in text.to_list() if v in CAS_NUMBERS]
        unknown = [v for v in text.to_list() if v not in CAS_NUMBERS]
        wrong = [v for v in unknown if not cas_check_digit_ok(v)]
        parts = [", ".join(known[:8]) + (" ..." if len(known) > 8 else "")] if known else []
        if unknown:
            parts.append(f"not a project parameter: {', '.join(unknown[:6])}")
        if wrong:
            parts.append(f"wrong check digit: {', '.join(wrong[:6])}")
        return ColumnReading(
            header, "cas", "CAS numbers: " + "; ".join(parts), examples, target=CAS_COLUMN
        )
    dates = date_reading(text)
    if dates.formats:
        if dates.iso:
            words = f"dates, ISO 8601: {dates.example}"
        elif dates.ambiguous:
            words = f"dates, ambiguous: {dates.question()}"
        else:
            words = f"dates, {dates.formats[0]}: {dates.example}"
        return ColumnReading(header, "dates", words, examples, dates=dates, target=target)
    times = time_reading(text)
    if times:
        time_target = "sampled_at" if _norm(header) in _TIME_WORDS else ""
        return ColumnReading(
            header,
            "times",
            f"times of day, {' or '.join(times)}: {examples[0]}",
            examples,
            times=times,
            target=time_target,
        )
    distinct = text.to_list()
    resolved = {v: SPELLINGS.get(_norm(v)) for v in distinct}
    if sum(1 for r in resolved.values() if r) * 2 >= len(distinct) and target not in (
        "sample_id",
        "method",
        "unit",
    ):
        named = [f"{v} → {r}" for v, r in resolved.items() if r]
        unknown = [v for v, r in resolved.items() if not r]
        words = "parameters: " + ", ".join(named[:8]) + (" ..." if len(named) > 8 else "")
        if unknown:
            words += f"; not known: {', '.join(unknown[:6])}"
        return ColumnReading(header, "parameters", words, examples, target=target or "parameter")
    units = {v: ALIASES.get(_norm(v)) for v in distinct}
    if all(units.values()):
        words = "units: " + ", ".join(
            f"{v} → {u}" if v != u else v for v, u in list(units.items())[:8]
        )
        return ColumnReading(header, "units", words, examples, target=target or "unit")
    if all(v.lower() in SAMPLE_TYPES for v in distinct):
        return ColumnReading(
            header,
            "sample types",
            f"sample types: {', '.join(distinct)}",
            examples,
            target=target or "sample_type",
        )
    numbers = text.str.replace(r"^<\s*", "").cast(pl.Float64, strict=False)
    if numbers.is_not_null().all() or (
        numbers.is_not_null().sum() * 2 >= text.len() and target == "value"
    ):
        return ColumnReading(
            header, "numbers", f"numbers: {', '.join(examples)}", examples, target=target
        )
    codes = tuple(sorted(distinct))
    if target == "qualifier" or (
        not target and len(codes) <= 12 and all(len(c) <= 4 for c in codes)
    ):
        return ColumnReading(
            header,
            "qualifiers",
            f"qualifier codes: {', '.join(codes)}",
            examples,
            codes=codes,
            target=target or "qualifier",
        )
    more = f" ({text.len()}{'+' if text.len() >= SAMPLE_VALUES else ''} distinct)"
    return ColumnReading(
        header, "text", f"text{more}: {', '.join(examples)}", examples, target=target
    )


def describe_columns(frame: pl.DataFrame) -> list[ColumnReading]:
    """Each column of a sample file (a text frame, headers as written) and what it holds."""
    return [
        describe_column(c, frame.get_column(c))
        for c in frame.columns
        if not (c == "row" and frame.schema[c].is_integer())
    ]


#: What the usual qualifier codes are taken to mean in a suggestion (the mapping's writer
#: confirms or changes each; a code not listed here is left to choose).
USUAL_CODES: dict[str, Meaning] = {
    "U": Meaning.NON_DETECT,
    "ND": Meaning.NON_DETECT,
    "<": Meaning.NON_DETECT,
    "UJ": Meaning.NON_DETECT,
    "J": Meaning.ESTIMATED,
    "B": Meaning.BLANK,
}


@dataclass(frozen=True)
class Suggestion:
    """A first draft of a mapping for a sample file: ``draft`` (the dictionary form, with what
    the headers and values suggest) and ``questions``, what only the mapping's writer can
    answer (an ambiguous date, a code without a usual meaning, a required column not found)."""

    readings: list[ColumnReading]
    draft: dict[str, Any]
    questions: list[str]


def suggest(frame: pl.DataFrame, name: str = "") -> Suggestion:
    """A draft mapping for a sample file, never a decision: every choice is shown to be
    confirmed, and what is ambiguous stays open (no ``date_format`` is chosen for dates that
    read two ways)."""
    readings = describe_columns(frame)
    columns: dict[str, Any] = {}
    questions: list[str] = []
    for reading in readings:
        if reading.target and reading.target not in columns and reading.kind != "times":
            columns[reading.target] = reading.header
    time_col = next((r for r in readings if r.kind == "times" and r.target == "sampled_at"), None)
    date_col = next((r for r in readings if r.header == columns.get("sampled_at")), None)
    date_format: str | None = ISO
    date_readings = [r for r in readings if r.dates and r.header in _values_of(columns)]
    if time_col is not None and date_col is not None and date_col.dates is not None:
        columns["sampled_at"] = [date_col.header, time_col.header]
    formats: set[str] = set()
    # another date column that reads one way only tells which way the laboratory writes dates:
    # said beside the question, not chosen
    settled = {
        r.header: r.dates.formats[0]
        for r in readings
        if r.dates is not None and len(r.dates.formats) == 1 and not r.dates.iso
    }
    for reading in date_readings:
        assert reading.dates is not None
        if reading.dates.ambiguous:
            hints = [
                f"the column '{header}' reads only as {fmt}"
                for header, fmt in settled.items()
                if any(_date_part(fmt) == _date_part(f) for f in reading.dates.formats)
            ]
            more = f" ({'; '.join(hints)})" if hints else ""
            questions.append(f"{reading.header}: {reading.dates.question()}{more}")
            date_format = None
        elif not reading.dates.iso:
            fmt = reading.dates.formats[0]
            if time_col is not None and reading is date_col and time_col.times:
                fmt = f"{fmt} {time_col.times[0]}"
            formats.add(fmt)
    if date_format is not None and formats:
        if len(formats) == 1:
            date_format = formats.pop()
        else:
            questions.append(
                f"the dates are written in several forms ({', '.join(sorted(formats))}): one "
                "mapping reads one form"
            )
            date_format = None
    qualifiers: dict[str, str] = {}
    for reading in readings:
        if reading.header == columns.get("qualifier"):
            for code in reading.codes:
                if code in USUAL_CODES:
                    qualifiers[code] = str(USUAL_CODES[code])
                else:
                    questions.append(f"{reading.header}: what does the code '{code}' mean?")
    for target in REQUIRED_COLUMNS:
        if target not in columns and not (target == "parameter" and CAS_COLUMN in columns):
            questions.append(f"{target}: no column found: choose one, or give a constant")
    draft: dict[str, Any] = {"name": name, "columns": columns}
    if date_format is not None:
        draft["date_format"] = date_format
    draft["timezone"] = DEFAULT_TIMEZONE
    draft["qualifiers"] = qualifiers if "qualifier" in columns else AS_WRITTEN
    return Suggestion(readings, draft, questions)


def _date_part(fmt: str) -> str:
    return date_only(fmt) or fmt


def _values_of(columns: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for value in columns.values():
        out |= set(value) if isinstance(value, list) else {value}
    return out
