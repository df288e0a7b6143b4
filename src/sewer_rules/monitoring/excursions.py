"""Excursions of a continuously monitored pH or temperature beyond the article's limits.

§ 196-19 C(3)
    "[No person shall discharge ...] Any waters or wastes having a pH lower than 5.5 or having
    any other corrosive property capable of causing damage or hazard to structures, equipment
    and personnel or the wastewater facilities."
    → an absolute prohibition: a reading with pH < 5.5 is ``prohibited``; 5.5 is lawful.

§ 196-19 D(8)
    "Any waters or wastes having a pH in excess of 9.5."
    → prohibited where the engineer/Superintendent finds harm likely: pH > 9.5 is flagged
    ``review``; 9.5 is lawful.

§ 196-19 D(1)
    "Any liquid or vapor having a temperature higher than 150° F. (65° C.)."
    → temperature > 150 °F is flagged ``review`` (150 °F governs; 65 °C is its approximation).
    A series logged in °C is compared with the limit converted exactly (65.5̅ °C).

An excursion is a maximal run of readings beyond one limit, measured like a slug run (each
reading stands until the next; a gap longer than the maximum gap ends it at the last
reading plus the usual interval). Each has its start, end, duration, extreme value, citation
and status. The limits are the dated parameters ``ph.minimum``, ``ph.maximum`` and
``temperature.maximum``, read for each reading's date.

Monthly totals, and 40 CFR 401.17 (DOMAIN.md). Where continuous pH monitoring is governed by
40 CFR 401.17, excursions are permitted provided the total time out of range in a calendar
month is at most 7 h 26 min (``allowance.ph_monthly_minutes``, 446) and no single excursion
exceeds 60 minutes (``allowance.ph_single_minutes``). The article adopts no such allowance —
every reading out of range counts — so it is off by default. The monthly totals are always
computed (time out of range within each calendar month in town time, an excursion crossing
midnight at a month's end split between the months; the longest excursion touching the
month), with ``allowance_exceeded`` telling whether 401.17's conditions fail for pH. With the
allowance applied, the pH excursions of a month within it are marked ``excused``: still
listed, as the Superintendent must see them, but not counted as violations. The allowance is
for pH only: for temperature ``allowance_exceeded`` is always false and nothing is excused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from sewer_rules.citations import Citation, ExternalReference, cite
from sewer_rules.findings import Status, UsedParameter
from sewer_rules.parameters import ParameterError, ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import convert

from .kernel import Judgement, LimitRule, limit_hits
from .series import (
    US_PER_MINUTE,
    Cadence,
    Series,
    iso,
    local_date,
    local_midnight_us,
    minutes,
    runs,
    scaled_ceil,
    scaled_floor,
    segments,
    show,
    value_on,
)

CFR_401_17 = ExternalReference("40 CFR 401.17")


@dataclass(frozen=True)
class Limit:
    """A limit of the article as a rule: its parameter, citation, status, and direction."""

    parameter: str
    citation: Citation
    status: Status
    above: bool


PH_MINIMUM = Limit("ph.minimum", cite("§ 196-19 C(3)"), Status.PROHIBITED, above=False)
PH_MAXIMUM = Limit("ph.maximum", cite("§ 196-19 D(8)"), Status.REVIEW, above=True)
TEMPERATURE_MAXIMUM = Limit("temperature.maximum", cite("§ 196-19 D(1)"), Status.REVIEW, above=True)


@dataclass(frozen=True)
class Excursion:
    start: int
    end: int
    first: int
    last: int
    extreme: Decimal
    limit: Fraction
    rule: Limit
    excused: bool = False

    @property
    def duration(self) -> int:
        return self.end - self.start

    @property
    def status(self) -> Status:
        return self.rule.status

    @property
    def readings(self) -> int:
        return self.last - self.first + 1

    def as_dict(self, tz: str) -> dict[str, object]:
        return {
            "start": iso(self.start, tz),
            "end": iso(self.end, tz),
            "duration_minutes": minutes(self.duration),
            "extreme": show(self.extreme),
            "status": str(self.rule.status),
            "citation": str(self.rule.citation),
            "limit": show(self.limit),
            "readings": self.readings,
            "excused": self.excused,
        }


@dataclass(frozen=True)
class ExcursionResult:
    excursions: list[Excursion]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)


def _limit_in_series_unit(
    params: ParameterSet, limit: Limit, on: date, unit: str
) -> Fraction | None:
    value = value_on(params, limit.parameter, on)
    if value is None:
        return None
    return convert(value, params.parameter(limit.parameter).unit, unit)


def _beyond(
    series: Series, params: ParameterSet, tz: str, cad: Cadence, limit: Limit
) -> tuple[list[Excursion], Judgement]:
    segs = segments(series.t, params, [limit.parameter], tz)
    rules: list[LimitRule] = []
    limits: list[Fraction | None] = []
    for seg in segs:
        x = _limit_in_series_unit(params, limit, seg.on, series.unit)
        limits.append(x)
        bound = None
        if x is not None:
            bound = scaled_floor(x, series.scale) if limit.above else scaled_ceil(x, series.scale)
        rules.append(LimitRule(seg.start, seg.stop, bound, limit.above))
    judgement = limit_hits(series.v, rules)
    found = runs(series.t, judgement.hits, cad)
    starts = np.array([s.start for s in segs], dtype=np.int64)
    out: list[Excursion] = []
    v = series.v
    for i in range(len(found)):
        first, last = int(found.first[i]), int(found.last[i])
        seg_limit = limits[int(np.searchsorted(starts, first, side="right")) - 1]
        assert seg_limit is not None  # only judged readings qualify
        part = v[first : last + 1]
        extreme = int(part.max()) if limit.above else int(part.min())
        out.append(
            Excursion(
                start=int(found.start[i]),
                end=int(found.end[i]),
                first=first,
                last=last,
                extreme=series.decimal(extreme),
                limit=seg_limit,
                rule=limit,
            )
        )
    return out, judgement


@implements("§ 196-19 C(3)")
def ph_below_minimum(
    series: Series, params: ParameterSet, tz: str, cad: Cadence
) -> tuple[list[Excursion], Judgement]:
    """§ 196-19 C(3): runs of pH lower than 5.5 (``ph.minimum``) — prohibited."""
    return _beyond(series, params, tz, cad, PH_MINIMUM)


@implements("§ 196-19 D(8)")
def ph_above_maximum(
    series: Series, params: ParameterSet, tz: str, cad: Cadence
) -> tuple[list[Excursion], Judgement]:
    """§ 196-19 D(8): runs of pH in excess of 9.5 (``ph.maximum``) — for review."""
    return _beyond(series, params, tz, cad, PH_MAXIMUM)


@implements("§ 196-19 D(1)")
def temperature_above_maximum(
    series: Series, params: ParameterSet, tz: str, cad: Cadence
) -> tuple[list[Excursion], Judgement]:
    """§ 196-19 D(1): runs of temperature higher than 150 °F (``temperature.maximum``) —
    for review."""
    return _beyond(series, params, tz, cad, TEMPERATURE_MAXIMUM)


Rule = Callable[[Series, ParameterSet, str, Cadence], tuple[list[Excursion], Judgement]]

#: The limits the article sets for each continuously monitored parameter.
RULES: dict[str, tuple[tuple[Rule, Limit], ...]] = {
    "ph": ((ph_below_minimum, PH_MINIMUM), (ph_above_maximum, PH_MAXIMUM)),
    "temperature": ((temperature_above_maximum, TEMPERATURE_MAXIMUM),),
}


def has_limits(series: Series) -> bool:
    return series.parameter in RULES


def excursions(series: Series, params: ParameterSet, tz: str, cad: Cadence) -> ExcursionResult:
    """Every excursion of the series beyond each of the article's limits, by start time."""
    found: list[Excursion] = []
    judged = 0
    unjudged = len(series)
    used: list[UsedParameter] = []
    for rule, limit in RULES.get(series.parameter, ()):
        exc, judgement = rule(series, params, tz, cad)
        found.extend(exc)
        judged = max(judged, judgement.judged)
        unjudged = min(unjudged, judgement.unjudged)
        for seg in segments(series.t, params, [limit.parameter], tz):
            try:
                pv = params.get(limit.parameter, seg.on)
            except ParameterError:
                continue
            used.append(UsedParameter(limit.parameter, pv.effective, pv.authority))
    found.sort(key=lambda e: (e.start, e.rule.parameter))
    return ExcursionResult(found, judged, unjudged, used)


