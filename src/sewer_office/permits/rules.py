"""The seam to the law as code: plain facts in, :mod:`sewer_rules` determinations out.

Only this module imports :mod:`sewer_rules` for the permits. Every determination reads the
dated values of the town whose record it is about (``town``: the record's parcel's, or for a
new application the parcel or facility it is filed for — :func:`sewer_office.core.town_law.town_of`),
never the primary's: in an office of several member towns a fee, a term or a daily fine is
that town's resolution. Results are turned into JSON-ready dictionaries stored with the record
together with the parameter version they were computed under.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any, NotRequired, TypedDict

import polars as pl

from sewer_engines.evaluation.engine import evaluate_table
from sewer_office.accounts.towns import values_of
from sewer_rules.analytes import ANALYTES, UnknownAnalyte
from sewer_rules.analytes import resolve as resolve_analyte
from sewer_rules.ordinance.s196_16_subdivision_sewers import subdivision_sewer_duty as duty
from sewer_rules.ordinance.s196_18_building_sewers.checks import check_building_sewer
from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import permit_fee
from sewer_rules.ordinance.s196_19_use_of_public_sewers.grinders import check_grinder
from sewer_rules.ordinance.s196_19_use_of_public_sewers.plant_temperature import (
    plant_influent_temperature,
)
from sewer_rules.ordinance.s196_23_developers import subdivision_sewer_fee
from sewer_rules.parameters import ParameterError, ParameterSet, ParameterValue


def params(town: str) -> ParameterSet:
    """``town``'s dated values (cached by the loader): the town of the record at hand, named
    by the caller — there is no default, so no record is computed under another town's."""
    return values_of(town)


class StoredBracket(TypedDict):
    """One bracket of a schedule as stored: the rate up to an amount (None: above the last)."""

    up_to: str | None
    rate: str


class StoredParameter(TypedDict):
    """A dated parameter value as a record stores it (JSON): what the determination used."""

    name: str
    value: str | None
    unit: str
    effective: str
    reference: str
    authority: str
    table: NotRequired[list[StoredBracket]]


def parameter_dict(pv: ParameterValue) -> StoredParameter:
    """A dated parameter value as stored with a decision or a charge: name, value, unit,
    effective date, reference, authority — and a bracket schedule's brackets, as written."""
    out: StoredParameter = {
        "name": pv.name,
        "value": None if pv.value is None else str(pv.value),
        "unit": pv.unit,
        "effective": pv.effective.isoformat(),
        "reference": pv.reference,
        "authority": pv.authority,
    }
    if pv.table is not None:
        out["table"] = [
            {"up_to": None if b.up_to is None else str(b.up_to), "rate": str(b.rate)}
            for b in pv.table
        ]
        out["value"] = pv.text
    return out


# --- § 196-18 building sewers -------------------------------------------------------------


def building_sewer_fee(town: str, permit_class: int, on: date) -> ParameterValue:
    """The permit and inspection fee in force on the application date (§ 196-18 B)."""
    return permit_fee(permit_class, params(town), on)


def building_sewer_checks(town: str, design: dict[str, Any], on: date) -> list[dict[str, Any]]:
    """The design checks of § 196-18 D, F, G, H on the declared design, as dictionaries."""
    checks = check_building_sewer(BuildingSewerDesign.from_dict(design), params(town), on)
    return [c.as_dict() for c in checks]


# --- § 196-23 C subdivision sewers ---------------------------------------------------------


def subdivision_fee(town: str, estimated_cost: Decimal, on: date) -> Any:
    """The fee for a permit to construct public sewers (a ``SubdivisionSewerFee``)."""
    return subdivision_sewer_fee(estimated_cost, params(town), on)


def subdivision_sewer_duty(
    town: str, smallest_plot_acres: Decimal, in_sewer_district: bool, on: date
) -> dict[str, Any]:
    """§ 196-16 G: whether the owners shall construct the subdivision's sewers, and why."""
    return duty(smallest_plot_acres, in_sewer_district, params(town), on).as_dict()


# --- § 196-19 D(3) grinders ---------------------------------------------------------------


def grinder_check(town: str, horsepower: Decimal, on: date) -> dict[str, Any]:
    """Whether a grinder of ``horsepower`` needs the Superintendent's approval."""
    return check_grinder(horsepower, params(town), on).as_dict()


# --- § 196-16 D–F, § 196-19 C/D/E: a declared industrial discharge ---------------------------


