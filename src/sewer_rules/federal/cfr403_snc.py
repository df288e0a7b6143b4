"""40 CFR 403.8(f)(2)(viii) — significant noncompliance of an industrial user.

The town runs the article inside the federal pretreatment program, which publishes once a year
the users in significant noncompliance (SNC). For each user, pollutant and limit, over a
six-month period (DOMAIN.md):

(A) chronic: 66 % or more of the measurements compared with a limit exceed it (by any amount);
(B) technical review criteria: 33 % or more of them are at or above limit × TRC, where TRC is
    1.4 for BOD, TSS and fats, oil and grease and 1.2 for every other pollutant; pH is excluded;
(F) a required report more than 45 days late (day 45 is on time).

Counting is in integers (``violations × 100 ≥ 66 × n``) and comparison in decimal, so that
``0.204 ≥ 0.17 × 1.2`` holds — the float trap: in binary floating point ``0.17 * 1.2`` is
0.20399999999999999 and a naive comparison would miss it. (C), (D), (G), (H) are set by staff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sewer_rules.citations import ExternalReference
from sewer_rules.parameters import ParameterSet

CITATION = ExternalReference("40 CFR 403.8(f)(2)(viii)")
CONVENTIONAL = frozenset({"bod5", "tss", "oil_grease"})
EXCLUDED_FROM_TRC = frozenset({"ph"})


def technical_review_criterion(analyte: str, params: ParameterSet, on: date) -> Decimal | None:
    """The TRC multiplier for an analyte (None for pH, which (B) excludes)."""
    if analyte in EXCLUDED_FROM_TRC:
        return None
    name = "snc.trc.conventional" if analyte in CONVENTIONAL else "snc.trc.other"
    return params.value(name, on)


def at_or_above_trc(
    value: Decimal, limit: Decimal, analyte: str, params: ParameterSet, on: date
) -> bool:
    """Whether a measurement is at or above limit × TRC, exactly."""
    trc = technical_review_criterion(analyte, params, on)
    return trc is not None and value >= limit * trc


@dataclass(frozen=True)
class SNCEvaluation:
    measurements: int
    exceeding: int
    at_or_above_trc: int
    chronic: bool
    technical_review: bool

    @property
    def significant(self) -> bool:
        return self.chronic or self.technical_review


def evaluate_period(
    values: Sequence[Decimal], limit: Decimal, analyte: str, params: ParameterSet, on: date
) -> SNCEvaluation:
    """Criteria (A) and (B) for one pollutant's measurements against one limit over a period."""
    n = len(values)
    exceeding = sum(1 for v in values if v > limit)
    trc_hits = sum(1 for v in values if at_or_above_trc(v, limit, analyte, params, on))
    chronic_pct = params.value("snc.chronic_percent", on)
    trc_pct = params.value("snc.trc_percent", on)
    return SNCEvaluation(
        measurements=n,
        exceeding=exceeding,
        at_or_above_trc=trc_hits,
        chronic=n > 0 and exceeding * 100 >= chronic_pct * n,
        technical_review=n > 0
        and analyte not in EXCLUDED_FROM_TRC
        and trc_hits * 100 >= trc_pct * n,
    )


def report_significantly_late(due: date, received: date, params: ParameterSet) -> bool:
    """Criterion (F): received more than 45 days after its due date (day 45 is on time)."""
    return (received - due).days > params.value("snc.report_late_days", due)