@dataclass(frozen=True)
class Monthly:
    """A calendar month of one series: time out of range, longest excursion, 401.17."""

    month: str
    excursion_us: int
    longest_us: int
    allowance_exceeded: bool
    excursions: int

    def as_dict(self) -> dict[str, object]:
        return {
            "month": self.month,
            "excursion_minutes": minutes(self.excursion_us),
            "longest_excursion_minutes": minutes(self.longest_us),
            "allowance_exceeded": self.allowance_exceeded,
            "excursions": self.excursions,
        }


def _months(first: date, last: date) -> list[date]:
    out = []
    y, m = first.year, first.month
    while (y, m) <= (last.year, last.month):
        out.append(date(y, m, 1))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def _next_month(d: date) -> date:
    return date(d.year + 1, 1, 1) if d.month == 12 else date(d.year, d.month + 1, 1)


def monthly_totals(
    series: Series, found: list[Excursion], params: ParameterSet, tz: str
) -> list[Monthly]:
    """Per calendar month (town time) covered by the series: minutes out of range, the
    longest excursion, and whether the 40 CFR 401.17 allowance is exceeded (pH only)."""
    if len(series) == 0:
        return []
    first = local_date(int(series.t[0]), tz)
    last = local_date(int(series.t[-1]), tz)
    if found:
        last = max(last, local_date(max(e.end for e in found) - 1, tz))
    starts = np.array([e.start for e in found], dtype=np.int64)
    ends = np.array([e.end for e in found], dtype=np.int64)
    out = []
    for month in _months(first, last):
        ms = local_midnight_us(month, tz)
        me = local_midnight_us(_next_month(month), tz)
        overlap = np.clip(np.minimum(ends, me) - np.maximum(starts, ms), 0, None)
        touching = overlap > 0
        total = int(overlap.sum())
        longest = int((ends - starts)[touching].max()) if bool(touching.any()) else 0
        exceeded = False
        if series.parameter == "ph":
            monthly = value_on(params, "allowance.ph_monthly_minutes", month)
            single = value_on(params, "allowance.ph_single_minutes", month)
            exceeded = (monthly is not None and total > Fraction(monthly) * US_PER_MINUTE) or (
                single is not None and longest > Fraction(single) * US_PER_MINUTE
            )
        out.append(Monthly(month.strftime("%Y-%m"), total, longest, exceeded, int(touching.sum())))
    return out


def apply_ph_allowance(
    series: Series, found: list[Excursion], months: list[Monthly], tz: str
) -> list[Excursion]:
    """40 CFR 401.17 (only when asked for): a pH excursion is excused when every month it
    touches stays within the allowance."""
    if series.parameter != "ph":
        return found
    over = {m.month for m in months if m.allowance_exceeded}
    out = []
    for e in found:
        touched = _months(local_date(e.start, tz), local_date(max(e.start, e.end - 1), tz))
        ok = all(d.strftime("%Y-%m") not in over for d in touched)
        out.append(replace(e, excused=ok))
    return out
