"""The conditions of a facility's approval (§ 196-16 E), applied column-wise.

What is computed is defined one result, one day, one month at a time in
:mod:`sewer_rules.evaluation.permit_conditions`; the limits are read and validated by
:mod:`sewer_rules.evaluation.permit_limits`. Here the same over a whole table: instantaneous
limits by a join, daily maxima and monthly averages by grouping, exact in decimal (sums of
values read by the exact fallback in fractions).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import polars as pl

from sewer_rules.analytes import BY_NAME
from sewer_rules.evaluation.permit_limits import PermitLimits
from sewer_rules.findings import Status
from sewer_rules.units import convert, format_decimal

from .numbers import CANON
from .schema import FINDING_SCHEMA
from .text import format_text

__all__ = ["MONTHLY_SCHEMA", "PermitLimits", "evaluate_permit_limits"]


def _empty_findings() -> pl.DataFrame:
    return pl.DataFrame(schema={**FINDING_SCHEMA, "_li": pl.UInt32})


MONTHLY_SCHEMA = {
    "facility": pl.String,
    "parameter": pl.String,
    "month": pl.String,
    "days_measured": pl.Int64,
    "average": pl.String,
    "limit": pl.String,
    "limit_unit": pl.String,
    "status": pl.String,
    "citation": pl.String,
    "permit_id": pl.String,
}


def evaluate_permit_limits(
    rows: pl.DataFrame, limits: PermitLimits | None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Findings (long form) for instantaneous and daily limits, and the monthly averages."""
    if limits is None or limits.table.height == 0 or rows.height == 0:
        return _empty_findings(), pl.DataFrame(schema=MONTHLY_SCHEMA)
    # Each limit's place in the file (``_li``): a result's permit findings are listed in it,
    # instantaneous ones before daily ones, as the reference lists them.
    lim_table = limits.table.with_columns(pl.col("lim").cast(CANON)).with_row_index("_li")
    joined = (
        rows.select(
            "row",
            "facility",
            "analyte",
            "day",
            "canon",
            "exact",
            "nd",
            "value_text",
            "unit_symbol",
            "canonical_unit",
        )
        .join(lim_table, on=["facility", "analyte"], how="inner")
        .filter((pl.col("day") >= pl.col("valid_from")) & (pl.col("day") <= pl.col("valid_to")))
    )
    parts = [
        _instantaneous(joined).with_columns(pl.lit(0).alias("_kind")),
        _daily(joined).with_columns(pl.lit(1).alias("_kind")),
    ]
    monthly = _monthly(joined.filter(pl.col("limit_type") == "monthly_average"))
    findings = pl.concat(parts, how="diagonal_relaxed").sort(["row", "_kind", "_li"])
    return findings.select(list(FINDING_SCHEMA)), monthly


def _finding_columns(status: pl.Expr, message: pl.Expr) -> list[pl.Expr]:
    return [
        pl.col("row"),
        pl.col("_li"),
        status.alias("status"),
        pl.col("permit_citation").alias("citation"),
        pl.col("lim_text").alias("limit"),
        pl.col("lim_unit").alias("limit_unit"),
        message.alias("message"),
        format_text("permit {} {}", pl.col("permit_id"), pl.col("limit_type")).alias("parameter"),
        pl.col("valid_from").alias("effective"),
    ]


def _instantaneous(joined: pl.DataFrame) -> pl.DataFrame:
    inst = joined.filter(
        pl.col("limit_type").is_in(["instantaneous_minimum", "instantaneous_maximum"])
    )
    is_max = pl.col("limit_type") == "instantaneous_maximum"
    v, lim, nd = pl.col("canon"), pl.col("lim"), pl.col("nd")
    status = (
        pl.when(is_max & ~nd & (v > lim))
        .then(pl.lit(str(Status.PROHIBITED)))
        .when(is_max & nd & (v > lim))
        .then(pl.lit(str(Status.INCONCLUSIVE)))
        .when(~is_max & ~nd & (v < lim))
        .then(pl.lit(str(Status.PROHIBITED)))
        .when(~is_max & nd & (v <= lim))
        .then(pl.lit(str(Status.PROHIBITED)))
        .when(~is_max & nd)
        .then(pl.lit(str(Status.INCONCLUSIVE)))
        .otherwise(None)
    )
    word = pl.when(is_max).then(pl.lit("above")).otherwise(pl.lit("below"))
    message = format_text(
        "{} {}{} is {} the permit's instantaneous limit {} {}",
        pl.col("value_text"),
        pl.col("unit_symbol"),
        pl.when(nd).then(pl.lit(" (non-detect)")).otherwise(pl.lit("")),
        word,
        pl.col("lim_text"),
        pl.col("lim_unit"),
    )
    return (
        inst.with_columns(status.alias("_s"))
        .filter(pl.col("_s").is_not_null())
        .select(_finding_columns(pl.col("_s"), message))
    )


