"""The inputs of :func:`~.snc_determination.determine` from the engine's tables.

One reading for the command line (files) and the office (stored results): prepared result
rows become :class:`~.snc_chronic_and_trc.Measurement` (one per row, the value in the analyte's
canonical unit, exactly), and a :class:`~sewer_rules.evaluation.permit_limits.PermitLimits`
table becomes :class:`~.snc_chronic_and_trc.Limit`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import polars as pl

from sewer_engines.evaluation.numbers import CANON
from sewer_rules.analytes import ANALYTES
from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.federal.snc_chronic_and_trc import Limit, Measurement
from sewer_rules.federal.snc_scope import Scope

ROW_COLUMNS = ("row", "sample_id", "facility", "analyte", "canon", "nd", "day")
#: The prepared rows' types (:func:`sewer_engines.evaluation.prepare.prepare`), for a period
#: with no result at all: no rows, still the columns the engine selects.
ROW_SCHEMA: dict[str, pl.DataType] = {
    "row": pl.Int64(),
    "sample_id": pl.String(),
    "facility": pl.String(),
    "analyte": pl.String(),
    "canon": CANON,
    "nd": pl.Boolean(),
    "day": pl.Date(),
}


def rows_or_empty(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows``, or no rows with :data:`ROW_SCHEMA` when nothing was measured (a table without
    rows may come without columns: nothing was read to give it any)."""
    return rows if rows.height else pl.DataFrame(schema=ROW_SCHEMA)


def measurements(rows: pl.DataFrame) -> list[Measurement]:
    """Prepared rows (:func:`sewer_engines.evaluation.prepare.prepare`) as measurements.

    Laboratory values repeat (three significant digits), so each distinct value is made exact
    (a :class:`~fractions.Fraction`) once.
    """
    exact: dict[Decimal, Fraction] = {}
    out = []
    table = rows_or_empty(rows).select(ROW_COLUMNS)
    for row, sample, facility, analyte, canon, nd, day in table.iter_rows():
        value = exact.get(canon)
        if value is None:
            value = exact[canon] = Fraction(canon)
        out.append(Measurement(facility or "", analyte, day, value, bool(nd), (row,), sample or ""))
    return out


def limits(table: PermitLimits) -> list[Limit]:
    """Every limit of a permit-limits table, with its unit, text and authority."""
    unit = {a.name: a.canonical_unit for a in ANALYTES}
    cols = ("facility", "analyte", "limit_type", "lim", "valid_from", "valid_to", "lim_text")
    return [
        Limit(
            facility,
            analyte,
            kind,
            Decimal(lim),
            start,
            end,
            f"{text} {lim_unit}",
            unit[analyte],
            cit,
        )
        for (facility, analyte, kind, lim, start, end, text), lim_unit, cit in zip(
            table.table.select(cols).iter_rows(),
            table.table.get_column("lim_unit"),
            table.table.get_column("permit_citation"),
            strict=True,
        )
    ]


def split_rows(rows: pl.DataFrame, scope: Scope) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`~sewer_rules.federal.snc_scope.split_measurements` on prepared rows (``facility``, ``day``), in their order.

    Each facility × day is judged once, then joined back to its rows.
    """
    table = rows_or_empty(rows)
    if table.height == 0:
        return table, table
    key = pl.col("facility").fill_null("").alias("_facility")
    pairs = table.select(key, "day").unique()
    flags = [scope.was_siu(f, d) for f, d in pairs.iter_rows()]
    marked = pairs.with_columns(pl.Series("_in_scope", flags, dtype=pl.Boolean))
    joined = (
        table.with_columns(key, pl.int_range(pl.len()).alias("_order"))
        .join(marked, on=["_facility", "day"], how="left")
        .sort("_order")
    )
    keep = joined.get_column("_in_scope")
    columns = table.columns
    return joined.filter(keep).select(columns), joined.filter(~keep).select(columns)
