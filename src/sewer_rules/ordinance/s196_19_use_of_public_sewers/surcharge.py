"""§ 196-19 E(1)(d) and J — the extra-strength surcharge for a billing period.

§ 196-19 E(1): "If any waters or wastes are discharged ... which waters contain the substances
or possess the characteristics enumerated in Subsection D ... the Superintendent may: ...
(d) Require payment to cover the added cost of handling and treating the wastes not covered by
existing taxes or sewer charges under the provisions of Subsection J of this section."

§ 196-19 J: "No statement contained in this section shall be construed as preventing any
special agreement or arrangement between the Town and any industrial concern whereby an
industrial waste of unusual strength or character may be accepted by the Town for treatment,
subject to payment therefor, by the industrial concern. ..."

§ 196-15 NORMAL SEWAGE fixes what is *not* of unusual strength: "a daily average of not more
than 300 parts per million of suspended solids, not more than 240 parts per million of BOD and
not more than 50 parts per million of either soluble matter (grease or oil)".

How the software computes the payment (DOMAIN.md, "Extra-strength surcharge"):

- pounds = mg/l × million gallons × ``surcharge.pounds_factor`` (8.34: a million gallons of
  water weighs 8.34 million pounds, and mg/l = parts per million by weight);
- only the excess of the billing period's average concentration over normal strength is
  charged (``normal_sewage.bod``, ``.suspended_solids``, ``.grease_oil``) — never a credit
  below it;
- per pollutant, at the dated ``surcharge.rate.*`` ($/lb) set by Town Board resolution;
- the period (first and last day inclusive) is split by days wherever a rate, a normal
  strength or the factor changes; the flow is given as an average (MGD, × the days of each part)
  or as a total volume (MG, shared among the parts in proportion to their days);
- a pollutant with no excess costs nothing even where its rate is not configured; where it has
  an excess and no rate is configured, the charge is "not configured" and no total is stated;
- exact arithmetic throughout (fractions); money rounded to cents, half-up, only at the end.

Example (DOMAIN.md): 0.020 MGD for 30 days, BOD 600, SS 250, grease 80 mg/l → excess BOD
1,801.44 lb, SS 0 lb, grease 150.12 lb.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import format_decimal

CENT = Decimal("0.01")

SURCHARGE = cite("§ 196-19 E(1)(d)")
SPECIAL_AGREEMENT = cite("§ 196-19 J")
NORMAL_SEWAGE = cite("§ 196-15 NORMAL SEWAGE")

POUNDS_FACTOR = "surcharge.pounds_factor"


@dataclass(frozen=True)
class Pollutant:
    key: str
    label: str
    normal_parameter: str
    rate_parameter: str


POLLUTANTS: tuple[Pollutant, ...] = (
    Pollutant("bod", "BOD", "normal_sewage.bod", "surcharge.rate.bod"),
    Pollutant(
        "suspended_solids",
        "Suspended solids",
        "normal_sewage.suspended_solids",
        "surcharge.rate.suspended_solids",
    ),
    Pollutant(
        "grease_oil", "Grease or oil", "normal_sewage.grease_oil", "surcharge.rate.grease_oil"
    ),
)


class SurchargeError(ValueError):
    """A billing period or flow that cannot be computed (end before start, negative flow...)."""


@dataclass(frozen=True)
class PollutantPart:
    """One pollutant over one part of the period (constant parameters)."""

    pollutant: Pollutant
    concentration: Decimal
    normal: ParameterValue
    excess: Decimal
    pounds: Fraction
    rate: ParameterValue

    @property
    def charge(self) -> Fraction | None:
        """pounds × rate, exact; 0 without excess; None when an excess meets no configured rate."""
        if self.pounds == 0:
            return Fraction(0)
        if self.rate.value is None:
            return None
        return self.pounds * Fraction(self.rate.value)


@dataclass(frozen=True)
class PeriodPart:
    """Consecutive days of the billing period during which no parameter changes."""

    first_day: date
    last_day: date
    days: int
    volume_mg: Fraction
    pounds_factor: ParameterValue
    pollutants: tuple[PollutantPart, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "first_day": self.first_day.isoformat(),
            "last_day": self.last_day.isoformat(),
            "days": self.days,
            "volume_mg": _num(self.volume_mg),
            "pounds_factor": _param(self.pounds_factor),
            "pollutants": [
                {
                    "pollutant": p.pollutant.key,
                    "concentration_mg_l": format_decimal(p.concentration),
                    "normal_mg_l": _opt(p.normal.value),
                    "normal": _param(p.normal),
                    "excess_mg_l": format_decimal(p.excess),
                    "pounds": _num(p.pounds),
                    "rate_usd_per_lb": _opt(p.rate.value),
                    "rate": _param(p.rate),
                    "charge_usd": None if p.charge is None else _num(p.charge),
                }
                for p in self.pollutants
            ],
        }


@dataclass(frozen=True)
class PollutantTotal:
    pollutant: Pollutant
    concentration: Decimal
    pounds: Fraction
    charge: Fraction | None

    @property
    def charge_cents(self) -> Decimal | None:
        return None if self.charge is None else _cents(self.charge)


@dataclass(frozen=True)
class SurchargeComputation:
    """The surcharge of one billing period: its parts, per-pollutant pounds and charges, total."""

    jurisdiction: str
    start: date
    end: date
    days: int
    flow_mgd: Decimal | None
    volume_mg: Fraction
    parts: tuple[PeriodPart, ...]
    totals: tuple[PollutantTotal, ...]
    total: Decimal | None
    citations: tuple[Citation, ...]

    @property
    def unconfigured_rates(self) -> tuple[ParameterValue, ...]:
        """Rates that an excess met but that are not configured, once each."""
        seen: dict[tuple[str, date], ParameterValue] = {}
        for part in self.parts:
            for p in part.pollutants:
                if p.charge is None:
                    seen.setdefault((p.rate.name, p.rate.effective), p.rate)
        return tuple(seen.values())

    def pounds(self, key: str) -> Fraction:
        return next(t.pounds for t in self.totals if t.pollutant.key == key)

    def as_dict(self) -> dict[str, object]:
        return {
            "jurisdiction": self.jurisdiction,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "days": self.days,
            "flow_mgd": None if self.flow_mgd is None else format_decimal(self.flow_mgd),
            "volume_mg": _num(self.volume_mg),
            "parts": [p.as_dict() for p in self.parts],
            "pollutants": [
                {
                    "pollutant": t.pollutant.key,
                    "concentration_mg_l": format_decimal(t.concentration),
                    "pounds": _num(t.pounds),
                    "charge_usd": None if t.charge is None else _num(t.charge),
                }
                for t in self.totals
            ],
            "unconfigured_rates": [_param(r) for r in self.unconfigured_rates],
            "total_usd": None if self.total is None else str(self.total),
            "citations": [str(c) for c in self.citations],
        }


@implements("§ 196-19 E(1)(d)")
def excess_pounds(
    concentration: Decimal, normal: Decimal, volume_mg: Fraction, pounds_factor: Decimal
) -> tuple[Decimal, Fraction]:
    """The excess over normal strength (mg/l) and its weight in pounds.

    § 196-19 E(1)(d): the Superintendent may "require payment to cover the added cost of
    handling and treating the wastes" — the added cost is that of the strength above normal
    sewage (§ 196-15 NORMAL SEWAGE), never a credit below it:
    excess = max(0, concentration − normal); pounds = excess × million gallons × factor.
    """
    excess = max(concentration - normal, Decimal(0))
    return excess, Fraction(excess) * volume_mg * Fraction(pounds_factor)


@implements("§ 196-19 E(1)(d)", "§ 196-19 J")
def surcharge(
    start: date,
    end: date,
    params: ParameterSet,
    *,
    bod: Decimal,
    suspended_solids: Decimal,
    grease_oil: Decimal,
    flow_mgd: Decimal | None = None,
    volume_mg: Decimal | None = None,
) -> SurchargeComputation:
    """The extra-strength surcharge of a billing period ``start``..``end`` (inclusive).

    § 196-19 E(1)(d): "Require payment to cover the added cost of handling and treating the
    wastes not covered by existing taxes or sewer charges under the provisions of Subsection J".
    § 196-19 J: "... an industrial waste of unusual strength or character may be accepted by the
    Town for treatment, subject to payment therefor, by the industrial concern."

    Concentrations are the period's average, in mg/l. Give the flow either as ``flow_mgd``
    (average million gallons per day) or ``volume_mg`` (total million gallons), not both.
    """
    if end < start:
        raise SurchargeError(f"the billing period ends ({end}) before it starts ({start})")
    if (flow_mgd is None) == (volume_mg is None):
        raise SurchargeError("give the flow either as average MGD or as total million gallons")
    concentrations = {"bod": bod, "suspended_solids": suspended_solids, "grease_oil": grease_oil}
    for key, value in concentrations.items():
        if value < 0:
            raise SurchargeError(f"{key}: a concentration cannot be negative ({value})")
    days = (end - start).days + 1
    if flow_mgd is not None:
        if flow_mgd < 0:
            raise SurchargeError(f"flow cannot be negative ({flow_mgd} MGD)")
        total_volume = Fraction(flow_mgd) * days
    else:
        assert volume_mg is not None
        if volume_mg < 0:
            raise SurchargeError(f"volume cannot be negative ({volume_mg} MG)")
        total_volume = Fraction(volume_mg)

    names = [
        POUNDS_FACTOR,
        *(n for p in POLLUTANTS for n in (p.normal_parameter, p.rate_parameter)),
    ]
    changes = [d for d in params.breakpoints(names) if start < d <= end]
    starts = [start, *changes]
    ends = [d - timedelta(days=1) for d in changes] + [end]

    parts: list[PeriodPart] = []
    for first, last in zip(starts, ends, strict=True):
        n = (last - first).days + 1
        part_volume = total_volume * Fraction(n, days)
        factor = params.get(POUNDS_FACTOR, first)
        if factor.value is None:
            raise SurchargeError(
                f"{POUNDS_FACTOR} is not configured in {params.jurisdiction} on {first}"
            )
        rows: list[PollutantPart] = []
        for p in POLLUTANTS:
            normal = params.get(p.normal_parameter, first)
            if normal.value is None:
                raise SurchargeError(
                    f"{p.normal_parameter} is not configured in {params.jurisdiction} on {first}"
                )
            excess, pounds = excess_pounds(
                concentrations[p.key], normal.value, part_volume, factor.value
            )
            rows.append(
                PollutantPart(
                    p,
                    concentrations[p.key],
                    normal,
                    excess,
                    pounds,
                    params.get(p.rate_parameter, first),
                )
            )
        parts.append(PeriodPart(first, last, n, part_volume, factor, tuple(rows)))

    totals: list[PollutantTotal] = []
    for i, p in enumerate(POLLUTANTS):
        rows_i = [part.pollutants[i] for part in parts]
        charges = [r.charge for r in rows_i]
        charge = (
            None
            if any(c is None for c in charges)
            else sum((c or Fraction(0) for c in charges), Fraction(0))
        )
        totals.append(
            PollutantTotal(
                p, concentrations[p.key], sum((r.pounds for r in rows_i), Fraction(0)), charge
            )
        )

    total: Decimal | None = None
    if all(t.charge is not None for t in totals):
        total = _cents(sum((t.charge or Fraction(0) for t in totals), Fraction(0)))
    return SurchargeComputation(
        jurisdiction=params.jurisdiction,
        start=start,
        end=end,
        days=days,
        flow_mgd=flow_mgd,
        volume_mg=total_volume,
        parts=tuple(parts),
        totals=tuple(totals),
        total=total,
        citations=(SURCHARGE, SPECIAL_AGREEMENT, NORMAL_SEWAGE),
    )


def _cents(x: Fraction) -> Decimal:
    """An exact amount rounded to cents, half-up (money is rounded only at the end)."""
    return Decimal(round_half_up(x * 100)).scaleb(-2)


def round_half_up(x: Fraction) -> int:
    """The integer nearest ``x``, halves away from zero."""
    sign = -1 if x < 0 else 1
    ax = abs(x)
    floor = ax.numerator // ax.denominator
    return sign * (floor + (1 if ax - floor >= Fraction(1, 2) else 0))


def _num(x: Fraction) -> str:
    """An exact quantity as text: exact when it terminates, else to 6 places."""
    return format_decimal(x)


def _opt(d: Decimal | None) -> str | None:
    return None if d is None else format_decimal(d)


def _param(p: ParameterValue) -> dict[str, object]:
    return {
        "name": p.name,
        "value": _opt(p.value),
        "unit": p.unit,
        "effective": p.effective.isoformat(),
        "authority": p.authority,
        "reference": p.reference,
    }