def _daily(joined: pl.DataFrame) -> pl.DataFrame:
    """Daily maximum: the day's value is the mean of its results (non-detects bounded 0..RL)."""
    daily = joined.filter(pl.col("limit_type") == "daily_maximum")
    if daily.height == 0:
        return _empty_findings()
    keys = ["facility", "analyte", "day", "limit_type", "valid_from"]
    low = pl.when(pl.col("nd")).then(pl.lit(0).cast(CANON)).otherwise(pl.col("canon"))
    per_day = daily.group_by(keys).agg(
        low.sum().alias("sum_low"),
        pl.col("canon").sum().alias("sum_high"),
        pl.len().alias("n"),
        pl.col("lim").first(),
        pl.col("exact").is_not_null().any().alias("_slow"),
    )
    n_lim = pl.col("lim") * pl.col("n").cast(CANON)
    slow_days = per_day.filter(pl.col("_slow")).select(keys)
    per_day = per_day.filter(~pl.col("_slow")).with_columns(
        pl.when(pl.col("sum_low") > n_lim)
        .then(pl.lit(str(Status.PROHIBITED)))
        .when(pl.col("sum_high") > n_lim)
        .then(pl.lit(str(Status.INCONCLUSIVE)))
        .otherwise(None)
        .alias("_s")
    )
    means = {
        (r["facility"], r["analyte"], r["day"]): format_decimal(Fraction(r["sum_low"]) / r["n"])
        for r in per_day.filter(pl.col("_s").is_not_null()).iter_rows(named=True)
    }
    # Days with a value read by the exact fallback: summed exactly, in fractions.
    slow_rows = []
    for key, (lo, hi, n, lim) in _exact_sums(daily.join(slow_days, on=keys), keys).items():
        status = (
            Status.PROHIBITED if lo > n * lim else Status.INCONCLUSIVE if hi > n * lim else None
        )
        if status is not None:
            slow_rows.append((*key, str(status), n))
            means[key[:3]] = format_decimal(lo / n)
    slow_status = pl.DataFrame(
        slow_rows,
        schema={**{k: per_day.schema[k] for k in keys}, "_s": pl.String, "n": pl.UInt32},
        orient="row",
    )
    per_day = pl.concat(
        [
            per_day.filter(pl.col("_s").is_not_null()).select([*keys, "_s", "n"]),
            slow_status,
        ]
    )
    if per_day.height == 0:
        return _empty_findings()
    hits = daily.join(per_day, on=keys)
    hits = hits.with_columns(
        pl.struct("facility", "analyte", "day")
        .map_elements(
            lambda s: means[(s["facility"], s["analyte"], s["day"])], return_dtype=pl.String
        )
        .alias("_mean")
    )
    message = format_text(
        "daily value {} {} on {} (mean of {} result(s)) is above the permit's daily maximum {} {}",
        pl.col("_mean"),
        pl.col("canonical_unit"),
        pl.col("day"),
        pl.col("n"),
        pl.col("lim_text"),
        pl.col("lim_unit"),
    )
    return hits.select(_finding_columns(pl.col("_s"), message))


def _exact_sums(
    frame: pl.DataFrame, keys: list[str]
) -> dict[tuple[Any, ...], tuple[Fraction, Fraction, int, Fraction]]:
    """Per group of ``keys``: the exact sums of the canonical values with non-detects at zero
    and at their reporting limits, the count and the limit — from the ``exact`` text where a
    value was read by the exact fallback (its ``canon`` is only a comparison key)."""
    out: dict[tuple[Any, ...], tuple[Fraction, Fraction, int, Fraction]] = {}
    for r in frame.iter_rows(named=True):
        key = tuple(r[k] for k in keys)
        if r["exact"] is None:
            value = Fraction(r["canon"])
        else:
            value = convert(
                Decimal(r["exact"]), r["unit_symbol"], BY_NAME[r["analyte"]].canonical_unit
            )
        lo, hi, n, _ = out.get(key, (Fraction(0), Fraction(0), 0, Fraction(0)))
        out[key] = (lo + (0 if r["nd"] else value), hi + value, n + 1, Fraction(r["lim"]))
    return out


