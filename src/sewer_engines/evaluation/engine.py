"""The evaluation engine: every declared rule applied to every valid row, in one pass per rule.

For each rule the limit in force is looked up per row by the *period* of its sample date (the
span between two consecutive effective dates of any parameter), converted exactly to the
analyte's canonical unit, and compared in decimal. Findings come out in long form — one row per
finding with its status, citation, limit, unit, message and the parameter and effective date
used — which is what the office stores, and what the reports serialise.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date

import polars as pl

from sewer_rules.analytes import ANALYTES, BY_NAME
from sewer_rules.evaluation.result import PARAMETER_NAMES, RULES
from sewer_rules.federal.cfr136_holding_times import CITATION as HOLDING_CITATION
from sewer_rules.federal.cfr136_holding_times import HOLDING_TIME_PARAMETER
from sewer_rules.findings import Status
from sewer_rules.hostile import QUOTE_LIMIT
from sewer_rules.limits import Bound, JudgmentRule, LimitRule
from sewer_rules.ordinance.s196_19_use_of_public_sewers.prohibitions import JUDGMENT_RULES
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import (
    SAMPLE_TYPES,
    sample_type_advisory,
)
from sewer_rules.parameters import ParameterSet
from sewer_rules.units import convert, format_decimal

from .classify import classify_samples
from .permit_limits import PermitLimits, evaluate_permit_limits
from .prepare import CANON, prepare
from .schema import ADVISORY_FIELDS, ADVISORY_SCHEMA, FINDING_FIELDS, FINDING_SCHEMA
from .text import format_text

__all__ = ["RULES", "Evaluation", "evaluate_table"]


@dataclass
class Evaluation:
    """What the engine found. ``results`` has one row per valid input row."""

    results: pl.DataFrame  # row, sample_id, facility, parameter, value, unit, status, day, ...
    findings: pl.DataFrame  # long form, FINDING_SCHEMA
    advisories: pl.DataFrame  # long form, ADVISORY_SCHEMA
    samples: pl.DataFrame  # sample_id, cooling_water, unpolluted_water
    errors: pl.DataFrame  # row, field, message
    monthly: pl.DataFrame = field(default_factory=pl.DataFrame)
    parameters_version: str = ""

    @property
    def has_violation(self) -> bool:
        # Read on the status columns alone (a filter of the frame would copy every column), by
        # equality: a set membership test over a million texts hashes each of them.
        columns = [self.results.get_column("status")]
        if self.monthly.height > 0:
            columns.append(self.monthly.get_column("status"))
        return any(
            bool((column == str(status)).any())
            for column in columns
            for status in (Status.PROHIBITED, Status.REVIEW)
        )


def _limit_table(rule: LimitRule, params: ParameterSet, periods: list[date]) -> pl.DataFrame:
    """The rule's limit in each period: canonical value, display value and unit, effective date."""
    canonical_unit = BY_NAME[rule.analyte].canonical_unit
    rows = []
    for i, on in enumerate(periods):
        pv = params.get(rule.parameter, on)
        canon = (
            None if pv.value is None else format_decimal(convert(pv.value, pv.unit, canonical_unit))
        )
        rows.append(
            (
                i,
                canon,
                None if pv.value is None else format_decimal(pv.value),
                pv.unit,
                pv.effective,
            )
        )
    return pl.DataFrame(
        rows,
        schema={
            "period": pl.Int64,
            "lim": pl.String,
            "lim_text": pl.String,
            "lim_unit": pl.String,
            "effective": pl.Date,
        },
        orient="row",
    ).with_columns(pl.col("lim").cast(CANON))


