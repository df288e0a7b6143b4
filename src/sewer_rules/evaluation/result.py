"""One laboratory result against Article VII and the facility's permit: its findings, read one
result at a time.

This is the definition of what ``sewer-use check`` and the office's imports find; the columnar
engine (``sewer_engines.evaluation``) computes the same over a million rows at once and is
tested equal to it.

- § 196-19 C and D and § 196-15 NORMAL SEWAGE: every :class:`~sewer_rules.limits.LimitRule`
  declared under its text in ``sewer_rules.ordinance`` on the result's analyte, with the limit
  in force on the sample's date. "In excess of", "higher than", "lower than" are strict: the
  limit itself is lawful. A non-detect is compared by its reporting limit: at or below an upper
  limit it complies, above it nothing can be told (``inconclusive``); for a lower limit a
  reporting limit at or below the limit proves the value below it.
- § 196-19 D(9): chlorides, dissolved solids, color and a single flow figure are judged by the
  engineer (``no_limit``), never called compliant.
- § 196-16 E: the conditions of the facility's approval (:mod:`.permit_conditions`).
- § 196-19 I and 40 CFR 403.12(g): the sample type the analysis calls for, an advisory.
- 40 CFR 136.3(e) Table II: analysed after the holding time, an advisory.
"""

from __future__ import annotations

from dataclasses import dataclass

from sewer_rules.federal.cfr136_holding_times import CITATION as HOLDING_CITATION
from sewer_rules.federal.cfr136_holding_times import HOLDING_TIME_PARAMETER
from sewer_rules.findings import Advisory, Finding, Status, UsedParameter, most_severe
from sewer_rules.hostile import shorten
from sewer_rules.limits import Bound, JudgmentRule, LimitRule
from sewer_rules.ordinance.s196_15_definitions.normal_sewage import NORMAL_STRENGTH_RULES
from sewer_rules.ordinance.s196_19_use_of_public_sewers.prohibitions import (
    JUDGMENT_RULES,
    LIMIT_RULES,
)
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import sample_type_advisory
from sewer_rules.parameters import ParameterSet
from sewer_rules.units import convert, format_decimal

from .reading import Reading

#: Every numeric limit a result is held to, in the order its findings are listed.
RULES: tuple[LimitRule, ...] = (*LIMIT_RULES, *NORMAL_STRENGTH_RULES)
#: Every dated parameter the rules read (their changes are the engines' periods).
PARAMETER_NAMES = sorted({r.parameter for r in RULES} | set(HOLDING_TIME_PARAMETER.values()))
_US_PER_HOUR = 3_600_000_000


@dataclass(frozen=True)
class ResultEvaluation:
    """A result's findings, most severe first, its advisories, and its overall status."""

    reading: Reading
    findings: tuple[Finding, ...]
    advisories: tuple[Advisory, ...]

    @property
    def status(self) -> Status:
        """The most severe finding's status; ``compliant`` when there is none."""
        return most_severe([f.status for f in self.findings])


def limit_finding(rule: LimitRule, reading: Reading, params: ParameterSet) -> Finding | None:
    """§ 196-19 C/D, § 196-15 NORMAL SEWAGE: the result against one declared limit."""
    label = reading.analyte.label
    pv = params.get(rule.parameter, reading.day)
    used = UsedParameter(rule.parameter, pv.effective)
    if pv.value is None:  # left to the Superintendent, and none set for this date
        if rule.unconfigured is None:
            return None
        message = f"no limit for {label} is configured for this date"
        return Finding(rule.unconfigured, rule.citation, message, None, None, used)
    limit = convert(pv.value, pv.unit, reading.analyte.canonical_unit)
    value, upper = reading.value, rule.bound is Bound.UPPER
    reported = f"{label} {shorten(reading.value_text)} {reading.unit.symbol}"
    phrase = f"{rule.wording} {format_decimal(pv.value)} {pv.unit}"
    if not reading.nd:
        if not (value > limit if upper else value < limit):
            return None
        status, message = rule.status, f"{reported} is {phrase}"
    elif not upper and value <= limit:  # below a reporting limit that is itself below the limit
        status, message = rule.status, f"{reported}: the reporting limit is itself {phrase}"
    elif upper and value <= limit:  # below a reporting limit at or below the limit: complies
        return None
    else:
        status = Status.INCONCLUSIVE
        message = f"{reported}: the reporting limit is not below the limit ({phrase})"
    return Finding(status, rule.citation, message, format_decimal(pv.value), pv.unit, used)


def judgment_finding(rule: JudgmentRule, reading: Reading) -> Finding | None:
    """§ 196-19 D(9): no number; the engineer judges what is unusual or excessive."""
    if reading.analyte.name not in rule.analytes:
        return None
    return Finding(Status.NO_LIMIT, rule.citation, rule.message)


def holding_time_advisory(reading: Reading, params: ParameterSet) -> Advisory | None:
    """40 CFR 136.3(e) Table II: analysed later than the analyte's maximum holding time."""
    name = HOLDING_TIME_PARAMETER.get(reading.analyte.name)
    if name is None or reading.analyzed_utc is None:
        return None
    hours = params.get(name, reading.day).value
    if hours is None:
        return None
    elapsed = reading.analyzed_utc - reading.sampled_utc
    elapsed_us = (elapsed.days * 86_400 + elapsed.seconds) * 1_000_000 + elapsed.microseconds
    if elapsed_us <= int(hours * _US_PER_HOUR):
        return None
    message = (
        f"analysed {round(elapsed_us / _US_PER_HOUR, 2)} h after sampling; "
        f"the holding time is {format_decimal(hours)} h"
    )
    return Advisory("holding_time_exceeded", HOLDING_CITATION, message)


def law_findings(reading: Reading, params: ParameterSet) -> list[Finding]:
    """The findings of Article VII on one result, in the order the rules are declared."""
    found = [limit_finding(r, reading, params) for r in RULES if r.analyte == reading.analyte.name]
    found += [judgment_finding(r, reading) for r in JUDGMENT_RULES]
    return [f for f in found if f is not None]


def advisories(reading: Reading, params: ParameterSet) -> tuple[Advisory, ...]:
    """§ 196-19 I's sample type, then 40 CFR 136's holding time."""
    notes = [
        sample_type_advisory(reading.analyte, reading.sample_type),
        holding_time_advisory(reading, params),
    ]
    return tuple(a for a in notes if a is not None)


def by_severity(findings: list[Finding]) -> tuple[Finding, ...]:
    """Most severe first; findings of one status keep the order they were found in."""
    return tuple(sorted(findings, key=lambda f: f.status.rank))
