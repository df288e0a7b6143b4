"""The strength of a facility's waste over a billing period, as § 196-15 NORMAL SEWAGE reads it.

§ 196-15 NORMAL SEWAGE: "sewage ... which has a daily average of not more than 300 parts per
million of suspended solids, not more than 240 parts per million of BOD and not more than 50
parts per million of either soluble matter (grease or oil)". Above any of them the waste is of
abnormal strength — what a § 196-19 E(1)(d) decision or a § 196-19 J agreement charges for,
never a violation by itself.

How the software reads "daily average" (the project's documented reading):

1. each day's value is the arithmetic mean of that day's usable results of the pollutant (the
   day is the sampling day in town time);
2. the period's strength is the arithmetic mean of those daily values — a day sampled five
   times weighs what a day sampled once weighs, so frequent sampling of one bad (or good) day
   does not drag the period;
3. only results of the sample type the analytical method calls for count (§ 196-19 I, 40 CFR
   403.12(g)): BOD and suspended solids from 24-hour composites; grease or oil from grab samples
   only (a composite loses the floating grease on the container's walls: 40 CFR 403.12(g)(3)
   makes oil and grease a grab parameter). A result of another type is counted as ignored and
   never averaged;
4. a non-detect (``<5``, ``ND``) is read as zero: it establishes no strength, and a charge is
   never raised by a value the laboratory did not find (the payer's side of the doubt);
5. a pollutant with no usable result on the days considered has no strength: the surcharge
   cannot be computed for it — an unmeasured strength is not normal strength, and it is never
   assumed to be.

Values in another concentration unit are converted exactly to mg/l (ppm by weight = mg/l for
these waters). Pure: no Django, exact decimals (28 significant digits for the means).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Context, Decimal, InvalidOperation
from functools import cache
from operator import itemgetter
from typing import Any, TypeVar

from sewer_rules.analytes import BY_NAME
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import UnitError, convert, format_decimal, parse_unit

_MEAN = Context(prec=28)
_R = TypeVar("_R", bound=tuple[Any, ...])

#: The surcharge's pollutants and the analyte (canonical name) each is measured by.
POLLUTANT_ANALYTES: dict[str, str] = {
    "bod": "bod5",
    "suspended_solids": "tss",
    "grease_oil": "oil_grease",
}
#: The normal-strength parameter of each pollutant (§ 196-15 NORMAL SEWAGE).
NORMAL_PARAMETERS: dict[str, str] = {
    "bod": "normal_sewage.bod",
    "suspended_solids": "normal_sewage.suspended_solids",
    "grease_oil": "normal_sewage.grease_oil",
}
LABELS: dict[str, str] = {
    "bod": "BOD",
    "suspended_solids": "suspended solids",
    "grease_oil": "grease or oil",
}
_NON_DETECT_WORDS = ("nd", "non-detect", "not detected", "bdl")


def sample_type_for(pollutant: str) -> str:
    """The sample type the method of ``pollutant`` calls for (the analyte vocabulary's)."""
    return str(BY_NAME[POLLUTANT_ANALYTES[pollutant]].sample_kind.value)


@dataclass(frozen=True)
class Result:
    """One laboratory result as stored: its sampling day (town time), analyte, sample type."""

    day: date
    analyte: str
    sample_type: str
    value_text: str
    unit: str = "mg/l"


@dataclass(frozen=True)
class PollutantStrength:
    """One pollutant's daily values and their average over the days considered."""

    pollutant: str
    sample_type: str
    daily: tuple[tuple[date, Decimal], ...]
    average: Decimal | None
    used: int
    ignored: int

    @property
    def message(self) -> str:
        label = LABELS[self.pollutant]
        if self.average is None:
            why = f"no {self.sample_type} result"
            if self.ignored:
                why += (
                    f"; {self.ignored} result(s) of another sample type ignored (the method "
                    f"calls for {self.sample_type} samples)"
                )
            return f"{label}: {why}"
        text = (
            f"{label}: {format_decimal(self.average)} mg/l, the mean of {len(self.daily)} daily "
            f"value(s) from {self.used} {self.sample_type} result(s)"
        )
        if self.ignored:
            text += f"; {self.ignored} result(s) of another sample type ignored"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "pollutant": self.pollutant,
            "sample_type": self.sample_type,
            "daily_values_mg_l": {d.isoformat(): format_decimal(v) for d, v in self.daily},
            "average_mg_l": None if self.average is None else format_decimal(self.average),
            "results_used": self.used,
            "results_ignored": self.ignored,
            "message": self.message,
        }


@cache
def _unit_symbol(text: str) -> str:
    """The symbol a result's unit spelling stands for (parsed once per spelling, not per value:
    a quarter's run reads a million results in a handful of spellings)."""
    return parse_unit(text or "mg/l").symbol