def _rule_findings(
    rule: LimitRule, subset: pl.DataFrame, params: ParameterSet, periods: list[date]
) -> pl.DataFrame:
    """The findings of one rule over the rows of its analyte."""
    if subset.height == 0:
        return pl.DataFrame(schema=FINDING_SCHEMA)
    table = _limit_table(rule, params, periods)
    joined = subset.join(table, on="period", how="left")
    upper = rule.bound is Bound.UPPER
    value, lim = pl.col("canon"), pl.col("lim")
    beyond = (value > lim) if upper else (value < lim)
    # A non-detect is known to be below its reporting limit: for an upper limit it complies when
    # the reporting limit is at or below the limit; for a lower limit it is proved below the
    # limit when the reporting limit is at or below it. Otherwise it cannot be told.
    nd_complies = (value <= lim) if upper else pl.lit(False)
    nd_breaks = pl.lit(False) if upper else (value <= lim)
    measured = ~pl.col("nd")
    label = BY_NAME[rule.analyte].label
    # Quoting shortens a text longer than QUOTE_LIMIT characters and leaves any other as it is.
    # When the longest result phrase and the longest limit phrase this rule can write fit (the
    # sum of the longest parts bounds every phrase), no value is quoted: the same texts,
    # without a pass of quoting over every part of every finding.
    reported_at_most = _longest(label, subset, "value_text", "unit_symbol")
    limit_at_most = _longest(rule.wording, table, "lim_text", "lim_unit")
    quote = max(reported_at_most, limit_at_most) > QUOTE_LIMIT
    reported = format_text(
        "{} {} {}", pl.lit(label), pl.col("value_text"), pl.col("unit_symbol"), quote=quote
    )
    limit_phrase = format_text(
        "{} {} {}", pl.lit(rule.wording), pl.col("lim_text"), pl.col("lim_unit"), quote=quote
    )
    status = (
        pl.when(lim.is_null())
        .then(pl.lit(str(rule.unconfigured)) if rule.unconfigured else pl.lit(None, pl.String))
        .when(measured & beyond)
        .then(pl.lit(str(rule.status)))
        .when(~measured & nd_breaks)
        .then(pl.lit(str(rule.status)))
        .when(~measured & ~nd_complies & ~nd_breaks)
        .then(pl.lit(str(Status.INCONCLUSIVE)))
        .otherwise(pl.lit(None, pl.String))
    )
    # "{reported} is {limit}", "{reported}: the reporting limit is itself {limit}" or
    # "{reported}: the reporting limit is not below the limit ({limit})": one text built per
    # finding, the words between chosen per row (a choice among whole messages would build
    # every one of them for every row, then keep one). Each part is quoted as format_text
    # quotes what it is given, so the texts are those of the four whole messages.
    between = (
        pl.when(measured)
        .then(pl.lit(" is "))
        .when(nd_breaks)
        .then(pl.lit(": the reporting limit is itself "))
        .otherwise(pl.lit(": the reporting limit is not below the limit ("))
    )
    closing = pl.when(measured | nd_breaks).then(pl.lit("")).otherwise(pl.lit(")"))
    message = (
        pl.when(lim.is_null())
        .then(format_text("no limit for {} is configured for this date", pl.lit(label)))
        .otherwise(format_text("{}{}{}{}", reported, between, limit_phrase, closing, quote=quote))
    )
    return (
        joined.with_columns(status.alias("status"))
        .filter(pl.col("status").is_not_null())
        .select(
            "row",
            "status",
            pl.lit(str(rule.citation)).alias("citation"),
            pl.col("lim_text").alias("limit"),
            pl.when(lim.is_null()).then(None).otherwise(pl.col("lim_unit")).alias("limit_unit"),
            message.alias("message"),
            pl.lit(rule.parameter).alias("parameter"),
            pl.col("effective"),
        )
    )


def _longest(words: str, frame: pl.DataFrame, *columns: str) -> int:
    """The characters of the longest "words value unit" phrase ``frame`` can give (a bound:
    the longest value plus the longest unit, each column's longest read once)."""
    lengths = frame.select(pl.col(c).str.len_chars().max().fill_null(0) for c in columns)
    return len(words) + sum(int(n) for n in lengths.row(0)) + len(columns)


def _judgment_findings(rule: JudgmentRule, rows: pl.DataFrame) -> pl.DataFrame:
    return rows.filter(pl.col("analyte").is_in(rule.analytes)).select(
        "row",
        pl.lit(str(Status.NO_LIMIT)).alias("status"),
        pl.lit(str(rule.citation)).alias("citation"),
        pl.lit(None, pl.String).alias("limit"),
        pl.lit(None, pl.String).alias("limit_unit"),
        pl.lit(rule.message).alias("message"),
        pl.lit(None, pl.String).alias("parameter"),
        pl.lit(None, pl.Date).alias("effective"),
    )


def _sample_type_advisories(rows: pl.DataFrame) -> pl.DataFrame:
    """§ 196-19 I advisories, from the rule itself applied to every analyte × sample type."""
    table = []
    for analyte in ANALYTES:
        for sample_type in SAMPLE_TYPES:
            adv = sample_type_advisory(analyte, sample_type)
            if adv is not None:
                table.append((analyte.name, sample_type, adv.code, str(adv.citation), adv.message))
    lookup = pl.DataFrame(
        table,
        schema={
            "analyte": pl.String,
            "sample_type": pl.String,
            "code": pl.String,
            "citation": pl.String,
            "message": pl.String,
        },
        orient="row",
    )
    return (
        rows.select("row", "analyte", "sample_type")
        .join(lookup, on=["analyte", "sample_type"])
        .select("row", "code", "citation", "message")
    )


