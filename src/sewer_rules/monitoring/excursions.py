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

The functions below read each rule one reading at a time, in fractions: the definition. The
engine for long series (:mod:`sewer_engines.monitoring.excursions`, whole-array comparisons)
returns the same :class:`Excursion` values, and the property tests compare the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

from sewer_rules.citations import Citation, ExternalReference, cite
from sewer_rules.findings import Status, UsedParameter
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import convert

from .instants import US_PER_MINUTE, iso, local_date, local_midnight_us, minutes, show, value_on
from .runs import meter_max_gap, runs_of
from .slugs import Reading, used_parameters

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

#: The limits the article sets for each continuously monitored parameter.
LIMITS: dict[str, tuple[Limit, ...]] = {
    "ph": (PH_MINIMUM, PH_MAXIMUM),
    "temperature": (TEMPERATURE_MAXIMUM,),
}


def has_limits(parameter: str) -> bool:
    """Whether the article limits the parameter (pH, temperature)."""
    return parameter in LIMITS


@dataclass(frozen=True)
class Excursion:
    """A run of readings (indices ``first..last``) beyond one limit, from ``start`` to
    ``end`` (µs), its most extreme value, and the limit (in the series' unit) it passed."""

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
class Beyond:
    """One limit applied to a series: its excursions, and how many readings it judged (the
    rest fell on dates with no value of the limit in force)."""

    excursions: list[Excursion]
    judged: int
    unjudged: int


@dataclass(frozen=True)
class ExcursionResult:
    excursions: list[Excursion]
    judged: int
    unjudged: int
    used: list[UsedParameter] = field(default_factory=list)


def limit_in_unit(params: ParameterSet, limit: Limit, on: date, unit: str) -> Fraction | None:
    """The limit in force on ``on`` in the series' unit (converted exactly), None if none."""
    value = value_on(params, limit.parameter, on)
    if value is None:
        return None
    return convert(value, params.parameter(limit.parameter).unit, unit)


def beyond(
    readings: Sequence[Reading],
    unit: str,
    params: ParameterSet,
    tz: str,
    limit: Limit,
    minimum_gap_us: int | None = None,
) -> Beyond:
    """The runs of readings beyond ``limit`` (strictly: a reading at the limit is lawful),
    each reading judged by the value in force on its date in the town."""
    times = [r.at for r in readings]
    passed: dict[int, Fraction] = {}
    judged = 0
    for i, r in enumerate(readings):
        x = limit_in_unit(params, limit, local_date(r.at, tz), unit)
        if x is None:
            continue
        judged += 1
        if (Fraction(r.value) > x) if limit.above else (Fraction(r.value) < x):
            passed[i] = x
    out = []
    for run in runs_of(times, sorted(passed), meter_max_gap(times, params, tz, minimum_gap_us)):
        part = [readings[j].value for j in range(run.first, run.last + 1)]
        extreme = max(part) if limit.above else min(part)
        out.append(
            Excursion(run.start, run.end, run.first, run.last, extreme, passed[run.first], limit)
        )
    return Beyond(out, judged, len(readings) - judged)


@implements("§ 196-19 C(3)")
def ph_below_minimum(
    readings: Sequence[Reading], unit: str, params: ParameterSet, tz: str
) -> Beyond:
    """§ 196-19 C(3): runs of pH lower than 5.5 (``ph.minimum``) — prohibited."""
    return beyond(readings, unit, params, tz, PH_MINIMUM)


@implements("§ 196-19 D(8)")
def ph_above_maximum(
    readings: Sequence[Reading], unit: str, params: ParameterSet, tz: str
) -> Beyond:
    """§ 196-19 D(8): runs of pH in excess of 9.5 (``ph.maximum``) — for review."""
    return beyond(readings, unit, params, tz, PH_MAXIMUM)


@implements("§ 196-19 D(1)")
def temperature_above_maximum(
    readings: Sequence[Reading], unit: str, params: ParameterSet, tz: str
) -> Beyond:
    """§ 196-19 D(1): runs of temperature higher than 150 °F (``temperature.maximum``) —
    for review."""
    return beyond(readings, unit, params, tz, TEMPERATURE_MAXIMUM)


def excursions_of(
    readings: Sequence[Reading],
    parameter: str,
    unit: str,
    params: ParameterSet,
    tz: str,
    minimum_gap_us: int | None = None,
) -> ExcursionResult:
    """Every excursion of a series beyond each of the article's limits for its parameter,
    by start time; a reading counts as judged when some limit judged it."""
    found: list[Excursion] = []
    judged, unjudged = 0, len(readings)
    used: list[UsedParameter] = []
    days = sorted({local_date(r.at, tz) for r in readings})
    for limit in LIMITS.get(parameter, ()):
        got = beyond(readings, unit, params, tz, limit, minimum_gap_us)
        found.extend(got.excursions)
        judged, unjudged = max(judged, got.judged), min(unjudged, got.unjudged)
        used.extend(used_parameters(params, [limit.parameter], days))
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
    parameter: str,
    first_us: int,
    last_us: int,
    found: list[Excursion],
    params: ParameterSet,
    tz: str,
) -> list[Monthly]:
    """Per calendar month (town time) from the reading at ``first_us`` to that at ``last_us``
    (and the end of the last excursion): minutes out of range, the longest excursion touching
    the month, and whether the 40 CFR 401.17 allowance is exceeded (pH only)."""
    first = local_date(first_us, tz)
    last = local_date(last_us, tz)
    if found:
        last = max(last, local_date(max(e.end for e in found) - 1, tz))
    out = []
    for month in _months(first, last):
        ms = local_midnight_us(month, tz)
        me = local_midnight_us(_next_month(month), tz)
        inside = [(e, min(e.end, me) - max(e.start, ms)) for e in found]
        touching = [(e, overlap) for e, overlap in inside if overlap > 0]
        total = sum(overlap for _, overlap in touching)
        longest = max((e.duration for e, _ in touching), default=0)
        exceeded = False
        if parameter == "ph":
            monthly = value_on(params, "allowance.ph_monthly_minutes", month)
            single = value_on(params, "allowance.ph_single_minutes", month)
            exceeded = (monthly is not None and total > Fraction(monthly) * US_PER_MINUTE) or (
                single is not None and longest > Fraction(single) * US_PER_MINUTE
            )
        out.append(Monthly(month.strftime("%Y-%m"), total, longest, exceeded, len(touching)))
    return out


def apply_ph_allowance(
    parameter: str, found: list[Excursion], months: list[Monthly], tz: str
) -> list[Excursion]:
    """40 CFR 401.17 (only when asked for): a pH excursion is excused when every month it
    touches stays within the allowance."""
    if parameter != "ph":
        return found
    over = {m.month for m in months if m.allowance_exceeded}
    out = []
    for e in found:
        touched = _months(local_date(e.start, tz), local_date(max(e.start, e.end - 1), tz))
        ok = all(d.strftime("%Y-%m") not in over for d in touched)
        out.append(replace(e, excused=ok))
    return out
