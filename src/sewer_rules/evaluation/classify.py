"""§ 196-15 COOLING WATER and UNPOLLUTED WATER OR WASTE — classifying a sample as a whole.

Both definitions speak of a water, not of one result: every result of a sample is read
together. What each definition asks is data in ``ordinance/s196_15_definitions``
(``COOLING_CRITERIA``, ``UNPOLLUTED_CRITERIA``, ``COOLING_SOURCES``); this module applies it to a
whole results table at once, in polars, with exact decimal comparisons.

Each sample gets three-state answers, as nullable booleans: ``True`` (yes), ``False`` (no),
``None`` (unknown). ``yes`` needs every required criterion measured and met and nothing
measured left undecided; one result that breaks one criterion makes ``no``; anything else is
``unknown`` — never ``yes`` by default.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from ..ordinance.s196_15_definitions.cooling_water import COOLING_CRITERIA, COOLING_SOURCES
from ..ordinance.s196_15_definitions.criteria import Criterion, Mode
from ..ordinance.s196_15_definitions.unpolluted_water import UNPOLLUTED_CRITERIA
from ..parameters import ParameterSet
from ..sections import implements
from .prepare import CANON

DEFINITIONS: dict[str, tuple[Criterion, ...]] = {
    "cooling_water": COOLING_CRITERIA,
    "unpolluted_water": UNPOLLUTED_CRITERIA,
}
#: Every dated parameter the classification reads (its own breakpoints: the engine's periods
#: are those of the limit rules, which these parameters need not share).
PARAMETERS = sorted({p for cs in DEFINITIONS.values() for c in cs for p in c.parameters})

#: The pseudo-criterion of the cooling-water definition read from the declared source.
_SOURCE_KEY = "source"

_MET, _UNDECIDED, _BROKEN = 1, 0, -1

SAMPLE_SCHEMA = {
    "sample_id": pl.String,
    "cooling_water": pl.Boolean,
    "unpolluted_water": pl.Boolean,
}


def _criteria_table(params: ParameterSet, starts: list[date]) -> pl.DataFrame:
    """One row per period × criterion: its analyte, mode, whether required, and its bounds."""

    def bound(name: str | None, on: date) -> str | None:
        if name is None:
            return None
        value = params.get(name, on).value
        return None if value is None else str(value)

    rows = [
        (
            i,
            c.analyte,
            definition,
            f"{definition}.{c.key}",
            c.mode is Mode.ABSENT,
            c.required,
            bound(c.minimum, on),
            bound(c.maximum, on),
        )
        for i, on in enumerate(starts)
        for definition, criteria in DEFINITIONS.items()
        for c in criteria
    ]
    return pl.DataFrame(
        rows,
        schema={
            "cperiod": pl.Int64,
            "analyte": pl.String,
            "definition": pl.String,
            "key": pl.String,
            "absent": pl.Boolean,
            "required": pl.Boolean,
            "lo": pl.String,
            "hi": pl.String,
        },
        orient="row",
    ).with_columns(pl.col("lo").cast(CANON), pl.col("hi").cast(CANON))


def _verdict() -> pl.Expr:
    """Per result and criterion: 1 met, -1 broken, 0 cannot be told (see ``criteria.Mode``)."""
    value, lo, hi = pl.col("canon"), pl.col("lo"), pl.col("hi")
    detected = ~pl.col("nd")
    unbounded = lo.is_null() & hi.is_null()
    within = (lo.is_null() | (value >= lo)) & (hi.is_null() | (value <= hi))
    rl_meaningful = hi.is_not_null() & (value <= hi)
    return (
        pl.when(pl.col("absent") & detected)
        .then(_BROKEN)
        .when(pl.col("absent"))
        .then(pl.when(rl_meaningful).then(_MET).otherwise(_UNDECIDED))
        # RANGE: no level configured — a detection cannot be judged; a non-detect of an
        # optional substance is simply not contained.
        .when(unbounded)
        .then(pl.when(detected | pl.col("required")).then(_UNDECIDED).otherwise(_MET))
        .when(detected)
        .then(pl.when(within).then(_MET).otherwise(_BROKEN))
        .when(lo.is_null() & rl_meaningful)
        .then(_MET)
        .otherwise(_UNDECIDED)
        .fill_null(_UNDECIDED)
        .cast(pl.Int8)
    )


def _source_verdicts(rows: pl.DataFrame) -> pl.DataFrame:
    """The declared source of each row as a cooling-water criterion (blank: not declared)."""
    declared = (
        pl.col("source").str.strip_chars().str.to_lowercase().str.replace_all(r"[\s\-]+", "_")
    )
    return (
        rows.select("sample_id", declared.alias("source"))
        .filter(pl.col("source").is_not_null() & (pl.col("source") != ""))
        .select(
            "sample_id",
            pl.lit("cooling_water").alias("definition"),
            pl.lit(f"cooling_water.{_SOURCE_KEY}").alias("key"),
            pl.lit(True).alias("required"),
            pl.when(pl.col("source").is_in(list(COOLING_SOURCES)))
            .then(_MET)
            .otherwise(_BROKEN)
            .cast(pl.Int8)
            .alias("v"),
        )
    )


def _answer(definition: str, n_required: int) -> pl.Expr:
    """yes / no / unknown of one definition, from a sample's verdicts."""
    mine = pl.col("definition") == definition
    broken = (mine & (pl.col("v") == _BROKEN)).any()
    undecided = (mine & (pl.col("v") == _UNDECIDED)).any()
    met = pl.col("key").filter(mine & pl.col("required") & (pl.col("v") == _MET)).n_unique()
    return (
        pl.when(broken)
        .then(False)
        .when(~undecided & (met == n_required))
        .then(True)
        .otherwise(None)
        .alias(definition)
    )


