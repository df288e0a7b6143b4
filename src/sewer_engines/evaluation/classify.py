"""§ 196-15 COOLING WATER and UNPOLLUTED WATER OR WASTE over a whole table of results.

The reading of the definitions, one sample at a time, is
:func:`sewer_rules.evaluation.classify.classify_sample`; this module applies the same data
(``COOLING_CRITERIA``, ``UNPOLLUTED_CRITERIA``, ``COOLING_SOURCES``) to a whole results table at
once, in polars, with exact decimal comparisons, and is tested equal to it.

Each sample gets three-state answers, as nullable booleans: ``True`` (yes), ``False`` (no),
``None`` (unknown). ``yes`` needs every required criterion measured and met and nothing
measured left undecided; one result that breaks one criterion makes ``no``; anything else is
``unknown`` — never ``yes`` by default.
"""

from __future__ import annotations

from datetime import date

import polars as pl

from sewer_rules.evaluation.classify import DEFINITIONS, PARAMETERS
from sewer_rules.ordinance.s196_15_definitions.cooling_water import COOLING_SOURCES
from sewer_rules.ordinance.s196_15_definitions.criteria import Mode
from sewer_rules.parameters import ParameterSet

from .prepare import CANON

# DEFINITIONS and PARAMETERS are the rule's own (every dated parameter the classification
# reads, with its own breakpoints: the engine's periods are those of the limit rules, which
# these parameters need not share).

_MET, _UNDECIDED, _BROKEN = 1, 0, -1
_PREFIX = {"cooling_water": "cw", "unpolluted_water": "uw"}

SAMPLE_SCHEMA = {
    "sample_id": pl.String,
    "cooling_water": pl.Boolean,
    "unpolluted_water": pl.Boolean,
}


def _criteria_table(params: ParameterSet, starts: list[date]) -> pl.DataFrame:
    """One row per period × analyte, with the criterion each definition applies to it (its
    mode, whether required, and bounds, prefixed ``cw_`` / ``uw_``; null where none applies)."""

    def bound(name: str | None, on: date) -> str | None:
        if name is None:
            return None
        value = params.get(name, on).value
        return None if value is None else str(value)

    analytes = sorted({c.analyte for cs in DEFINITIONS.values() for c in cs})
    columns: dict[str, list[object]] = {"cperiod": [], "analyte": []}
    schema: dict[str, pl.DataType] = {"cperiod": pl.Int64(), "analyte": pl.String()}
    for prefix in _PREFIX.values():
        for col, dtype in (
            ("absent", pl.Boolean()),
            ("required", pl.Boolean()),
            ("bit", pl.Int32()),
        ):
            columns[f"{prefix}_{col}"] = []
            schema[f"{prefix}_{col}"] = dtype
        for col in ("lo", "hi"):
            columns[f"{prefix}_{col}"] = []
            schema[f"{prefix}_{col}"] = pl.String()
    for i, on in enumerate(starts):
        for analyte in analytes:
            columns["cperiod"].append(i)
            columns["analyte"].append(analyte)
            for definition, criteria in DEFINITIONS.items():
                prefix = _PREFIX[definition]
                mine = [c for c in criteria if c.analyte == analyte]
                if len(mine) > 1:
                    raise ValueError(f"{definition}: several criteria read {analyte}")
                c = mine[0] if mine else None
                columns[f"{prefix}_absent"].append(None if c is None else c.mode is Mode.ABSENT)
                columns[f"{prefix}_required"].append(None if c is None else c.required)
                codes = [r.key for r in criteria if r.required]
                columns[f"{prefix}_bit"].append(
                    1 << codes.index(c.key) if c is not None and c.required else None
                )
                columns[f"{prefix}_lo"].append(None if c is None else bound(c.minimum, on))
                columns[f"{prefix}_hi"].append(None if c is None else bound(c.maximum, on))
    return pl.DataFrame(columns, schema=schema).with_columns(
        *[pl.col(f"{p}_{b}").cast(CANON) for p in _PREFIX.values() for b in ("lo", "hi")]
    )