def _holding_time_advisories(
    rows: pl.DataFrame, params: ParameterSet, periods: list[date]
) -> pl.DataFrame:
    """40 CFR 136.3(e) Table II: analysed later than the holding time after sampling."""
    timed = rows.filter(
        pl.col("analyzed_utc").is_not_null() & pl.col("analyte").is_in(list(HOLDING_TIME_PARAMETER))
    )
    if timed.height == 0:
        return pl.DataFrame(schema=ADVISORY_SCHEMA)
    table = []
    for analyte, name in HOLDING_TIME_PARAMETER.items():
        for i, on in enumerate(periods):
            pv = params.get(name, on)
            if pv.value is not None:
                micro = pv.value * 3_600_000_000
                table.append((analyte, i, int(micro), format_decimal(pv.value)))
    lookup = pl.DataFrame(
        table,
        schema={"analyte": pl.String, "period": pl.Int64, "max_us": pl.Int64, "hours": pl.String},
        orient="row",
    )
    elapsed = (pl.col("analyzed_utc") - pl.col("sampled_utc")).dt.total_microseconds()
    return (
        timed.join(lookup, on=["analyte", "period"])
        .filter(elapsed > pl.col("max_us"))
        .select(
            "row",
            pl.lit("holding_time_exceeded").alias("code"),
            pl.lit(str(HOLDING_CITATION)).alias("citation"),
            format_text(
                "analysed {} h after sampling; the holding time is {} h",
                (elapsed / 3_600_000_000).round(2),
                pl.col("hours"),
            ).alias("message"),
        )
    )


def evaluate_table(
    raw: pl.DataFrame, params: ParameterSet, limits: PermitLimits | None = None
) -> Evaluation:
    """Evaluate a results table (text columns of ``sewer-use check`` plus an integer ``row``)."""
    periods = params.breakpoints(PARAMETER_NAMES)
    prepared = prepare(raw, params.timezone, periods[0])
    del raw  # its text columns are freed here when the caller passed the table without a name
    starts = pl.Series("starts", periods, dtype=pl.Date)
    rows = prepared.rows.with_columns(
        (starts.search_sorted(prepared.rows.get_column("day"), side="right") - 1)
        .cast(pl.Int64)
        .alias("period")
    )
    # The samples' classifications need the rows only: worked in a thread beside the rules.
    pool = ThreadPoolExecutor(max_workers=1)
    classified = pool.submit(classify_samples, rows, params, periods)
    pool.shutdown(wait=False)
    rule_columns = rows.select(
        "row", "analyte", "canon", "nd", "value_text", "unit_symbol", "period"
    )
    by_analyte = {
        k[0]: part for k, part in rule_columns.partition_by("analyte", as_dict=True).items()
    }
    empty = rule_columns.clear()
    parts = [
        _rule_findings(rule, by_analyte.get(rule.analyte, empty), params, periods) for rule in RULES
    ]
    parts += [_judgment_findings(rule, rows) for rule in JUDGMENT_RULES]
    permit_findings, monthly = evaluate_permit_limits(rows, limits)
    parts.append(permit_findings)
    findings = pl.concat(
        [p.select(list(FINDING_SCHEMA)).cast(pl.Schema(FINDING_SCHEMA)) for p in parts]
    )
    rank = {str(s): i for i, s in enumerate(Status)}
    findings = findings.with_columns(
        pl.col("status").replace_strict(rank, return_dtype=pl.Int8).alias("rank")
    )
    # One integer key (row, then rank; a stable sort keeps the rules' order within a rank):
    # polars sorts one integer column several times faster than two.
    # Sorted by that key, the findings are sorted by row: said so (polars cannot see it through
    # an expression), the grouping and the join below take consecutive runs instead of hashing.
    findings = findings.sort(
        pl.col("row") * len(rank) + pl.col("rank"), maintain_order=True
    ).with_columns(pl.col("row").set_sorted())
    advisories = pl.concat(
        [_sample_type_advisories(rows), _holding_time_advisories(rows, params, periods)]
    ).sort("row", maintain_order=True)
    # One pass per row: the most severe status and the row's findings and advisories, nested.
    per_row = findings.group_by("row", maintain_order=True).agg(
        pl.col("rank").first(), pl.struct(list(FINDING_FIELDS)).alias("findings")
    )
    advised = advisories.group_by("row", maintain_order=True).agg(
        pl.struct(list(ADVISORY_FIELDS)).alias("advisories")
    )
    statuses = [str(s) for s in Status]
    # Joined on the row numbers alone and the new columns set beside the rows' own: a join of
    # the rows would copy every one of their columns.
    # A file's rows are numbered in order (``row`` ascending): checked, not assumed, before
    # polars is told so (a caller may pass rows in another order; they are then hashed).
    row_numbers = rows.select("row")
    if row_numbers.get_column("row").is_sorted():
        row_numbers = row_numbers.with_columns(pl.col("row").set_sorted())
    nested = row_numbers.join(per_row, on="row", how="left", maintain_order="left").join(
        advised, on="row", how="left", maintain_order="left"
    )
    results = rows.with_columns(nested.get_column(c) for c in nested.columns[1:]).with_columns(
        pl.col("rank")
        .fill_null(Status.COMPLIANT.rank)
        .replace_strict(dict(enumerate(statuses)), return_dtype=pl.String)
        .alias("status")
    )
    return Evaluation(
        results=results,
        findings=findings.drop("rank"),
        advisories=advisories,
        samples=classified.result(),
        errors=prepared.errors,
        monthly=monthly,
        parameters_version=params.version,
    )