@implements("§ 196-15 COOLING WATER", "§ 196-15 UNPOLLUTED WATER OR WASTE")
def classify_samples(
    rows: pl.DataFrame, params: ParameterSet, periods: list[date] | None = None
) -> pl.DataFrame:
    """Each sample's classification: ``cooling_water`` and ``unpolluted_water``, True/False/None.

    § 196-15 COOLING WATER: "The water discharged from any system of condensation, air
    conditioning, cooling, refrigeration or other, but which shall be free from odor and oil.
    It shall contain no polluting substances which could produce BOD or suspended solids, each
    in excess of 10 parts per million by weight." Yes only for a declared cooling-system
    source with BOD ≤ 10 and SS ≤ 10 measured and oil and grease not detected at a meaningful
    reporting limit.

    § 196-15 UNPOLLUTED WATER OR WASTE: "containing none of the following: free or emulsified
    grease or oil, acid of alkali, phenols ...; toxic or poisonous substances ... not more than
    10,000 parts per million by weight of dissolved solids of which not more than 2,500 ...
    as chlorides ... not more than 10 parts per million each of suspended solids and BOD. The
    color shall not exceed 50 parts per million." Yes only when all of these are shown.

    ``rows`` are the engine's valid rows (``sample_id``, ``analyte``, ``canon``, ``nd``,
    ``day`` and the optional declared ``source``). ``periods`` (the engine's) is not needed:
    the limits here are looked up on the breakpoints of their own parameters.
    """
    if rows.height == 0:
        return pl.DataFrame(schema=SAMPLE_SCHEMA)
    starts = params.breakpoints(PARAMETERS)
    table = _criteria_table(params, starts)
    relevant = table.get_column("analyte").unique().to_list()
    subset = rows.filter(pl.col("analyte").is_in(relevant)).select(
        "sample_id", "analyte", "canon", "nd", "day"
    )
    cperiod = (
        (pl.Series(starts, dtype=pl.Date).search_sorted(subset.get_column("day"), side="right") - 1)
        .clip(lower_bound=0)
        .cast(pl.Int64)
    )
    verdicts = (
        subset.with_columns(cperiod.alias("cperiod"))
        .join(table, on=["cperiod", "analyte"], how="inner")
        .select("sample_id", "definition", "key", "required", _verdict().alias("v"))
    )
    if "source" in rows.columns:
        verdicts = pl.concat([verdicts, _source_verdicts(rows)])
    n_required = {
        "cooling_water": sum(c.required for c in COOLING_CRITERIA) + 1,  # + the source
        "unpolluted_water": sum(c.required for c in UNPOLLUTED_CRITERIA),
    }
    answers = verdicts.group_by("sample_id").agg(*[_answer(d, n) for d, n in n_required.items()])
    samples = rows.select("sample_id").unique(maintain_order=True)
    return (
        samples.join(answers, on="sample_id", how="left", maintain_order="left")
        .select(list(SAMPLE_SCHEMA))
        .cast(pl.Schema(SAMPLE_SCHEMA))
    )
