"""§ 196-23 Construction of sewer mains by developers — the subdivision sewer permit fee.

§ 196-23 C: "The fee to accompany the application to the Town Planning Board for a permit to
construct public sewers shall be established for each individual case based accordingly on the
estimated cost of the sewer construction established by the Town and/or engineer."

How the software reads it: the fee is ``fee.subdivision_sewer.rate`` (a fraction, set by Town
Board resolution; *not configured* in the Wappinger file until one is recorded) times the
estimated construction cost established by the Town and/or engineer, rounded to cents half-up
at the end. The estimate itself is an input: the software does not estimate costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import format_decimal

C = cite("§ 196-23 C")
RATE = "fee.subdivision_sewer.rate"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class SubdivisionSewerFee:
    """The fee for a permit to construct public sewers, and what it rests on."""

    estimated_cost: Decimal
    rate: ParameterValue
    fee: Decimal | None
    citation: Citation

    @property
    def message(self) -> str:
        if self.fee is None:
            return (
                f"{RATE} is not configured (no Town Board rate recorded; entry in force since "
                f"{self.rate.effective}): the fee cannot be stated ({self.citation})"
            )
        assert self.rate.value is not None
        return (
            f"fee USD {self.fee:,} = {format_decimal(self.rate.value)} × estimated cost "
            f"USD {self.estimated_cost:,} ({self.citation})"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "estimated_cost": str(self.estimated_cost),
            "rate": None if self.rate.value is None else format_decimal(self.rate.value),
            "rate_effective": self.rate.effective.isoformat(),
            "rate_authority": self.rate.authority,
            "fee": None if self.fee is None else str(self.fee),
            "configured": self.fee is not None,
            "citation": str(self.citation),
            "message": self.message,
        }


@implements("§ 196-23 C")
def subdivision_sewer_fee(
    estimated_cost: Decimal, params: ParameterSet, on: date
) -> SubdivisionSewerFee:
    """The fee to accompany an application to construct public sewers, filed on ``on``.

    § 196-23 C: "The fee ... shall be established for each individual case based accordingly on
    the estimated cost of the sewer construction established by the Town and/or engineer."

    fee = ``fee.subdivision_sewer.rate`` in force on ``on`` × ``estimated_cost`` (USD), rounded
    to cents half-up; ``fee`` is None when no rate is configured.
    """
    if not estimated_cost.is_finite() or estimated_cost < 0:
        raise ValueError(
            f"an estimated construction cost must be a non-negative amount, not {estimated_cost}"
        )
    rate = params.get(RATE, on)
    fee = None
    if rate.value is not None:
        fee = (rate.value * estimated_cost).quantize(CENT, rounding=ROUND_HALF_UP)
    return SubdivisionSewerFee(estimated_cost, rate, fee, C)
