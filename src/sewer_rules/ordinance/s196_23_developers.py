"""§ 196-23 Construction of sewer mains by developers — the subdivision sewer permit fee.

§ 196-23 C: "The fee to accompany the application to the Town Planning Board for a permit to
construct public sewers shall be established for each individual case based accordingly on the
estimated cost of the sewer construction established by the Town and/or engineer."

How the software reads it: the fee rests on the estimated construction cost established by the
Town and/or engineer (an input: the software does not estimate costs), in one of two ways set
by Town Board resolution, both *not configured* in the Wappinger file until one is recorded:

- a bracket schedule ``fee.subdivision_sewer.schedule`` (when one is in force it is used):
  brackets ``{up_to, rate}`` read **marginally**, like a tax schedule — each bracket's rate
  applies to the part of the estimated cost that lies inside it (above the bracket before, up
  to and including its ``up_to``). An estimate exactly at a boundary lies wholly in the lower
  bracket; a cent above puts that cent in the next. Marginal brackets make the fee a
  continuous, never decreasing function of the cost (a flat rate chosen by the bracket would
  jump — and could fall — at every boundary);
- otherwise the single rate ``fee.subdivision_sewer.rate`` (a fraction) × the estimated cost.

Rounded to cents half-up once, at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import Bracket, ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import format_decimal

C = cite("§ 196-23 C")
RATE = "fee.subdivision_sewer.rate"
SCHEDULE = "fee.subdivision_sewer.schedule"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class SubdivisionSewerFee:
    """The fee for a permit to construct public sewers, and what it rests on."""

    estimated_cost: Decimal
    rate: ParameterValue
    fee: Decimal | None
    citation: Citation
    #: The bracket schedule in force (None when the jurisdiction defines none).
    schedule: ParameterValue | None = None
    #: The computation, one line per bracket when the schedule is used.
    steps: tuple[str, ...] = field(default=())

    @property
    def by_schedule(self) -> bool:
        return self.schedule is not None and self.schedule.table is not None

    @property
    def basis(self) -> ParameterValue:
        """The parameter the fee rests on: the schedule when one is in force, else the rate."""
        if self.by_schedule:
            assert self.schedule is not None
            return self.schedule
        return self.rate

    @property
    def message(self) -> str:
        if self.fee is None:
            return (
                f"{RATE} is not configured (no Town Board rate recorded; entry in force since "
                f"{self.rate.effective}), nor a bracket schedule {SCHEDULE}: the fee cannot be "
                f"stated ({self.citation})"
            )
        if self.by_schedule:
            return (
                f"fee USD {self.fee:,} by the bracket schedule (marginal) on estimated cost "
                f"USD {self.estimated_cost:,} ({self.citation})"
            )
        assert self.rate.value is not None
        return (
            f"fee USD {self.fee:,} = {format_decimal(self.rate.value)} × estimated cost "
            f"USD {self.estimated_cost:,} ({self.citation})"
        )

    def as_dict(self) -> dict[str, object]:
        sched = self.schedule if self.by_schedule else None
        return {
            "estimated_cost": str(self.estimated_cost),
            "rate": None if self.rate.value is None else format_decimal(self.rate.value),
            "rate_effective": self.rate.effective.isoformat(),
            "rate_authority": self.rate.authority,
            "schedule": None
            if sched is None or sched.table is None
            else [
                {
                    "up_to": None if b.up_to is None else str(b.up_to),
                    "rate": format_decimal(b.rate),
                }
                for b in sched.table
            ],
            "schedule_effective": None if sched is None else sched.effective.isoformat(),
            "schedule_authority": None if sched is None else sched.authority,
            "fee": None if self.fee is None else str(self.fee),
            "configured": self.fee is not None,
            "citation": str(self.citation),
            "steps": list(self.steps),
            "message": self.message,
        }


def marginal_fee(cost: Decimal, brackets: tuple[Bracket, ...]) -> tuple[Decimal, list[str]]:
    """Σ each bracket's rate × the part of ``cost`` inside it (unrounded), with the steps."""
    total = Decimal(0)
    steps: list[str] = []
    lower = Decimal(0)
    for b in brackets:
        top = cost if b.up_to is None else min(cost, b.up_to)
        part = max(top - lower, Decimal(0))
        amount = b.rate * part
        total += amount
        span = f"above USD {lower:,}" + ("" if b.up_to is None else f" up to USD {b.up_to:,}")
        steps.append(
            f"{span}: {format_decimal(b.rate)} × USD {part:,} = USD {format_decimal(amount)}"
        )
        if b.up_to is None or cost <= b.up_to:
            break
        lower = b.up_to
    return total, steps


@implements("§ 196-23 C")
def subdivision_sewer_fee(
    estimated_cost: Decimal, params: ParameterSet, on: date
) -> SubdivisionSewerFee:
    """The fee to accompany an application to construct public sewers, filed on ``on``.

    § 196-23 C: "The fee ... shall be established for each individual case based accordingly on
    the estimated cost of the sewer construction established by the Town and/or engineer."

    When ``fee.subdivision_sewer.schedule`` is in force on ``on`` (a jurisdiction without
    the parameter has none): fee = Σ over its brackets of rate × the part of the cost inside
    the bracket (marginal; a cost exactly at ``up_to`` lies wholly below it). Otherwise fee =
    ``fee.subdivision_sewer.rate`` × ``estimated_cost``. Rounded to cents half-up once; ``fee``
    is None when neither is configured.
    """
    if not estimated_cost.is_finite() or estimated_cost < 0:
        raise ValueError(
            f"an estimated construction cost must be a non-negative amount, not {estimated_cost}"
        )
    rate = params.get(RATE, on)
    schedule = params.get(SCHEDULE, on) if SCHEDULE in params.parameters else None
    fee = None
    steps: list[str] = [f"estimated cost of the sewer construction: USD {estimated_cost:,}"]
    if schedule is not None and schedule.table is not None:
        raw, bracket_steps = marginal_fee(estimated_cost, schedule.table)
        fee = raw.quantize(CENT, rounding=ROUND_HALF_UP)
        steps += bracket_steps
        steps.append(f"sum USD {format_decimal(raw)}, rounded to cents half-up: USD {fee:,}")
    elif rate.value is not None:
        raw = rate.value * estimated_cost
        fee = raw.quantize(CENT, rounding=ROUND_HALF_UP)
        steps.append(
            f"{format_decimal(rate.value)} × USD {estimated_cost:,} = USD {format_decimal(raw)}, "
            f"rounded to cents half-up: USD {fee:,}"
        )
    return SubdivisionSewerFee(estimated_cost, rate, fee, C, schedule, tuple(steps))
