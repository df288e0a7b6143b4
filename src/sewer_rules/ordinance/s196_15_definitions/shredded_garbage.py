"""§ 196-15 PROPERLY SHREDDED GARBAGE — no particle greater than 1/2 inch.

§ 196-15 A: "PROPERLY SHREDDED GARBAGE — The wastes from the preparation, cooking and
dispensing of food that have been shredded to such a degree that all particles will be carried
freely under the flow conditions normally prevailing in public sewers, with no particle greater
than 1/2 inch (1.27 centimeters) in any dimension."

How the software reads it (docs/interpretations.md):

- "no particle greater than 1/2 inch" is inclusive of the limit: properly shredded when the
  largest particle, in its largest dimension, is ≤ 0.5 in (``shredded_garbage.max_particle``);
  1/2 inch governs, 1.27 cm is its (exact) metric statement.
- "carried freely under the flow conditions normally prevailing in public sewers" is not
  measurable from a particle size: a check that passes says the size part holds, and leaves
  the rest to inspection.
- Garbage that is not properly shredded is reviewable under § 196-19 D(3).
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

SHREDDED = cite("§ 196-15 PROPERLY SHREDDED GARBAGE")
MAX_PARTICLE = "shredded_garbage.max_particle"


class ParticleError(ValueError):
    """A particle size that cannot be read (not a length, negative)."""


@implements("§ 196-15 PROPERLY SHREDDED GARBAGE")
def check_shredded_garbage(
    largest_particle: Decimal | Fraction, params: ParameterSet, on: date, *, unit: str = "in"
) -> Check:
    """Whether garbage whose largest particle measures ``largest_particle`` is properly shredded.

    § 196-15 PROPERLY SHREDDED GARBAGE: "... shredded to such a degree that all particles will
    be carried freely under the flow conditions normally prevailing in public sewers, with no
    particle greater than 1/2 inch (1.27 centimeters) in any dimension."

    ``largest_particle`` is the largest dimension of the largest particle, in any accepted
    spelling of a length unit; ``passed`` is True when it is at most the limit.
    """
    limit = params.get(MAX_PARTICLE, on)
    try:
        m = measure_in(largest_particle, unit, "length", limit.unit, "particle size")
    except UnitError as e:
        raise ParticleError(str(e)) from None
    if limit.value is None:
        raise ParticleError(f"{MAX_PARTICLE} is not configured in {params.jurisdiction} on {on}")
    size, shown = m.converted, m.shown()
    ok = size <= Fraction(limit.value)
    if ok:
        message = (
            f"largest particle {shown} is not greater than {format_decimal(limit.value)} "
            f"{limit.unit}: properly shredded as to particle size ({SHREDDED}); that all "
            "particles are carried freely in the sewers is left to inspection"
        )
    else:
        message = (
            f"largest particle {shown} is greater than {format_decimal(limit.value)} "
            f"{limit.unit}: not properly shredded ({SHREDDED}); its discharge is reviewable "
            "under § 196-19 D(3)"
        )
    return Check(
        citation=SHREDDED,
        passed=ok,
        message=message,
        details={
            "largest_particle": format_decimal(Fraction(largest_particle)),
            "unit": m.unit,
            "largest_particle_in": format_decimal(size),
            "limit": format_decimal(limit.value),
            "limit_unit": limit.unit,
            "parameter": limit.name,
            "effective": limit.effective.isoformat(),
            "authority": limit.authority,
        },
    )
