"""A facility's own limits — the conditions of its approval — as records the rules read.

An industrial user's written approval (§ 196-16 E) can carry its own limits (DOMAIN.md):
instantaneous minimum/maximum (every result), daily maximum (the day's value: the mean of the
day's results) and monthly average (the sum of the daily values in the month ÷ days measured).
Categorical standards (§ 196-19 K) enter the same way. How each is applied is
:mod:`.permit_conditions`; this module reads and validates the limits themselves.

Limits file (CSV) columns: ``facility, parameter, limit_type, value, unit`` required;
``effective_from, effective_to, permit_id, citation`` optional. ``limit_type`` is one of
``daily_maximum``, ``monthly_average``, ``instantaneous_minimum``, ``instantaneous_maximum``.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from sewer_rules.analytes import UnknownAnalyte, resolve
from sewer_rules.citations import Citation, CitationError, cite
from sewer_rules.units import UnitError, convert, format_decimal, parse_unit

if TYPE_CHECKING:  # the table form is for the engines, built only when one asks for it
    import polars as pl

LIMIT_TYPES = ("daily_maximum", "monthly_average", "instantaneous_minimum", "instantaneous_maximum")
REQUIRED = ("facility", "parameter", "limit_type", "value", "unit")
DEFAULT_CITATION = "§ 196-16 E"
FAR_FUTURE = date(9999, 12, 31)
#: At most this many places in a limit's value in its analyte's canonical unit: a result of any
#: precision then compares with it exactly in the engines' fixed-scale decimals.
LIMIT_PLACES = 19


class PermitLimitError(ValueError):
    """A limits file that cannot be used; the message names the file, row and field."""


@dataclass(frozen=True)
class PermitLimit:
    """One condition of an approval: a limit of one kind on one analyte at one facility, in
    force from ``valid_from`` to ``valid_to`` (both days included)."""

    facility: str
    analyte: str
    limit_type: str
    #: The limit in the analyte's canonical unit, exactly.
    value: Fraction
    #: The limit as the approval writes it: its number and unit.
    text: str
    unit: str
    valid_from: date
    valid_to: date
    permit_id: str
    citation: Citation

    def in_force(self, facility: str | None, analyte: str, day: date) -> bool:
        """Whether this limit governs a result of ``analyte`` at ``facility`` on ``day``."""
        return (
            self.facility == facility
            and self.analyte == analyte
            and self.valid_from <= day <= self.valid_to
        )


@dataclass(frozen=True)
class PermitLimits:
    """Every limit of a limits file (or of the office's approvals), validated together."""

    limits: tuple[PermitLimit, ...]
    source: str = ""

    @classmethod
    def from_records(cls, records: list[dict[str, str]], source: str = "limits") -> PermitLimits:
        """Validate limit records (text fields as in the CSV); all or nothing."""
        problems: list[str] = []
        out = []
        for i, rec in enumerate(records, start=2):
            rec = {k.strip().lower(): (v or "").strip() for k, v in rec.items() if k}
            try:
                out.append(read_limit(rec))
            except PermitLimitError as e:
                problems.append(f"{source}: row {i}: {e}")
        if problems:
            raise PermitLimitError("\n".join(problems))
        _check_overlaps(out, source)
        return cls(tuple(out), source)

    @classmethod
    def from_csv(cls, path: str | Path) -> PermitLimits:
        p = Path(path)
        try:
            with p.open(newline="", encoding="utf-8-sig") as fh:
                reader = csv.DictReader(fh)
                columns = [c.strip().lower() for c in reader.fieldnames or []]
                records = [dict(r) for r in reader]
        except (OSError, UnicodeDecodeError, csv.Error) as e:
            raise PermitLimitError(f"{p}: cannot read the limits file: {e}") from None
        missing = [c for c in REQUIRED if c not in columns]
        if missing:
            raise PermitLimitError(f"{p}: missing required column '{missing[0]}'")
        return cls.from_records(records, str(p))

    @cached_property
    def table(self) -> pl.DataFrame:
        """The same limits as one table, for the engines (``lim`` is the canonical value as
        decimal text)."""
        import polars as pl

        rows = [
            (
                lim.facility,
                lim.analyte,
                lim.limit_type,
                format_decimal(lim.value),
                lim.text,
                lim.unit,
                lim.valid_from,
                lim.valid_to,
                lim.permit_id,
                str(lim.citation),
            )
            for lim in self.limits
        ]
        types = [pl.String] * 6 + [pl.Date, pl.Date, pl.String, pl.String]
        schema = dict(zip(LIMIT_COLUMNS, types, strict=True))
        return pl.DataFrame(rows, schema=schema, orient="row")


#: The columns of :attr:`PermitLimits.table`.
LIMIT_COLUMNS = (
    "facility",
    "analyte",
    "limit_type",
    "lim",
    "lim_text",
    "lim_unit",
    "valid_from",
    "valid_to",
    "permit_id",
    "permit_citation",
)


def read_limit(rec: dict[str, str]) -> PermitLimit:
    """One limit record (stripped text fields), validated; :class:`PermitLimitError` naming the
    field otherwise."""
    for col in REQUIRED:
        if not rec.get(col):
            raise PermitLimitError(f"field '{col}': missing")
    try:
        analyte = resolve(rec["parameter"])
    except UnknownAnalyte as e:
        raise PermitLimitError(f"field 'parameter': {e}") from None
    if rec["limit_type"] not in LIMIT_TYPES:
        raise PermitLimitError(
            f"field 'limit_type': '{rec['limit_type']}' is not one of {', '.join(LIMIT_TYPES)}"
        )
    try:
        value = Decimal(rec["value"])
    except InvalidOperation:
        raise PermitLimitError(f"field 'value': unparseable value '{rec['value']}'") from None
    if not value.is_finite():
        raise PermitLimitError(f"field 'value': unparseable value '{rec['value']}'")
    try:
        unit = parse_unit(rec["unit"])
    except UnitError as e:
        raise PermitLimitError(f"field 'unit': {e}") from None
    if unit.dimension != analyte.dimension:
        raise PermitLimitError(
            f"field 'unit': unit '{rec['unit']}' does not measure {analyte.name}"
        )
    dates = []
    for col, default in (("effective_from", date.min), ("effective_to", FAR_FUTURE)):
        text = rec.get(col, "")
        try:
            dates.append(date.fromisoformat(text) if text else default)
        except ValueError:
            raise PermitLimitError(f"field '{col}': bad date '{text}'") from None
    if dates[1] < dates[0]:
        raise PermitLimitError("field 'effective_to': before effective_from")
    try:
        citation = cite(rec.get("citation") or DEFAULT_CITATION)
    except CitationError as e:
        raise PermitLimitError(f"field 'citation': {e}") from None
    canon = convert(value, unit.symbol, analyte.canonical_unit)
    if (canon * 10**LIMIT_PLACES).denominator != 1:
        raise PermitLimitError(
            f"field 'value': {rec['value']} {unit.symbol} has more than {LIMIT_PLACES} decimal "
            f"places in {analyte.canonical_unit}"
        )
    return PermitLimit(
        facility=rec["facility"],
        analyte=analyte.name,
        limit_type=rec["limit_type"],
        value=canon,
        text=format_decimal(value),
        unit=unit.symbol,
        valid_from=dates[0],
        valid_to=dates[1],
        permit_id=rec.get("permit_id") or "",
        citation=citation,
    )


def _check_overlaps(limits: list[PermitLimit], source: str) -> None:
    """Two limits of one kind on one analyte at one facility may not be in force on one day."""
    ordered = sorted(
        enumerate(limits),
        key=lambda p: (p[1].facility, p[1].analyte, p[1].limit_type, p[1].valid_from),
    )
    for (_, before), (i, after) in pairwise(ordered):
        same = (before.facility, before.analyte, before.limit_type) == (
            after.facility,
            after.analyte,
            after.limit_type,
        )
        if same and before.valid_to >= after.valid_from:
            raise PermitLimitError(
                f"{source}: row {i + 2}: two {after.limit_type} limits for {after.analyte} at "
                f"{after.facility} are in force on the same day"
            )
