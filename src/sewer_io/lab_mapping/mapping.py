"""The mapping itself: :class:`LabMapping`, its dictionary form, and how it reads a
laboratory's text frame into the project's layout (:meth:`LabMapping.read`).

The columns that are copied are copied with polars; the ones that are read (dates, parameters,
qualifier codes) are worked on their distinct values and joined back (:func:`_through`), each
giving its value and, beside it, its problem per row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl
import yaml

from sewer_rules.analytes import CAS_NUMBERS, SPELLINGS

from .dates import ISO_DATE, SAMPLE_VALUES, date_reading, distinct_values, parse_format
from .validation import validated
from .vocabulary import (
    AS_WRITTEN,
    CAS_COLUMN,
    DATE_COLUMNS,
    DEFAULT_TIMEZONE,
    ERROR_SCHEMA,
    ISO,
    TARGETS,
    WRITTEN,
    FileDoesNotFit,
    Meaning,
    RowsRefused,
    file_columns,
    has_row_numbers,
    norm,
)

#: The prefix of a read column's problems while a frame is mapped.
_PROBLEM = "\x00problem:"
#: The names of the laboratory's columns a read column is worked from (:func:`_through`).
_KEY = "\x00key"


@dataclass(frozen=True)
class Mapped:
    """A laboratory file read through a mapping: the rows in the project's layout (``row``
    first, the file's line), and the rows the mapping refused, by row, field and message (those
    rows are not in ``frame``)."""

    frame: pl.DataFrame
    errors: pl.DataFrame


@dataclass(frozen=True)
class LabMapping:
    """How one laboratory's file is read (see the package's text and docs/laboratory-files.md).

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
        return cls(**validated(data, name))

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
        present = self._present(frame, source)
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

    def _present(self, frame: pl.DataFrame, source: str) -> dict[str, tuple[str, ...]]:
        """Project column → the file's own headers it is read from (as the file writes them);
        :class:`FileDoesNotFit` when a header the mapping needs is missing."""
        found = _headers(frame, source)
        present: dict[str, tuple[str, ...]] = {}
        for target, headers in self.columns.items():
            actual = [found.get(norm(h)) for h in headers]
            if all(a is not None for a in actual):
                present[target] = tuple(a for a in actual if a is not None)
            elif target not in self.optional:
                missing = next(h for h, a in zip(headers, actual, strict=True) if a is None)
                listed = ", ".join(f"'{c}'" for c in file_columns(frame))
                raise FileDoesNotFit(
                    f"{source}: no column '{missing}' (the mapping '{self.name}' reads {target} "
                    f"from it); the file's columns: {listed}"
                )
        return present

    # --- the columns that are read, not copied (each: its value and its problem per row) -----

    def _dates(
        self, frame: pl.DataFrame, target: str, headers: tuple[str, ...], source: str
    ) -> list[pl.Series]:
        if self.date_format == ISO:
            return [self._iso_dates(frame, target, headers, source)]

        def derive(distinct: pl.DataFrame) -> pl.DataFrame:
            text = _date_text(distinct, tuple(distinct.columns))
            iso, gap = parse_format(text, self.date_format, self.timezone)
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

    def _iso_dates(
        self, frame: pl.DataFrame, target: str, headers: tuple[str, ...], source: str
    ) -> pl.Series:
        """Dates passed to the engine as written; the file refused when none of the column's
        first values is ISO 8601 (a few bad dates among ISO ones are the engine's row errors,
        as without a mapping)."""
        text = _date_text(
            frame.select(headers).unique(maintain_order=True).head(SAMPLE_VALUES), headers
        )
        probe = distinct_values(text)
        if probe.len() and not probe.str.contains(ISO_DATE.pattern).any():
            reading = date_reading(probe)
            hint = (
                f"choose {' or '.join(reading.formats)}"
                if reading.formats
                else "give its date_format"
            )
            named = " + ".join(f"'{h}'" for h in headers)
            raise FileDoesNotFit(
                f"{source}: column {named} ({target}) holds dates like '{probe.item(0)}', "
                f"not ISO 8601, and the mapping '{self.name}' gives no date_format: {hint}"
            )
        if len(headers) == 1:
            return frame.get_column(headers[0]).cast(pl.String).alias(target)
        return _date_text(frame, headers).alias(target)

    def _parameters(
        self, frame: pl.DataFrame, present: Mapping[str, tuple[str, ...]]
    ) -> list[pl.Series]:
        """Each row's project parameter: the name's (the mapping's names first, then the
        project's spellings), else the CAS number's; a name and a CAS number that name two
        analytes refuse the row. A row neither resolves keeps its name (the engine refuses it:
        unknown parameter)."""
        names = {**SPELLINGS, **{norm(k): v for k, v in self.analytes.items()}}
        texts: list[pl.Series] = []  # the name's text, the CAS number's (those present)
        found: list[pl.Series] = []  # the parameter each names
        for target, table in (("parameter", names), (CAS_COLUMN, CAS_NUMBERS)):
            if target not in present:
                continue
            header = present[target][0]
            texts.append(frame.get_column(header).cast(pl.String))

            def derive(distinct: pl.DataFrame, table: Mapping[str, str] = table) -> pl.DataFrame:
                keys = distinct.get_column(distinct.columns[0]).to_list()
                looked_up = [table.get(norm(k)) if k else None for k in keys]
                return distinct.with_columns(pl.Series("found", looked_up, dtype=pl.String))

            found += _through(frame, (header,), derive)
        chosen = pl.select(pl.coalesce(*(pl.lit(s) for s in (*found, *texts)))).to_series()
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
                        pl.lit(texts[0].gather(idx).str.strip_chars()),
                        pl.lit(by_name.gather(idx)),
                        pl.lit(texts[1].gather(idx).str.strip_chars()),
                        pl.lit(by_cas.gather(idx)),
                    )
                ).to_series()
                problem = problem.scatter(idx, words)
        return [chosen.alias("parameter"), problem.alias(_PROBLEM + "parameter")]

    def _qualifiers(self, frame: pl.DataFrame, header: str) -> list[pl.Series]:
        qualifiers = self.qualifiers
        known = ", ".join(sorted(qualifiers)) if qualifiers else "none"

        def code_read(text: str | None) -> tuple[str | None, str | None]:
            """A code as stored, and the problem with it."""
            code = (text or "").strip()
            if not code:
                return None, None
            if qualifiers is None:
                return code, None
            if code in qualifiers:
                return WRITTEN.get(qualifiers[code], code), None
            return None, f"qualifier '{code}' has no meaning in the mapping ({known})"

        def derive(distinct: pl.DataFrame) -> pl.DataFrame:
            read = [code_read(text) for (text,) in distinct.iter_rows()]
            return distinct.with_columns(
                pl.Series("qualifier", [w for w, _ in read], dtype=pl.String),
                pl.Series(_PROBLEM + "qualifier", [p for _, p in read], dtype=pl.String),
            )

        return _through(frame, (header,), derive)


# --- reading helpers --------------------------------------------------------------------------


def _through(
    frame: pl.DataFrame, keys: tuple[str, ...], derive: Callable[[pl.DataFrame], pl.DataFrame]
) -> list[pl.Series]:
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
    if has_row_numbers(frame):
        return frame.with_columns(pl.col("row").cast(pl.Int64))
    return frame.with_row_index("__row", offset=2).select(
        pl.col("__row").cast(pl.Int64).alias("row"), pl.exclude("__row")
    )


def _headers(frame: pl.DataFrame, source: str) -> dict[str, str]:
    """The file's headers by their compared form; a header twice refuses the file."""
    found: dict[str, str] = {}
    for column in file_columns(frame):
        key = norm(column)
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