def _value_mg_l(r: Result) -> Decimal:
    """The result in mg/l; a non-detect is zero (see the module's reading 4)."""
    text = r.value_text.strip()
    if text.startswith("<") or text.lower() in _NON_DETECT_WORDS:
        return Decimal(0)
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{r.analyte} on {r.day}: {r.value_text!r} is not a number") from None
    if not value.is_finite():
        raise ValueError(f"{r.analyte} on {r.day}: {r.value_text!r} is not a number")
    try:
        unit = _unit_symbol(r.unit)
    except UnitError as e:
        raise ValueError(f"{r.analyte} on {r.day}: {e}") from None
    if unit == "mg/l":
        return value
    exact = convert(value, unit, "mg/l")
    return _MEAN.divide(Decimal(exact.numerator), Decimal(exact.denominator))


def _mean(values: Sequence[Decimal]) -> Decimal:
    return _MEAN.divide(sum(values, Decimal(0)), Decimal(len(values)))


def _between(rows: tuple[_R, ...], first: date | None, last: date | None) -> tuple[_R, ...]:
    """The rows (sorted by their day, first) of the days ``first``..``last`` (None: no bound)."""
    lo = 0 if first is None else bisect_left(rows, first, key=itemgetter(0))
    hi = len(rows) if last is None else bisect_right(rows, last, key=itemgetter(0))
    return rows[lo:hi]


@dataclass(frozen=True)
class DailyValues:
    """Each pollutant's daily values (reading 1) over a set of results, in day order.

    A day's value depends on that day's results only, so the strength over any run of days —
    the whole billing period, or one span of it under one decision or agreement — is the mean
    of the daily values of its days (reading 2). A facility's results are therefore read,
    converted to mg/l and averaged by day once, and each run of days only averages its days'
    values (:meth:`over`): the same numbers, in the same order, as averaging the run's results
    afresh, without reading every result again for every span.
    """

    #: per pollutant: (day, the day's value in mg/l, how many results it is the mean of)
    days: Mapping[str, tuple[tuple[date, Decimal, int], ...]]
    #: per pollutant: (day, how many results of another sample type it had)
    ignored: Mapping[str, tuple[tuple[date, int], ...]]

    def over(
        self, first: date | None = None, last: date | None = None
    ) -> dict[str, PollutantStrength]:
        """Each pollutant's strength over the days ``first``..``last`` (inclusive; None: no
        bound): the mean of those days' values, with the results used and ignored on them."""

        out: dict[str, PollutantStrength] = {}
        for pollutant, values in self.days.items():
            mine = _between(values, first, last)
            daily = tuple((d, v) for d, v, _ in mine)
            out[pollutant] = PollutantStrength(
                pollutant,
                sample_type_for(pollutant),
                daily,
                _mean([v for _, v in daily]) if daily else None,
                sum(n for _, _, n in mine),
                sum(n for _, n in _between(self.ignored[pollutant], first, last)),
            )
        return out


def daily_values(results: Iterable[Result]) -> DailyValues:
    """The daily values of ``results`` (§ 196-15 NORMAL SEWAGE "daily average"; readings 1, 3
    and 4 of the module): each day's usable results of each pollutant averaged; results of
    another sample type counted, per day, as ignored."""
    per_day: dict[str, dict[date, list[Decimal]]] = {k: defaultdict(list) for k in LABELS}
    ignored: dict[str, dict[date, int]] = {k: defaultdict(int) for k in LABELS}
    wanted = {a: (p, sample_type_for(p)) for p, a in POLLUTANT_ANALYTES.items()}
    for r in results:
        found = wanted.get(r.analyte)
        if found is None:
            continue
        pollutant, sample_type = found
        if r.sample_type != sample_type:
            ignored[pollutant][r.day] += 1
            continue
        per_day[pollutant][r.day].append(_value_mg_l(r))
    return DailyValues(
        {
            pollutant: tuple((d, _mean(vs), len(vs)) for d, vs in sorted(by_day.items()))
            for pollutant, by_day in per_day.items()
        },
        {pollutant: tuple(sorted(by_day.items())) for pollutant, by_day in ignored.items()},
    )


@implements("§ 196-15 NORMAL SEWAGE")
def daily_average_strength(
    results: Iterable[Result], days: Collection[date] | None = None
) -> dict[str, PollutantStrength]:
    """Each pollutant's strength: the mean of its daily values over ``days`` (None: every day
    with a result). Results of the wrong sample type are counted as ignored, never averaged.

    To average one set of results over several runs of days, compute :func:`daily_values`
    once and call :meth:`DailyValues.over` for each run (what a billing period's spans do)."""
    return daily_values(r for r in results if days is None or r.day in days).over()


@implements("§ 196-15 NORMAL SEWAGE")
def abnormal_pollutants(
    strength: Mapping[str, PollutantStrength], params: ParameterSet, start: date, end: date
) -> list[str]:
    """The pollutants whose average exceeds normal strength ("not more than": strictly above)
    on some day of ``start``..``end`` (the normal strength in force on each change date)."""
    found: list[str] = []
    for pollutant, s in strength.items():
        if s.average is None:
            continue
        name = NORMAL_PARAMETERS[pollutant]
        days = [start, *(d for d in params.breakpoints([name]) if start < d <= end)]
        for day in days:
            normal = params.get(name, day).value
            if normal is not None and s.average > normal:
                found.append(pollutant)
                break
    return found
