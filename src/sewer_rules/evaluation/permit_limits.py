"""A facility's own limits — the conditions of its approval — evaluated beside the ordinance.

An industrial user's written approval (§ 196-16 E) can carry its own limits (DOMAIN.md):
instantaneous minimum/maximum (every result), daily maximum (the day's value: the mean of the
day's results) and monthly average (the sum of the daily values in the month ÷ days measured).
Categorical standards (§ 196-19 K) enter the same way. Exceeding a condition of the approval is
a discharge the approval does not cover: status ``prohibited``, citing the approval's authority
(``§ 196-16 E`` unless the limits file names another).

Non-detects in a day's or month's value are bounded: at least zero, at most the reporting
limit. When even the lower bound exceeds the limit the value is ``prohibited``; when only the
upper bound does, ``inconclusive``.

Limits file (CSV) columns: ``facility, parameter, limit_type, value, unit`` required;
``effective_from, effective_to, permit_id, citation`` optional. ``limit_type`` is one of
``daily_maximum``, ``monthly_average``, ``instantaneous_minimum``, ``instantaneous_maximum``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl

from sewer_rules.analytes import BY_NAME, UnknownAnalyte, resolve
from sewer_rules.citations import CitationError, cite
from sewer_rules.findings import Status
from sewer_rules.units import UnitError, convert, format_decimal, parse_unit

from .numbers import CANON, LIMIT_PLACES
from .schema import FINDING_SCHEMA
from .text import format_text

LIMIT_TYPES = ("daily_maximum", "monthly_average", "instantaneous_minimum", "instantaneous_maximum")
REQUIRED = ("facility", "parameter", "limit_type", "value", "unit")
DEFAULT_CITATION = "§ 196-16 E"
_FAR_FUTURE = date(9999, 12, 31)

LIMIT_SCHEMA = {
    "facility": pl.String,
    "analyte": pl.String,
    "limit_type": pl.String,
    "lim": pl.String,
    "lim_text": pl.String,
    "lim_unit": pl.String,
    "valid_from": pl.Date,
    "valid_to": pl.Date,
    "permit_id": pl.String,
    "permit_citation": pl.String,
}


class PermitLimitError(ValueError):
    """A limits file that cannot be used; the message names the file, row and field."""


@dataclass(frozen=True)
class PermitLimits:
    table: pl.DataFrame  # LIMIT_SCHEMA, lim as canonical decimal text
    source: str = ""

    @classmethod
    def from_records(cls, records: list[dict[str, str]], source: str = "limits") -> PermitLimits:
        """Validate limit records (text fields as in the CSV); all or nothing."""
        problems: list[str] = []
        out = []
        for i, rec in enumerate(records, start=2):
            rec = {k.strip().lower(): (v or "").strip() for k, v in rec.items() if k}
            try:
                out.append(_limit_row(rec))
            except PermitLimitError as e:
                problems.append(f"{source}: row {i}: {e}")
        if problems:
            raise PermitLimitError("\n".join(problems))
        table = pl.DataFrame(out, schema=LIMIT_SCHEMA, orient="row")
        _check_overlaps(table, source)
        return cls(table, source)

    @classmethod
    def from_csv(cls, path: str | Path) -> PermitLimits:
        p = Path(path)
        try:
            frame = pl.read_csv(p, infer_schema=False)
        except (OSError, pl.exceptions.PolarsError) as e:
            raise PermitLimitError(f"{p}: cannot read the limits file: {e}") from None
        frame = frame.rename({c: c.strip().lower() for c in frame.columns})
        missing = [c for c in REQUIRED if c not in frame.columns]
        if missing:
            raise PermitLimitError(f"{p}: missing required column '{missing[0]}'")
        return cls.from_records(frame.to_dicts(), str(p))


def _limit_row(rec: dict[str, str]) -> tuple[object, ...]:
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
    try:
        unit = parse_unit(rec["unit"])
    except UnitError as e:
        raise PermitLimitError(f"field 'unit': {e}") from None
    if unit.dimension != analyte.dimension:
        raise PermitLimitError(
            f"field 'unit': unit '{rec['unit']}' does not measure {analyte.name}"
        )
    dates = []
    for col, default in (("effective_from", date.min), ("effective_to", _FAR_FUTURE)):
        text = rec.get(col, "")
        try:
            dates.append(date.fromisoformat(text) if text else default)
        except ValueError:
            raise PermitLimitError(f"field '{col}': bad date '{text}'") from None
    if dates[1] < dates[0]:
        raise PermitLimitError("field 'effective_to': before effective_from")
    citation = rec.get("citation") or DEFAULT_CITATION
    try:
        cite(citation)
    except CitationError as e:
        raise PermitLimitError(f"field 'citation': {e}") from None
    canon = convert(value, unit.symbol, analyte.canonical_unit)
    if (canon * 10**LIMIT_PLACES).denominator != 1:
        # Results of any precision compare exactly with limits of at most this many places
        # (numbers.comparison_key); no permit writes a limit finer than that.
        raise PermitLimitError(
            f"field 'value': {rec['value']} {unit.symbol} has more than {LIMIT_PLACES} decimal "
            f"places in {analyte.canonical_unit}"
        )
    return (
        rec["facility"],
        analyte.name,
        rec["limit_type"],
        format_decimal(canon),
        format_decimal(value),
        unit.symbol,
        dates[0],
        dates[1],
        rec.get("permit_id") or "",
        citation,
    )


def _check_overlaps(table: pl.DataFrame, source: str) -> None:
    ordered = table.with_row_index("i").sort(["facility", "analyte", "limit_type", "valid_from"])
    prev = ordered.with_columns(
        pl.col("valid_to").shift(1).over(["facility", "analyte", "limit_type"]).alias("prev_to")
    )
    clash = prev.filter(pl.col("prev_to") >= pl.col("valid_from"))
    if clash.height:
        r = clash.row(0, named=True)
        raise PermitLimitError(
            f"{source}: row {r['i'] + 2}: two {r['limit_type']} limits for {r['analyte']} at "
            f"{r['facility']} are in force on the same day"
        )


def _empty_findings() -> pl.DataFrame:
    return pl.DataFrame(schema=FINDING_SCHEMA)


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
    lim_table = limits.table.with_columns(pl.col("lim").cast(CANON))
    joined = (
        rows.select(
            "row", "facility", "analyte", "day", "canon", "exact", "nd", "value_text", "unit_symbol"
        )
        .join(lim_table, on=["facility", "analyte"], how="inner")
        .filter((pl.col("day") >= pl.col("valid_from")) & (pl.col("day") <= pl.col("valid_to")))
    )
    parts = [_instantaneous(joined), _daily(joined)]
    monthly = _monthly(joined.filter(pl.col("limit_type") == "monthly_average"))
    return pl.concat(parts), monthly


def _finding_columns(status: pl.Expr, message: pl.Expr) -> list[pl.Expr]:
    return [
        pl.col("row"),
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
        pl.col("lim_unit"),
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
        ["facility", "parameter", "month"]
    )
