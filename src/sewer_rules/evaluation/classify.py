"""§ 196-15 COOLING WATER and UNPOLLUTED WATER OR WASTE — classifying a sample as a whole.

Both definitions speak of a water, not of one result: every result of a sample is read
together. The limits are dated parameters (``cooling_water.*``, ``unpolluted_water.*``).
"""

from __future__ import annotations

from datetime import date

import polars as pl

from ..parameters import ParameterSet
from ..sections import implements
from .prepare import CANON

#: Substances whose mere presence makes a water polluted (§ 196-15 UNPOLLUTED WATER OR WASTE:
#: "free or emulsified grease or oil, ... phenols ..., toxic or poisonous substances").
POLLUTANTS = (
    "oil_grease",
    "phenols",
    "cyanide_total",
    "chromium",
    "copper",
    "zinc",
    "nickel",
    "lead",
)

_COOLING = {"bod5": "cooling_water.bod_maximum", "tss": "cooling_water.suspended_solids_maximum"}
_UNPOLLUTED = {
    "dissolved_solids": "unpolluted_water.dissolved_solids_maximum",
    "chloride": "unpolluted_water.chlorides_maximum",
    "tss": "unpolluted_water.suspended_solids_maximum",
    "bod5": "unpolluted_water.bod_maximum",
    "color": "unpolluted_water.color_maximum",
}


def _maxima(
    params: ParameterSet, periods: list[date], table: dict[str, str], prefix: str
) -> pl.DataFrame:
    rows = [
        (i, analyte, str(params.value(name, on)))
        for i, on in enumerate(periods)
        for analyte, name in table.items()
    ]
    return pl.DataFrame(
        rows,
        schema={"period": pl.Int64, "analyte": pl.String, f"{prefix}_max": pl.String},
        orient="row",
    ).with_columns(pl.col(f"{prefix}_max").cast(CANON))


def _verdict(prefix: str) -> pl.Expr:
    """Per result: True passes (≤ max, or non-detect at a reporting limit ≤ max), False fails
    (measured above the max), None cannot be told (non-detect above the max) or not relevant."""
    mx = pl.col(f"{prefix}_max")
    return (
        pl.when(mx.is_null())
        .then(None)
        .when(pl.col("canon") <= mx)
        .then(True)
        .when(pl.col("nd"))
        .then(None)
        .otherwise(False)
    )


@implements("§ 196-15 COOLING WATER", "§ 196-15 UNPOLLUTED WATER OR WASTE")
def classify_samples(rows: pl.DataFrame, params: ParameterSet, periods: list[date]) -> pl.DataFrame:
    """Each sample's classification: ``cooling_water`` (true/false), ``unpolluted_water`` (true/false/null).

    § 196-15 COOLING WATER: "free from odor and oil. It shall contain no polluting substances
    which could produce BOD or suspended solids, each in excess of 10 parts per million by
    weight." True only when BOD and suspended solids were measured and neither exceeds 10, and
    oil and grease, when measured, was not detected. Odor is not formalized (not measured).

    § 196-15 UNPOLLUTED WATER OR WASTE: none of grease or oil, phenols, toxic substances;
    dissolved solids ≤ 10,000, chlorides ≤ 2,500, suspended solids ≤ 10, BOD ≤ 10, color ≤ 50
    ppm. False when any measured value breaks one of these, a listed substance is detected, or
    the pH shows acid or alkali beyond the article's own range (§ 196-19 C(3), D(8)); true when
    all five were measured and pass and nothing listed was detected; otherwise null (unknown).
    """
    if rows.height == 0:
        return pl.DataFrame(
            schema={
                "sample_id": pl.String,
                "cooling_water": pl.Boolean,
                "unpolluted_water": pl.Boolean,
            }
        )
    base = rows.select("sample_id", "row", "analyte", "canon", "nd", "period")
    cooling = _maxima(params, periods, _COOLING, "cw")
    unpolluted = _maxima(params, periods, _UNPOLLUTED, "uw")
    ph = pl.DataFrame(
        [
            (i, str(params.value("ph.minimum", on)), str(params.value("ph.maximum", on)))
            for i, on in enumerate(periods)
        ],
        schema={"period": pl.Int64, "ph_min": pl.String, "ph_max": pl.String},
        orient="row",
    ).with_columns(pl.col("ph_min").cast(CANON), pl.col("ph_max").cast(CANON))
    per_row = (
        base.join(cooling, on=["period", "analyte"], how="left")
        .join(unpolluted, on=["period", "analyte"], how="left")
        .join(ph, on="period", how="left")
        .with_columns(
            _verdict("cw").alias("cw"),
            _verdict("uw").alias("uw"),
            (pl.col("analyte").is_in(POLLUTANTS) & ~pl.col("nd")).alias("pollutant_found"),
            (pl.col("analyte").eq("oil_grease") & ~pl.col("nd")).alias("oil_found"),
            (
                pl.col("analyte").eq("ph")
                & ((pl.col("canon") < pl.col("ph_min")) | (pl.col("canon") > pl.col("ph_max")))
            ).alias("acid_alkali"),
        )
    )

    def all_pass(analyte: str) -> list[pl.Expr]:
        verdicts = pl.col("cw").filter(pl.col("analyte") == analyte)
        return [
            verdicts.len().alias(f"n_{analyte}"),
            verdicts.fill_null(False).all().alias(f"ok_{analyte}"),
        ]

    grouped = per_row.group_by("sample_id", maintain_order=True).agg(
        # cooling water
        *all_pass("bod5"),
        *all_pass("tss"),
        pl.col("oil_found").any().alias("oil_found"),
        # unpolluted water
        (pl.col("uw") == False).any().alias("uw_fail"),  # noqa: E712 - null-aware comparison
        pl.col("pollutant_found").any().alias("pollutant_found"),
        pl.col("acid_alkali").any().alias("acid_alkali"),
        pl.col("analyte").filter(pl.col("uw") == True).n_unique().alias("uw_passed"),  # noqa: E712
        (pl.col("analyte").is_in(list(_UNPOLLUTED)) & pl.col("uw").is_null())
        .any()
        .alias("uw_unknown"),
    )
    n_required = len(_UNPOLLUTED)
    is_cooling = (
        (pl.col("n_bod5") > 0) & pl.col("ok_bod5") & (pl.col("n_tss") > 0) & pl.col("ok_tss")
    )
    return grouped.select(
        "sample_id",
        (is_cooling & ~pl.col("oil_found")).alias("cooling_water"),
        pl.when(pl.col("uw_fail") | pl.col("pollutant_found") | pl.col("acid_alkali"))
        .then(False)
        .when((pl.col("uw_passed") == n_required) & ~pl.col("uw_unknown"))
        .then(True)
        .otherwise(None)
        .alias("unpolluted_water"),
    )
