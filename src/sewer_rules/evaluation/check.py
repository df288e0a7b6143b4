"""``sewer-use check`` read plainly: a results file, row by row, against the law and the permit.

Each row is read (:mod:`.reading`) or refused with its reasons; each valid result is held to
Article VII (:mod:`.result`) and to the instantaneous limits of its facility's approval; then
each day's results to the approval's daily maxima and each month's to its monthly averages
(:mod:`.permit_conditions`); each sample is classified (:mod:`.classify`). A result's status is
its most severe finding.

This is the reference: ``sewer_engines.evaluation.evaluate_table`` computes the same report
column-wise and is tested equal to it (tests/test_evaluation_engine_equals_reference.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from sewer_rules.findings import Finding
from sewer_rules.parameters import ParameterSet

from .classify import SampleClassification, classify_sample
from .permit_conditions import (
    MonthlyAverage,
    daily_finding,
    instantaneous_finding,
    monthly_averages,
)
from .permit_limits import PermitLimits
from .reading import Reading, RowError, read_row
from .result import PARAMETER_NAMES, ResultEvaluation, advisories, by_severity, law_findings


@dataclass(frozen=True)
class CheckReport:
    """Everything ``sewer-use check`` reports of a file."""

    results: tuple[ResultEvaluation, ...]
    errors: tuple[RowError, ...]
    samples: tuple[SampleClassification, ...]
    monthly: tuple[MonthlyAverage, ...]


def first_day(params: ParameterSet) -> date:
    """The first day the rules have parameters for: a sample before it is refused."""
    return params.breakpoints(PARAMETER_NAMES)[0]


def check(
    records: Iterable[Mapping[str, str | None]],
    params: ParameterSet,
    limits: PermitLimits | None = None,
    first_row: int = 2,
) -> CheckReport:
    """Every row of a results file (rows numbered from ``first_row``: the header is line 1)."""
    start = first_day(params)
    readings: list[Reading] = []
    errors: list[RowError] = []
    for row, record in enumerate(records, start=first_row):
        read = read_row(row, record, params.timezone, start)
        if isinstance(read, Reading):
            readings.append(read)
        else:
            errors.extend(read)
    permit = limits.limits if limits is not None else ()
    found: dict[int, list[Finding]] = {r.row: law_findings(r, params) for r in readings}
    for lim in permit:
        if lim.limit_type.startswith("instantaneous_"):
            for r in readings:
                if lim.in_force(r.facility, r.analyte.name, r.day):
                    finding = instantaneous_finding(lim, r)
                    if finding is not None:
                        found[r.row].append(finding)
    for lim in permit:
        if lim.limit_type == "daily_maximum":
            days: dict[date, list[Reading]] = defaultdict(list)
            for r in readings:
                if lim.in_force(r.facility, r.analyte.name, r.day):
                    days[r.day].append(r)
            for day, day_results in days.items():
                finding = daily_finding(lim, day, day_results)
                if finding is not None:
                    for r in day_results:
                        found[r.row].append(finding)
    results = tuple(
        ResultEvaluation(r, by_severity(found[r.row]), advisories(r, params)) for r in readings
    )
    samples: dict[str, list[Reading]] = defaultdict(list)
    for r in readings:
        samples[r.sample_id].append(r)
    return CheckReport(
        results=results,
        errors=tuple(sorted(errors, key=lambda e: e.row)),
        samples=tuple(classify_sample(rs, params) for rs in samples.values()),
        monthly=tuple(monthly_averages(limits, readings)),
    )