#: What identifies one monthly average: a facility's analyte in a month under one limit.
_MONTH_GROUP = (
    "facility",
    "analyte",
    "month",
    "lim_text",
    "lim_unit",
    "permit_id",
    "permit_citation",
)


def _month_row(
    group: tuple[str, ...], lo: Fraction, hi: Fraction, lim: Fraction, days: int
) -> tuple[object, ...]:
    """One monthly average and its verdict: prohibited when even counting non-detects as zero
    it is above the limit, inconclusive when only counting them at their reporting limits."""
    status = (
        Status.PROHIBITED if lo > lim else Status.INCONCLUSIVE if hi > lim else Status.COMPLIANT
    )
    facility, analyte, month, lim_text, lim_unit, permit_id, citation = group
    return (
        facility,
        analyte,
        month,
        days,
        format_decimal(lo),
        lim_text,
        lim_unit,
        str(status),
        citation,
        permit_id,
    )


def _monthly(monthly: pl.DataFrame) -> pl.DataFrame:
    """Monthly average = Σ daily values ÷ days measured, exact.

    A day's value is the mean of its results. Where every day of a month has one result (the
    usual case), the daily values are the results themselves and their sum is an exact decimal
    sum in the frame: one fraction per month. Months with a day of several results are summed
    day by day in fractions.
    """
    if monthly.height == 0:
        return pl.DataFrame(schema=MONTHLY_SCHEMA)
    low = pl.when(pl.col("nd")).then(pl.lit(0).cast(CANON)).otherwise(pl.col("canon"))
    group = list(_MONTH_GROUP)
    per_day = (
        monthly.with_columns(pl.col("day").dt.strftime("%Y-%m").alias("month"))
        .group_by([*group, "day", "lim"])
        .agg(low.sum().alias("lo"), pl.col("canon").sum().alias("hi"), pl.len().alias("n"))
    )
    slow_months = (
        monthly.filter(pl.col("exact").is_not_null())
        .with_columns(pl.col("day").dt.strftime("%Y-%m").alias("month"))
        .select(group)
        .unique()
    )
    months = (
        per_day.join(slow_months, on=group, how="anti")
        .group_by(group)
        .agg(
            pl.col("n").max().alias("most"),
            pl.col("lo").sum().alias("lo_sum"),
            pl.col("hi").sum().alias("hi_sum"),
            pl.len().alias("days"),
            pl.col("lim").first(),
        )
    )
    out = []
    for r in months.filter(pl.col("most") == 1).iter_rows(named=True):
        days = r["days"]
        out.append(
            _month_row(
                tuple(r[k] for k in group),
                Fraction(r["lo_sum"]) / days,
                Fraction(r["hi_sum"]) / days,
                Fraction(r["lim"]),
                days,
            )
        )
    several = months.filter(pl.col("most") > 1).select(group)
    daily: dict[tuple[str, ...], list[tuple[Fraction, Fraction]]] = {}
    limit_of: dict[tuple[str, ...], Fraction] = {}
    for r in (
        per_day.join(several, on=group).sort(["facility", "analyte", "month", "day"])
    ).iter_rows(named=True):
        key = tuple(r[k] for k in group)
        daily.setdefault(key, []).append((Fraction(r["lo"]) / r["n"], Fraction(r["hi"]) / r["n"]))
        limit_of[key] = Fraction(r["lim"])
    if slow_months.height:
        exact_days = _exact_sums(
            monthly.with_columns(pl.col("day").dt.strftime("%Y-%m").alias("month"))
            .join(slow_months, on=group)
            .sort(["facility", "analyte", "month", "day"]),
            [*group, "day"],
        )
        for day_key, (lo_d, hi_d, n, lim) in exact_days.items():
            key = day_key[:-1]
            daily.setdefault(key, []).append((lo_d / n, hi_d / n))
            limit_of[key] = lim
    for key, values in daily.items():
        lo = sum((d[0] for d in values), Fraction(0)) / len(values)
        hi = sum((d[1] for d in values), Fraction(0)) / len(values)
        out.append(_month_row(key, lo, hi, limit_of[key], len(values)))
    return pl.DataFrame(out, schema=MONTHLY_SCHEMA, orient="row").sort(
        ["facility", "parameter", "month", "limit", "permit_id", "citation"]
    )
