"""§ 196-16 G — when the owners of a subdivision shall construct its sewers.

§ 196-16 G: "The owners of property being developed as a subdivision having plot sizes less
than one acre per dwelling unit or being in a legal sewer district, sewer improvement area or
other municipal sewer system shall construct such sewers and appurtenances thereto as are shown
on the map or plot and the plans, profiles and drawings accompanying said plot, approved by the
Dutchess County Health Department and the engineer and filed in the office of the Planning
Board of the town. ..."

How the software reads it:

- The duty applies when either condition holds: the smallest plot is *less than* one acre per
  dwelling unit (``subdivision.plot_size_minimum``; exactly one acre does not by itself require
  sewers), or the property is in a sewer district, sewer improvement area or other municipal
  sewer system (the office's service area of the property).
- The plot size is per dwelling unit: a plot with two dwelling units counts half its acreage.
  The office records the smallest lot and reads it as one dwelling unit per lot.
- What the sewers must be (the plans approved by County Health and the engineer, filed with the
  Planning Board) is recorded by the office, not computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sewer_rules.citations import Citation, cite
from sewer_rules.parameters import ParameterSet, ParameterValue
from sewer_rules.sections import implements
from sewer_rules.units import format_decimal

G = cite("§ 196-16 G")
PLOT_SIZE_MINIMUM = "subdivision.plot_size_minimum"


class SubdivisionError(ValueError):
    """A plot size that cannot be judged (negative, no dwelling unit)."""


@dataclass(frozen=True)
class SubdivisionSewerDuty:
    """Whether § 196-16 G requires the owners to construct the subdivision's sewers, and why."""

    acres_per_dwelling_unit: Decimal
    in_sewer_district: bool
    minimum: ParameterValue
    small_plots: bool
    citation: Citation

    @property
    def required(self) -> bool:
        return self.small_plots or self.in_sewer_district

    @property
    def message(self) -> str:
        size = f"{format_decimal(self.acres_per_dwelling_unit)} acre per dwelling unit"
        limit = f"{format_decimal(self.minimum.value or Decimal(0))} {self.minimum.unit}"
        reasons = []
        if self.small_plots:
            reasons.append(f"plots of {size} are less than {limit} per dwelling unit")
        if self.in_sewer_district:
            reasons.append(
                "the property is in a legal sewer district, sewer improvement area or other "
                "municipal sewer system"
            )
        if reasons:
            return (
                f"the owners shall construct the subdivision's sewers: {'; and '.join(reasons)} "
                f"({self.citation})"
            )
        return (
            f"not required by {self.citation}: plots of {size} are not less than {limit} per "
            "dwelling unit and the property is in no sewer district, improvement area or "
            "municipal sewer system"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "required": self.required,
            "small_plots": self.small_plots,
            "in_sewer_district": self.in_sewer_district,
            "acres_per_dwelling_unit": format_decimal(self.acres_per_dwelling_unit),
            "minimum": None if self.minimum.value is None else format_decimal(self.minimum.value),
            "minimum_unit": self.minimum.unit,
            "parameter": self.minimum.name,
            "effective": self.minimum.effective.isoformat(),
            "authority": self.minimum.authority,
            "citation": str(self.citation),
            "message": self.message,
        }


@implements("§ 196-16 G")
def subdivision_sewer_duty(
    smallest_plot_acres: Decimal,
    in_sewer_district: bool,
    params: ParameterSet,
    on: date,
    *,
    dwelling_units: int = 1,
) -> SubdivisionSewerDuty:
    """Whether the owners of a subdivision shall construct its sewers (§ 196-16 G).

    § 196-16 G: "The owners of property being developed as a subdivision having plot sizes
    less than one acre per dwelling unit or being in a legal sewer district, sewer improvement
    area or other municipal sewer system shall construct such sewers ..."

    ``smallest_plot_acres`` is the smallest plot, ``dwelling_units`` the dwelling units on it;
    ``in_sewer_district`` whether the property lies in a sewer district, sewer improvement area
    or other municipal sewer system. Compared exactly, "less than" strictly.
    """
    if smallest_plot_acres < 0:
        raise SubdivisionError(f"a plot size cannot be negative ({smallest_plot_acres} acre)")
    if dwelling_units < 1:
        raise SubdivisionError(f"a plot has at least one dwelling unit ({dwelling_units} given)")
    minimum = params.get(PLOT_SIZE_MINIMUM, on)
    if minimum.value is None:
        raise SubdivisionError(
            f"{PLOT_SIZE_MINIMUM} is not configured in {params.jurisdiction} on {on}"
        )
    per_unit = smallest_plot_acres / dwelling_units
    return SubdivisionSewerDuty(
        acres_per_dwelling_unit=per_unit,
        in_sewer_district=in_sewer_district,
        minimum=minimum,
        small_plots=per_unit < minimum.value,
        citation=G,
    )