def _verdict(prefix: str) -> pl.Expr:
    """Per result: 1 meets its criterion, -1 breaks it, 0 cannot be told, null none applies
    (see ``criteria.Mode``)."""
    value, lo, hi = pl.col("canon"), pl.col(f"{prefix}_lo"), pl.col(f"{prefix}_hi")
    absent, required = pl.col(f"{prefix}_absent"), pl.col(f"{prefix}_required")
    detected = ~pl.col("nd")
    unbounded = lo.is_null() & hi.is_null()
    within = (lo.is_null() | (value >= lo)) & (hi.is_null() | (value <= hi))
    rl_meaningful = hi.is_not_null() & (value <= hi)
    verdict = (
        pl.when(absent & detected)
        .then(_BROKEN)
        .when(absent)
        .then(pl.when(rl_meaningful).then(_MET).otherwise(_UNDECIDED))
        # RANGE: no level configured — a detection cannot be judged; a non-detect of an
        # optional substance is simply not contained.
        .when(unbounded)
        .then(pl.when(detected | required).then(_UNDECIDED).otherwise(_MET))
        .when(detected)
        .then(pl.when(within).then(_MET).otherwise(_BROKEN))
        .when(lo.is_null() & rl_meaningful)
        .then(_MET)
        .otherwise(_UNDECIDED)
        .fill_null(_UNDECIDED)
    )
    return pl.when(absent.is_null()).then(None).otherwise(verdict).cast(pl.Int8)


def _source_verdict() -> pl.Expr:
    """The declared source of a row as a cooling-water criterion (blank: not declared)."""
    declared = (
        pl.col("source").str.strip_chars().str.to_lowercase().str.replace_all(r"[\s\-]+", "_")
    )
    return (
        pl.when(declared.is_null() | (declared == ""))
        .then(None)
        .when(declared.is_in(list(COOLING_SOURCES)))
        .then(_MET)
        .otherwise(_BROKEN)
        .cast(pl.Int8)
    )


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
    source = pl.col("source") if "source" in rows.columns else pl.lit(None, pl.String)
    cperiod = (
        (pl.Series(starts, dtype=pl.Date).search_sorted(rows.get_column("day"), side="right") - 1)
        .clip(lower_bound=0)
        .cast(pl.Int64)
    )
    n_required = {d: sum(c.required for c in DEFINITIONS[d]) for d in DEFINITIONS}
    # The criteria of each row by position in the table (period-major, then analyte: see
    # _criteria_table), not by a join: a join hashes every row's two keys and copies its columns.
    analytes = table.get_column("analyte").head(table.height // len(starts)).to_list()
    code = rows.get_column("analyte").replace_strict(
        {a: i for i, a in enumerate(analytes)}, default=None, return_dtype=pl.Int64
    )
    position = cperiod * len(analytes) + code
    criteria = table.drop("cperiod", "analyte").gather(position)
    judged = (
        rows.select("row", "sample_id", "canon", "nd", source.alias("source"))
        .with_columns(criteria)
        .select(
            "row",
            "sample_id",
            _source_verdict().alias("src_v"),
            *[_verdict(p).alias(f"{p}_v") for p in _PREFIX.values()],
            # the required criterion a row meets, if it meets one, as its bit
            *[
                pl.when(_verdict(p) == _MET).then(pl.col(f"{p}_bit")).alias(f"{p}_bit")
                for p in _PREFIX.values()
            ],
        )
    )
    # Per sample: the lowest verdict of each definition (-1 broken, 0 undecided, 1 all met,
    # null nothing judged) and which of its required criteria were met (a bit each). When no
    # two results share a sample (64-bit hashes all distinct: a collision only takes the general
    # path) each result is its sample, and nothing is grouped.
    verdicts = ["src_v", *[f"{p}_v" for p in _PREFIX.values()]]
    bits = [f"{p}_bit" for p in _PREFIX.values()]
    if judged.get_column("sample_id").hash().n_unique() == judged.height:
        per_sample = judged
    else:
        per_sample = (
            judged.group_by("sample_id")
            .agg(
                pl.col("row").min(),
                *[pl.col(v).min() for v in verdicts],
                *[pl.col(b).bitwise_or() for b in bits],
            )
            .sort("row")
        )

    def all_met(p: str) -> pl.Expr:
        definition = next(d for d, q in _PREFIX.items() if q == p)
        met = pl.col(f"{p}_bit").fill_null(0).bitwise_count_ones()
        return met == n_required[definition]

    cw, uw, src = pl.col("cw_v"), pl.col("uw_v"), pl.col("src_v")
    cooling = (
        pl.when((cw == _BROKEN) | (src == _BROKEN))
        .then(False)
        .when((cw == _MET) & (src == _MET) & all_met("cw"))
        .then(True)
        .otherwise(None)
    )
    unpolluted = (
        pl.when(uw == _BROKEN)
        .then(False)
        .when((uw == _MET) & all_met("uw"))
        .then(True)
        .otherwise(None)
    )
    return per_sample.select(
        "sample_id",
        cooling.alias("cooling_water"),
        unpolluted.alias("unpolluted_water"),
    ).cast(pl.Schema(SAMPLE_SCHEMA))
