"""What a surcharge rests on: a § 196-19 E(1)(d) decision or a § 196-19 J agreement, by days.

§ 196-19 E(1): where wastes of the kinds of Subsection D are discharged "the Superintendent
may: ... (d) Require payment to cover the added cost of handling and treating the wastes not
covered by existing taxes or sewer charges under the provisions of Subsection J". § 196-19 J
allows "any special agreement or arrangement between the Town and any industrial concern
whereby an industrial waste of unusual strength or character may be accepted by the Town for
treatment, subject to payment therefor". Abnormal strength alone (§ 196-15 NORMAL SEWAGE)
charges nothing: the payment is due only where the Superintendent has so decided, in a recorded
and dated decision, or where an agreement is in force — and only for the days it covers.

The reading applied (documented in docs/surcharges.md):

- a day of the billing period is covered when a decision or an agreement is in force on it
  (from its first day to its last, inclusive; an open end runs on);
- where both are in force on a day the agreement governs it: it is the specific arrangement
  the Town made with that concern, with its own terms;
- the period is split into spans of consecutive days governed by the same record; each span is
  billed on its own days' values (the strength of the samples taken on its days, the flow of its
  days), under its own record's terms — the Town charges only for what was discharged while a
  decision or agreement was in force, measured then;
- an agreement that states its own rates ($/lb) bills its days at those rates; one that does
  not bills them at the Town Board's dated rates (``surcharge.rate.*``).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal

from sewer_rules.parameters import DatedValue, Parameter, ParameterSet
from sewer_rules.sections import implements

DECISION = "decision"
AGREEMENT = "agreement"
#: The rate parameter an agreement's own rate replaces, per pollutant.
RATE_PARAMETERS: dict[str, str] = {
    "bod": "surcharge.rate.bod",
    "suspended_solids": "surcharge.rate.suspended_solids",
    "grease_oil": "surcharge.rate.grease_oil",
}


@dataclass(frozen=True)
class Basis:
    """A decision or agreement as the rule needs it: which, its days, its agreed rates."""

    kind: str
    ident: str
    first_day: date
    last_day: date | None
    label: str = ""
    rates: Mapping[str, Decimal] = field(default_factory=dict)

    def in_force(self, day: date) -> bool:
        return self.first_day <= day and (self.last_day is None or day <= self.last_day)


@dataclass(frozen=True)
class Span:
    """Consecutive days of a billing period governed by one basis."""

    first_day: date
    last_day: date
    basis: Basis

    @property
    def days(self) -> int:
        return (self.last_day - self.first_day).days + 1

    def day_set(self) -> set[date]:
        return {self.first_day + timedelta(days=i) for i in range(self.days)}


def _governing(day: date, bases: list[Basis]) -> Basis | None:
    in_force = [b for b in bases if b.in_force(day)]
    if not in_force:
        return None
    # an agreement governs over a decision; among the same kind, the latest to start
    return max(in_force, key=lambda b: (b.kind == AGREEMENT, b.first_day, b.ident))


@implements("§ 196-19 E(1)(d)", "§ 196-19 J")
def covered_spans(start: date, end: date, bases: Iterable[Basis]) -> list[Span]:
    """The spans of ``start``..``end`` (inclusive) covered by a decision or agreement, in order;
    days covered by none are in no span (nothing is billed for them).

    Which record governs a day depends only on which records are in force on it, and that
    changes only on a record's first day or the day after its last: the period is cut at those
    days and each piece is decided once, by its first day — the same spans as deciding day by
    day, without walking the quarter."""
    chosen = list(bases)
    cuts = {start}
    for b in chosen:
        cuts.add(b.first_day)
        if b.last_day is not None and b.last_day < end:
            cuts.add(b.last_day + timedelta(days=1))
    firsts = sorted(d for d in cuts if start <= d <= end)
    spans: list[Span] = []
    for i, first in enumerate(firsts):
        last = firsts[i + 1] - timedelta(days=1) if i + 1 < len(firsts) else end
        basis = _governing(first, chosen)
        if basis is None:
            continue
        if spans and spans[-1].basis == basis and spans[-1].last_day == first - timedelta(1):
            spans[-1] = replace(spans[-1], last_day=last)
        else:
            spans.append(Span(first, last, basis))
    return spans


def with_agreed_rates(params: ParameterSet, basis: Basis) -> ParameterSet:
    """``params`` with the agreement's own rates in force from its first day (a decision, or an
    agreement without rates, leaves the Town Board's dated rates)."""
    if not basis.rates:
        return params
    changed = dict(params.parameters)
    for pollutant, rate in basis.rates.items():
        name = RATE_PARAMETERS[pollutant]
        old = params.parameter(name)
        before = tuple(v for v in old.values if v.effective < basis.first_day)
        agreed = DatedValue(basis.first_day, rate, authority=basis.label or basis.ident)
        changed[name] = Parameter(
            old.name, old.description, "§ 196-19 J", old.unit, (*before, agreed)
        )
    return replace(params, parameters=changed)
