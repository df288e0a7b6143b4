"""(A) and (B) counted column-wise on the prepared rows: the determinations of
:func:`sewer_rules.federal.snc_determination.determine`, for hundreds of thousands of results.

``determine`` (the reference) makes one
:class:`~sewer_rules.federal.snc_chronic_and_trc.Measurement` per row and
compares it with each limit in Python. Here the rows stay a polars table: each distinct value
is compared once with each distinct bound, exactly (``Fraction``, integers, as ``determine``
does), the flags are joined back to the rows, and the counts of every limit × window are one
group-by. The counted measurements of a window (``counted``, the lists a determination shows)
are made only when asked for — the office asks for the deciding window's.

Monthly-average limits (a month's average is one measurement, a few per series) and the reports
of (F) are left to ``determine`` itself. ``tests/test_snc_columnar.py`` checks on generated
series that both paths give the same determinations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from decimal import Decimal
from fractions import Fraction

import polars as pl

from sewer_engines.federal.snc_inputs import ROW_COLUMNS, rows_or_empty
from sewer_rules.federal.cfr403_snc import EXCLUDED_FROM_TRC, technical_review_criterion
from sewer_rules.federal.snc_chronic_and_trc import (
    MINIMUM_TYPES,
    MONTHLY_TYPES,
    Counted,
    Determination,
    Limit,
    Measurement,
    WindowCount,
)
from sewer_rules.federal.snc_determination import ROLLING_WINDOW, SNCReport, determine
from sewer_rules.federal.snc_late_reports import Report
from sewer_rules.federal.snc_periods import Window, six_month_windows
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import engine_of

Bound = tuple[Decimal, bool, Decimal | None]  # limit value, minimum?, TRC multiplier


def _flags(values: Sequence[Decimal], bound: Bound) -> tuple[list[bool], list[bool | None]]:
    """Exceeds and at-or-above-TRC of each distinct value against one bound, exactly."""
    value, minimum, trc = bound
    lim = Fraction(value)
    p, q = lim.numerator, lim.denominator
    exceeds, at_trc = [], []
    if trc is not None:
        b = lim * Fraction(trc)
        bp, bq = b.numerator, b.denominator
    for d in values:
        v = Fraction(d)
        a, den = v.numerator, v.denominator
        exceeds.append(a * q < p * den if minimum else a * q > p * den)
        at_trc.append(None if trc is None else a * bq >= bp * den)
    return exceeds, at_trc


def _monthly(rows: pl.DataFrame) -> list[Measurement]:
    """:func:`~.snc_chronic_and_trc.monthly_averages` of rows: days summed column-wise (decimal
    sums are exact), each month's average made exact once (``Fraction``)."""
    days = (
        rows.with_columns(
            pl.when(pl.col("nd"))
            .then(pl.lit(0).cast(rows.schema["canon"]))
            .otherwise(pl.col("canon"))
            .alias("canon")
        )
        .group_by("facility", "analyte", "day")
        .agg(pl.col("canon").sum().alias("s"), pl.len().alias("n"), pl.col("row"))
        .with_columns(pl.col("day").dt.month_start().alias("first"))
        .group_by("facility", "analyte", "first")
        .agg("s", "n", pl.col("row").list.explode(keep_nulls=False, empty_as_null=False).sort())
        .sort("facility", "analyte", "first")
    )
    out = []
    for facility, analyte, first, sums, counts, rws in days.iter_rows():
        if all(n == 1 for n in counts):
            total = Fraction(sum(sums, Decimal(0)))
        else:
            total = sum((Fraction(x) / n for x, n in zip(sums, counts, strict=True)), Fraction(0))
        out.append(Measurement(facility, analyte, first, total / len(sums), False, tuple(rws)))
    return out


def _loader(
    part: pl.DataFrame, w: Window, lim: Limit, with_trc: bool
) -> Callable[[], tuple[Counted, ...]]:
    def load() -> tuple[Counted, ...]:
        lo, hi = max(w.start, lim.valid_from), min(w.end, lim.valid_to)
        rows = part.filter(pl.col("day").is_between(lo, hi)).sort("day", "row")
        exact: dict[Decimal, Fraction] = {}
        out = []
        for row, sample, facility, analyte, canon, nd, day, ex, tr in rows.select(
            *ROW_COLUMNS, "ex", "tr"
        ).iter_rows():
            value = exact.get(canon)
            if value is None:
                value = exact[canon] = Fraction(canon)
            m = Measurement(facility or "", analyte, day, value, bool(nd), (row,), sample or "")
            out.append(Counted(m, bool(ex), bool(tr) if with_trc else None))
        return tuple(out)

    return load