def evaluate_declared_discharge(
    *,
    town: str,
    on: date,
    concentrations: dict[str, str],
    flow_gpd: Decimal | None,
    temperature_f: Decimal | None,
    source: str | None = None,
) -> dict[str, Any]:
    """Evaluate declared characteristics as one sample of the discharge.

    The declared concentrations go through the same engine as laboratory results
    (``sewer-use check``), so the engineer sees the findings the ordinance and the
    Superintendent's limits give (prohibited, review, abnormal strength, no limit). ``source``
    is the declared source of the water (``cooling_system`` for industrial cooling water),
    which § 196-15 COOLING WATER needs before a sample can be cooling water. Flow and
    temperature give the plant influent temperature of § 196-19 C(5). Sample-type and holding
    time advisories do not apply to declared values and are left out. ``town`` is the
    facility's: its limits and its plant's values.
    """

    p = params(town)
    rows: list[dict[str, Any]] = []
    stamp = f"{on.isoformat()}T12:00"
    for i, (analyte, value) in enumerate(sorted(concentrations.items()), start=2):
        unit = "SU" if analyte == "ph" else "mg/l"
        rows.append(
            {
                "row": i,
                "sample_id": "declared",
                "sampled_at": stamp,
                "sample_type": "composite",
                "parameter": analyte,
                "value": str(value),
                "unit": unit,
                "source": source or "",
            }
        )
    if temperature_f is not None:
        rows.append(
            {
                "row": len(rows) + 2,
                "sample_id": "declared",
                "sampled_at": stamp,
                "sample_type": "grab",
                "parameter": "temperature",
                "value": str(temperature_f),
                "unit": "°F",
                "source": source or "",
            }
        )
    findings: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    samples: dict[str, Any] = {}
    if rows:
        table = pl.DataFrame(
            rows, schema={k: pl.Int64 if k == "row" else pl.String for k in rows[0]}
        )
        ev = evaluate_table(table, p)
        by_row = {r["row"]: r for r in rows}
        for f in ev.findings.to_dicts():
            src = by_row.get(f["row"], {})
            findings.append(
                {
                    "parameter": src.get("parameter", ""),
                    "value": src.get("value", ""),
                    "unit": src.get("unit", ""),
                    "status": f["status"],
                    "citation": f["citation"],
                    "limit": f["limit"],
                    "limit_unit": f["limit_unit"],
                    "message": f["message"],
                    "limit_parameter": f["parameter"],
                    "effective": f["effective"].isoformat() if f["effective"] else None,
                }
            )
        errors = [
            {"parameter": by_row.get(e["row"], {}).get("parameter", ""), "message": e["message"]}
            for e in ev.errors.to_dicts()
        ]
        if ev.samples.height:
            samples = {k: v for k, v in ev.samples.to_dicts()[0].items() if k != "sample_id"}
    influent: dict[str, Any] | None = None
    if flow_gpd is not None and temperature_f is not None:
        checked: dict[str, Any] = plant_influent_temperature(
            flow_gpd, "gpd", temperature_f, "°F", p, on
        ).as_dict()
        influent = checked
        if influent.get("finding"):
            findings.append({"parameter": "plant influent temperature", **influent["finding"]})
    statuses = [f["status"] for f in findings]
    return {
        "on": on.isoformat(),
        "parameters_version": p.version,
        "findings": findings,
        "errors": errors,
        "classification": samples,
        "plant_influent": influent,
        "prohibited": "prohibited" in statuses,
        "review": "review" in statuses,
    }


# --- 40 CFR 403.8(f)(1)(iii): the term of an industrial approval ---------------------------

APPROVAL_TERM = "industrial_approval.term_years"


def approval_term(town: str, on: date) -> ParameterValue:
    """The longest term of an industrial approval granted on ``on`` (five years, federal)."""
    return params(town).get(APPROVAL_TERM, on)


def longest_term(town: str, on: date) -> int | None:
    """The longest term in years on ``on``; None when none is configured then (a paper
    approval decided before the parameter's first value)."""
    try:
        value = approval_term(town, on).value
    except ParameterError:
        return None
    return int(value) if value is not None else None


def approval_expiry(decided_on: date, years: int) -> date:
    """The last day in force of an approval of ``years`` granted on ``decided_on``: the day
    before the anniversary (a 29 February grant has its anniversary on 1 March)."""
    try:
        anniversary = decided_on.replace(year=decided_on.year + years)
    except ValueError:  # 29 February into a common year
        anniversary = date(decided_on.year + years, 3, 1)
    return anniversary - timedelta(days=1)


# --- § 196-22 B: the daily fine an approval's penalties statement names ---------------------

DAILY_FINE = "fine.daily_amount"


def daily_fine(town: str, on: date) -> ParameterValue | None:
    """The daily fine on conviction in force on ``on`` (§ 196-22 B: the § 122-20 Y amount) in
    ``town``, or None when its values record no such parameter."""
    try:
        return params(town).get(DAILY_FINE, on)
    except ParameterError:
        return None


# --- 40 CFR 403.8(f)(1)(iii)(B)(4): the pollutants of a self-monitoring requirement ------------


def analyte(text: str) -> tuple[str, str, str] | None:
    """A parameter name as the laboratory vocabulary reads it: (canonical name, label, how it
    must be sampled: grab, composite or any — 40 CFR 403.12(g)(3)); None when unknown."""
    try:
        a = resolve_analyte(text)
    except UnknownAnalyte:
        return None
    return a.name, a.label, str(a.sample_kind)


def analyte_choices() -> list[tuple[str, str]]:
    """Every pollutant the laboratory vocabulary knows, as (canonical name, label)."""
    return [(a.name, a.label) for a in ANALYTES]
