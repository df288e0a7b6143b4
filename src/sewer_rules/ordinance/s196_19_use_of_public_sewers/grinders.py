"""§ 196-19 D(3) — garbage grinders of 3/4 horsepower or more need the Superintendent's approval.

§ 196-19 D: "No person shall discharge or cause to be discharged the following described
substances, materials, waters or wastes if it appears likely in the opinion of the
engineer/Superintendent that such wastes can harm ... The substances prohibited are: ...
(3) Any garbage that has not been properly shredded. The installation and operation of any
garbage grinder equipped with a motor of 3/4 horsepower (0.76 hp metric) or greater shall be
subject to the review and approval of the Superintendent."

How the software reads it (docs/interpretations.md):

- "3/4 horsepower ... or greater" is inclusive: a motor of exactly 0.75 hp needs approval
  (``grinder.approval_horsepower``). The first-stated unit governs: 3/4 mechanical horsepower
  (550 ft·lbf/s); "0.76 hp metric" is its approximation (0.75 hp = 0.7604 metric hp).
- The rating is accepted in any spelling of a power unit the units module accepts, converted
  exactly to hp before the comparison.
- Whether garbage is "properly shredded" is decided by its definition,
  § 196-15 PROPERLY SHREDDED GARBAGE
  (:mod:`sewer_rules.ordinance.s196_15_definitions.shredded_garbage`).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from sewer_rules.citations import cite
from sewer_rules.findings import Check
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements
from sewer_rules.units import UnitError, format_decimal, measure_in

D3 = cite("§ 196-19 D(3)")
APPROVAL_HORSEPOWER = "grinder.approval_horsepower"


class GrinderError(ValueError):
    """A motor rating that cannot be read (not a power unit, negative)."""


@implements("§ 196-19 D(3)")
def check_grinder(
    rating: Decimal | Fraction, params: ParameterSet, on: date, *, unit: str = "hp"
) -> Check:
    """Whether a garbage grinder may be installed without the Superintendent's approval.

    § 196-19 D(3): "The installation and operation of any garbage grinder equipped with a motor
    of 3/4 horsepower (0.76 hp metric) or greater shall be subject to the review and approval of
    the Superintendent."

    ``passed`` is True below the threshold; False at or above it: the installation is subject
    to the Superintendent's review and approval (a decision the office records), not forbidden.
    """
    threshold = params.get(APPROVAL_HORSEPOWER, on)
    try:
        m = measure_in(rating, unit, "power", threshold.unit, "grinder motor rating")
    except UnitError as e:
        raise GrinderError(str(e)) from None
    if threshold.value is None:
        raise GrinderError(
            f"{APPROVAL_HORSEPOWER} is not configured in {params.jurisdiction} on {on}"
        )
    hp, limit, shown = m.converted, Fraction(threshold.value), m.shown()
    needs_approval = hp >= limit
    if needs_approval:
        message = (
            f"a garbage grinder motor rated {shown} is at or above "
            f"{format_decimal(threshold.value)} {threshold.unit}: its installation and operation "
            f"are subject to the review and approval of the Superintendent ({D3})"
        )
    else:
        message = (
            f"a garbage grinder motor rated {shown} is below {format_decimal(threshold.value)} "
            f"{threshold.unit}: no approval of the Superintendent is required under {D3} "
            "(the garbage must still be properly shredded, § 196-15)"
        )
    return Check(
        citation=D3,
        passed=not needs_approval,
        message=message,
        details={
            "rating": format_decimal(Fraction(rating)),
            "rating_unit": m.unit,
            "rating_hp": format_decimal(hp),
            "approval_needed": "yes" if needs_approval else "no",
            "threshold": format_decimal(threshold.value),
            "threshold_unit": threshold.unit,
            "parameter": threshold.name,
            "effective": threshold.effective.isoformat(),
            "authority": threshold.authority,
        },
    )
