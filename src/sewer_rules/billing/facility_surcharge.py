"""The extra-strength surcharge of one facility for one billing period, from stored data.

§ 196-19 E(1)(d) (the payment for the added cost of handling and treating) and § 196-19 J,
computed by :func:`~sewer_rules.ordinance.s196_19_use_of_public_sewers.surcharge.surcharge`
(which splits the period by days where a rate changes). This module turns the facility's
stored data into that rule's inputs and says plainly when it cannot:

- **concentrations**: the daily-average strength of BOD, suspended solids and grease or oil
  (mg/l) over the days billed, as :mod:`sewer_rules.billing.strength` computes it (daily
  values, then their mean; BOD and suspended solids from composites, grease or oil from grab
  samples only);
- **flow**: the meter's readings in the period (their mean rate, converted to MGD, over the
  days of the period) when the facility has a flow meter with readings; else the flow declared
  in its industrial discharge approval (gpd); else there is no flow and the surcharge
  **cannot be computed** — never zero by default;
- a pollutant with no usable result on the days billed: the surcharge cannot be computed
  either (an unmeasured strength is not normal strength; the formula charges the three
  strengths of § 196-15 NORMAL SEWAGE together, so no figure is stated rather than one that
  silently treats the unmeasured one as normal);
- a rate not configured where an excess exists: "not configured", naming the rate.

Averages are exact decimals (means to 28 significant digits); money is rounded to cents
half-up once, at the end, by the surcharge rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Context, Decimal
from fractions import Fraction

from sewer_rules.ordinance.s196_19_use_of_public_sewers.surcharge import (
    SurchargeComputation,
    SurchargeError,
    surcharge,
)
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import convert, format_decimal

#: The analytes of the office's results for each pollutant of the surcharge rule.
ANALYTES: dict[str, str] = {"bod": "bod5", "suspended_solids": "tss", "grease_oil": "oil_grease"}
_MEAN = Context(prec=28)

CHARGED = "charged"
NO_CHARGE = "no_charge"
NOT_COMPUTABLE = "not_computable"
NOT_CONFIGURED = "not_configured"

METER = "meter"
DECLARED = "declared"
NONE = "none"


@dataclass(frozen=True)
class MeterFlow:
    """A flow meter's readings in the period: their count, exact sum and unit."""

    ident: str
    unit: str
    count: int
    total: Decimal

    def mean_mgd(self) -> Decimal:
        mean = _MEAN.divide(self.total, Decimal(self.count))
        return _MEAN.plus(_decimal(convert(mean, self.unit, "MGD")))


@dataclass(frozen=True)
class FacilitySurcharge:
    status: str
    flow_source: str
    amount: Decimal | None
    message: str
    averages: Mapping[str, Decimal | None]
    counts: Mapping[str, int]
    flow_mgd: Decimal | None
    flow_basis: str
    computation: SurchargeComputation | None

    def as_dict(self) -> dict[str, object]:
        return {
            "status": self.status,
            "flow_source": self.flow_source,
            "amount": None if self.amount is None else str(self.amount),
            "message": self.message,
            "averages_mg_l": {
                k: None if v is None else format_decimal(v) for k, v in self.averages.items()
            },
            "result_counts": dict(self.counts),
            "flow_mgd": None if self.flow_mgd is None else format_decimal(self.flow_mgd),
            "flow_basis": self.flow_basis,
            "surcharge": None if self.computation is None else self.computation.as_dict(),
        }


def _decimal(x: Fraction) -> Decimal:
    return _MEAN.divide(Decimal(x.numerator), Decimal(x.denominator))


def mean(values: Sequence[Decimal]) -> Decimal | None:
    """The arithmetic mean of exact decimals (28 significant digits), None without values."""
    if not values:
        return None
    return _MEAN.divide(sum(values, Decimal(0)), Decimal(len(values)))


@implements("§ 196-19 E(1)(d)", "§ 196-19 J")
def facility_surcharge(
    start: date,
    end: date,
    params: ParameterSet,
    *,
    averages: Mapping[str, Decimal | None],
    counts: Mapping[str, int] | None = None,
    meter: MeterFlow | None = None,
    declared_flow_gpd: Decimal | None = None,
    reasons: Mapping[str, str] | None = None,
) -> FacilitySurcharge:
    """The surcharge of a facility for ``start``..``end`` from its averages and flow.

    ``averages`` maps ``bod``, ``suspended_solids``, ``grease_oil`` to the period's average
    concentration (mg/l) or None (no usable result). ``meter`` is the period's flow readings
    (preferred); ``declared_flow_gpd`` the flow declared in the approval. ``reasons`` says, per
    pollutant, why there is no average (stated in the message when it cannot be computed).
    """
    n = dict(counts or {})
    avgs = {k: averages.get(k) for k in ANALYTES}
    if meter is not None and meter.count > 0:
        flow_source, flow_mgd = METER, meter.mean_mgd()
        basis = (
            f"meter {meter.ident}: mean of {meter.count} readings in {meter.unit} = "
            f"{format_decimal(flow_mgd)} MGD"
        )
    elif declared_flow_gpd is not None:
        flow_source = DECLARED
        flow_mgd = _decimal(convert(declared_flow_gpd, "gpd", "MGD"))
        basis = (
            f"no meter readings: flow declared in the approval, "
            f"{format_decimal(declared_flow_gpd)} gpd = {format_decimal(flow_mgd)} MGD"
        )
    else:
        return FacilitySurcharge(
            NOT_COMPUTABLE,
            NONE,
            None,
            "Cannot be computed: no flow data for the period (no meter readings and no flow "
            "declared in an approval) — the surcharge is not stated, never assumed zero.",
            avgs,
            n,
            None,
            "no flow data",
            None,
        )
    missing = [k for k, v in avgs.items() if v is None]
    if missing:
        return FacilitySurcharge(
            NOT_COMPUTABLE,
            flow_source,
            None,
            "Cannot be computed: "
            + "; ".join(
                (reasons or {}).get(k) or f"no usable result in the period for {k}" for k in missing
            )
            + " (an unmeasured strength is not normal strength).",
            avgs,
            n,
            flow_mgd,
            basis,
            None,
        )
    try:
        sc = surcharge(
            start,
            end,
            params,
            bod=avgs["bod"] or Decimal(0),
            suspended_solids=avgs["suspended_solids"] or Decimal(0),
            grease_oil=avgs["grease_oil"] or Decimal(0),
            flow_mgd=flow_mgd,
        )
    except SurchargeError as e:
        return FacilitySurcharge(
            NOT_COMPUTABLE,
            flow_source,
            None,
            f"Cannot be computed: {e}",
            avgs,
            n,
            flow_mgd,
            basis,
            None,
        )
    if sc.total is None:
        names = ", ".join(sorted({r.name for r in sc.unconfigured_rates}))
        return FacilitySurcharge(
            NOT_CONFIGURED,
            flow_source,
            None,
            f"Rate not configured: {names} (record the Town Board resolution that sets it; "
            "§ 196-19 E(1)(d)).",
            avgs,
            n,
            flow_mgd,
            basis,
            sc,
        )
    status = CHARGED if sc.total > 0 else NO_CHARGE
    message = (
        f"USD {sc.total:,} for {sc.days} days"
        if status == CHARGED
        else "No excess over normal strength (§ 196-15 NORMAL SEWAGE): nothing to charge."
    )
    return FacilitySurcharge(status, flow_source, sc.total, message, avgs, n, flow_mgd, basis, sc)