@engine_of(determine)
def determine_table(
    rows: pl.DataFrame,
    limits: Sequence[Limit],
    period: Window,
    params: ParameterSet,
    *,
    rolling: bool | None = None,
    reports: Sequence[Report] = (),
    as_of: date | None = None,
) -> SNCReport:
    """:func:`~sewer_rules.federal.snc_determination.determine` over prepared rows
    (``ROW_COLUMNS``), column-wise."""
    if rolling is None:
        rolling = bool(params.value(ROLLING_WINDOW, period.end))
    windows = six_month_windows(period, rolling)
    monthly_limits = [lim for lim in limits if lim.limit_type in MONTHLY_TYPES]
    monthly_keys = {(lim.facility, lim.analyte) for lim in monthly_limits}
    frame = rows_or_empty(rows).select(ROW_COLUMNS).with_columns(pl.col("facility").fill_null(""))
    monthly_rows = frame.filter(
        pl.struct("facility", "analyte").is_in(
            [{"facility": f, "analyte": a} for f, a in sorted(monthly_keys)]
        )
        if monthly_keys
        else pl.lit(False)
    )
    # the months' averages, given to ``determine`` (averaging them again leaves them as they are)
    reference = determine(
        _monthly(monthly_rows) if monthly_rows.height else [],
        monthly_limits,
        period,
        params,
        rolling=rolling,
        reports=reports,
        as_of=as_of,
    )
    order = {id(lim): i for i, lim in enumerate(limits)}
    found: list[tuple[tuple[str, str, str], date, int, Determination]] = [
        ((d.limit.facility, d.limit.analyte, d.limit.limit_type), d.limit.valid_from, 0, d)
        for d in reference.determinations
    ]
    judged = [
        lim
        for lim in limits
        if lim.limit_type not in MONTHLY_TYPES
        and not (lim.valid_to < windows[0].start or lim.valid_from > windows[-1].end)
    ]
    trcs: dict[str, Decimal | None] = {}
    bounds: list[Bound] = []
    for lim in judged:
        minimum = lim.limit_type in MINIMUM_TYPES
        trc = None
        if not minimum and lim.analyte not in EXCLUDED_FROM_TRC:
            if lim.analyte not in trcs:
                trcs[lim.analyte] = technical_review_criterion(lim.analyte, params, period.end)
            trc = trcs[lim.analyte]
        bounds.append((lim.value, minimum, trc))
    if judged:
        distinct = sorted(set(bounds), key=str)
        bid_of = {b: i for i, b in enumerate(distinct)}
        lim_frame = pl.DataFrame(
            {
                "lid": list(range(len(judged))),
                "facility": [lim.facility for lim in judged],
                "analyte": [lim.analyte for lim in judged],
                "valid_from": [lim.valid_from for lim in judged],
                "valid_to": [lim.valid_to for lim in judged],
                "bid": [bid_of[b] for b in bounds],
            },
            schema_overrides={"lid": pl.Int64, "bid": pl.Int64},
        )
        values = frame.get_column("canon").unique().to_list()
        flag_parts = []
        for bid, bound in enumerate(distinct):
            ex, tr = _flags(values, bound)
            flag_parts.append(
                pl.DataFrame(
                    {"bid": [bid] * len(values), "canon": values, "ex": ex, "tr": tr},
                    schema={
                        "bid": pl.Int64,
                        "canon": frame.schema["canon"],
                        "ex": pl.Boolean,
                        "tr": pl.Boolean,
                    },
                )
            )
        flags = pl.concat(flag_parts)
        joined = (
            frame.join(lim_frame, on=["facility", "analyte"], how="inner")
            .filter(pl.col("day").is_between(pl.col("valid_from"), pl.col("valid_to")))
            .join(flags, on=["bid", "canon"], how="left")
            .with_columns(
                (pl.col("ex") & ~pl.col("nd")).alias("ex"),
                (pl.col("tr").fill_null(False) & ~pl.col("nd")).alias("tr"),
            )
        )
        tallies: dict[tuple[int, int], tuple[int, int, int]] = {}
        for wi, w in enumerate(windows):
            counts = (
                joined.filter(pl.col("day").is_between(w.start, w.end))
                .group_by("lid")
                .agg(
                    pl.len().alias("n"),
                    pl.col("ex").sum().alias("e"),
                    pl.col("tr").sum().alias("t"),
                )
            )
            for lid, n, e, t in counts.iter_rows():
                tallies[(lid, wi)] = (int(n), int(e), int(t))
        parts = {key[0]: part for key, part in joined.partition_by("lid", as_dict=True).items()}
        empty = joined.clear()
        for lid, (lim, bound) in enumerate(zip(judged, bounds, strict=True)):
            trc = bound[2]
            part = parts.get(lid, empty)
            counts_of = tuple(
                WindowCount(
                    w,
                    _loader(part, w, lim, trc is not None),
                    trc,
                    params.value("snc.chronic_percent", w.end),
                    params.value("snc.trc_percent", w.end),
                    tallies.get((lid, wi), (0, 0, 0)),
                )
                for wi, w in enumerate(windows)
            )
            found.append(
                (
                    (lim.facility, lim.analyte, lim.limit_type),
                    lim.valid_from,
                    order.get(id(lim), 0),
                    Determination(lim, counts_of, trc),
                )
            )
    # the order of ``determine``: by series, then by version's start (stable in the input)
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    return SNCReport(period, rolling, tuple(f[3] for f in found), reference.reports)
