"""A facility's surcharge for a billing period: only the days a decision or agreement covers.

Puts together the three readings the bill rests on:

- which days may be billed (:mod:`sewer_rules.billing.authority`: a § 196-19 E(1)(d) decision
  of the Superintendent or a § 196-19 J agreement in force; split into spans by record);
- the strength on those days (:mod:`sewer_rules.billing.strength`: the daily average of
  § 196-15 NORMAL SEWAGE, grease or oil from grab samples only);
- the surcharge of each span (:func:`sewer_rules.billing.facility_surcharge.facility_surcharge`
  over the rule of § 196-19 E(1)(d), J), at the span's record's rates.

A facility with no covered day is not billed. When its strength over the whole period is
abnormal it is listed as ``no_decision`` ("abnormal strength, no surcharge decision") for the
Superintendent, who decides whether to require payment (§ 196-19 E(1)(d)) or pretreatment;
otherwise there is nothing to list (``not_listed``).

A facility's line is the sum of its spans when every span has an amount (each span rounded to
cents on its own: each rests on its own record); when a span cannot be computed or meets an
unconfigured rate, the line says so and states no amount — never a part-bill silently short.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements

from .authority import Basis, Span, covered_spans, with_agreed_rates
from .facility_surcharge import (
    CHARGED,
    DECLARED,
    METER,
    NO_CHARGE,
    NONE,
    NOT_COMPUTABLE,
    NOT_CONFIGURED,
    FacilitySurcharge,
    MeterFlow,
    facility_surcharge,
)
from .strength import LABELS, PollutantStrength, Result, abnormal_pollutants, daily_values

NO_DECISION = "no_decision"
NOT_LISTED = "not_listed"
NO_DECISION_TEXT = "abnormal strength, no surcharge decision"
_FLOW_RANK = {METER: 0, DECLARED: 1, NONE: 2}


@dataclass(frozen=True)
class SpanBill:
    span: Span
    strength: Mapping[str, PollutantStrength]
    result: FacilitySurcharge

    def as_dict(self) -> dict[str, object]:
        b = self.span.basis
        return {
            "first_day": self.span.first_day.isoformat(),
            "last_day": self.span.last_day.isoformat(),
            "days": self.span.days,
            "basis": {
                "kind": b.kind,
                "id": b.ident,
                "label": b.label,
                "first_day": b.first_day.isoformat(),
                "last_day": None if b.last_day is None else b.last_day.isoformat(),
                "agreed_rates_usd_per_lb": {k: str(v) for k, v in b.rates.items()},
            },
            "strength": {k: s.as_dict() for k, s in self.strength.items()},
            **self.result.as_dict(),
        }


@dataclass(frozen=True)
class FacilityBill:
    """What the run finds for one facility: its status, amount, spans and strength."""

    start: date
    end: date
    status: str
    amount: Decimal | None
    flow_source: str
    message: str
    spans: tuple[SpanBill, ...]
    uncovered_days: int
    period_strength: Mapping[str, PollutantStrength]
    abnormal: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "status": self.status,
            "amount": None if self.amount is None else str(self.amount),
            "flow_source": self.flow_source,
            "message": self.message,
            "period": {"start": self.start.isoformat(), "end": self.end.isoformat()},
            "uncovered_days": self.uncovered_days,
            "abnormal_strength": list(self.abnormal),
            "period_strength": {k: s.as_dict() for k, s in self.period_strength.items()},
            "spans": [s.as_dict() for s in self.spans],
        }


def _combine(spans: list[SpanBill]) -> tuple[str, Decimal | None, str]:
    statuses = [s.result.status for s in spans]
    for bad in (NOT_COMPUTABLE, NOT_CONFIGURED):
        if bad in statuses:
            parts = [
                f"{s.span.first_day}–{s.span.last_day}: {s.result.message}"
                for s in spans
                if s.result.status == bad
            ]
            return bad, None, "; ".join(parts)
    total = sum((s.result.amount or Decimal(0) for s in spans), Decimal(0))
    status = CHARGED if total > 0 else NO_CHARGE
    return (
        status,
        total,
        "; ".join(
            f"{s.span.first_day}–{s.span.last_day} under {s.span.basis.label or s.span.basis.ident}: "
            f"{s.result.message}"
            for s in spans
        ),
    )


@implements("§ 196-19 E(1)(d)", "§ 196-19 J", "§ 196-15 NORMAL SEWAGE")
def bill_facility(
    start: date,
    end: date,
    params: ParameterSet,
    *,
    results: Iterable[Result],
    bases: Iterable[Basis],
    meter_for: Callable[[Span], MeterFlow | None],
    declared_flow_gpd: Decimal | None = None,
) -> FacilityBill:
    """The facility's surcharge for ``start``..``end`` (see the module's reading).

    ``meter_for`` gives a span's meter readings (the flow of its days; None without a meter).

    The strength of the period and of each span are daily averages (§ 196-15 NORMAL SEWAGE)
    of the same daily values: the results are averaged by day once, and the period and each
    span average the values of their days (:class:`~.strength.DailyValues`).
    """
    by_day = daily_values(results)
    period_strength = by_day.over()
    abnormal = tuple(abnormal_pollutants(period_strength, params, start, end))
    spans = covered_spans(start, end, bases)
    period_days = (end - start).days + 1
    uncovered = period_days - sum(s.days for s in spans)
    if not spans:
        if abnormal:
            names = ", ".join(LABELS[p] for p in abnormal)
            return FacilityBill(
                start,
                end,
                NO_DECISION,
                None,
                NONE,
                f"Abnormal strength, no surcharge decision: {names} above normal strength "
                "(§ 196-15 NORMAL SEWAGE) and no § 196-19 E(1)(d) decision or § 196-19 J "
                "agreement in force in the period — not billed; for the Superintendent.",
                (),
                uncovered,
                period_strength,
                abnormal,
            )
        return FacilityBill(
            start, end, NOT_LISTED, None, NONE, "", (), uncovered, period_strength, abnormal
        )
    bills: list[SpanBill] = []
    for span in spans:
        strength = by_day.over(span.first_day, span.last_day)
        result = facility_surcharge(
            span.first_day,
            span.last_day,
            with_agreed_rates(params, span.basis),
            averages={k: s.average for k, s in strength.items()},
            counts={k: s.used for k, s in strength.items()},
            meter=meter_for(span),
            declared_flow_gpd=declared_flow_gpd,
            reasons={k: s.message for k, s in strength.items() if s.average is None},
        )
        bills.append(SpanBill(span, strength, result))
    status, amount, message = _combine(bills)
    if uncovered:
        message += (
            f" ({uncovered} of the period's {period_days} days covered by no decision or "
            "agreement: not billed)"
        )
    flow = max((b.result.flow_source for b in bills), key=lambda f: _FLOW_RANK.get(f, 3))
    return FacilityBill(
        start,
        end,
        status,
        amount,
        flow,
        message,
        tuple(bills),
        uncovered,
        period_strength,
        abnormal,
    )
