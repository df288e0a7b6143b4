"""40 CFR 403.3(v) — significant industrial user.

40 CFR 403.3(v)(1): "the term Significant Industrial User means: (i) All Industrial Users
subject to Categorical Pretreatment Standards under 40 CFR 403.6 and 40 CFR chapter I,
subchapter N; and (ii) Any other Industrial User that: discharges an average of 25,000 gallons
per work day or more of process wastewater to the POTW (excluding sanitary, noncontact cooling
and boiler blowdown wastewater); contributes a process wastestream which makes up 5 percent or
more of the average dry weather hydraulic or organic capacity of the POTW treatment plant; or
is designated as such by the Control Authority on the basis that the Industrial User has a
reasonable potential for adversely affecting the POTW's operation or for violating any
Pretreatment Standard or requirement". 403.3(v)(2): the Control Authority may determine that
an Industrial User meeting (ii) is not significant, "on a finding that the Industrial User has
no reasonable potential for adversely affecting the POTW's operation or for violating any
Pretreatment Standard or requirement".

The thresholds are dated parameters (``siu.process_flow_gpd``, ``siu.capacity_percent``,
``plant.hydraulic_capacity``). Only the hydraulic share is computed: the organic share needs
the plant's organic capacity, which no parameter of the jurisdiction states yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sewer_rules.citations import ExternalReference
from sewer_rules.parameters import ParameterSet

CATEGORICAL = ExternalReference("40 CFR 403.3(v)(1)(i)")
OTHER = ExternalReference("40 CFR 403.3(v)(1)(ii)")
NOT_SIGNIFICANT = ExternalReference("40 CFR 403.3(v)(2)")


@dataclass(frozen=True)
class Criterion:
    code: str  # categorical | flow | capacity | designated
    met: bool
    citation: str
    text: str

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "met": self.met, "citation": self.citation, "text": self.text}


@dataclass(frozen=True)
class SIUEvaluation:
    """What 403.3(v)(1) says of one industrial user on one day, from its facts."""

    on: date
    criteria: tuple[Criterion, ...]
    flow_gpd: Decimal | None
    flow_source: str

    @property
    def significant(self) -> bool:
        return any(c.met for c in self.criteria)

    @property
    def met(self) -> list[Criterion]:
        return [c for c in self.criteria if c.met]

    @property
    def only_flow_or_capacity(self) -> bool:
        """Whether only (ii)'s flow or capacity tests are met: what (v)(2) may set aside."""
        return bool(self.met) and all(c.code in ("flow", "capacity") for c in self.met)

    def as_dict(self) -> dict[str, object]:
        return {
            "on": self.on.isoformat(),
            "significant": self.significant,
            "flow_gpd": None if self.flow_gpd is None else str(self.flow_gpd),
            "flow_source": self.flow_source,
            "criteria": [c.as_dict() for c in self.criteria],
        }


def evaluate(
    params: ParameterSet,
    on: date,
    *,
    categorical_category: str = "",
    flow_gpd: Decimal | None = None,
    flow_source: str = "",
) -> SIUEvaluation:
    """403.3(v)(1)(i) and the flow and hydraulic-capacity tests of (ii), exactly."""
    out = []
    cat = categorical_category.strip()
    out.append(
        Criterion(
            "categorical",
            bool(cat),
            str(CATEGORICAL),
            f"subject to a categorical standard ({cat}, 40 CFR chapter I subchapter N)"
            if cat
            else "no categorical standard recorded",
        )
    )
    threshold = params.value("siu.process_flow_gpd", on)
    if flow_gpd is None:
        out.append(Criterion("flow", False, str(OTHER), "no process flow known"))
    else:
        out.append(
            Criterion(
                "flow",
                flow_gpd >= threshold,
                str(OTHER),
                f"average process flow {flow_gpd} gpd ({flow_source}) "
                f"{'≥' if flow_gpd >= threshold else '<'} {threshold} gpd",
            )
        )
    capacity = params.get("plant.hydraulic_capacity", on).value
    percent = params.value("siu.capacity_percent", on)
    if capacity is None or flow_gpd is None:
        why = "plant.hydraulic_capacity not configured" if capacity is None else "no flow known"
        out.append(Criterion("capacity", False, str(OTHER), f"share of capacity unknown ({why})"))
    else:
        met = flow_gpd * 100 >= percent * capacity
        out.append(
            Criterion(
                "capacity",
                met,
                str(OTHER),
                f"{flow_gpd} gpd of the plant's {capacity} gpd hydraulic capacity "
                f"{'≥' if met else '<'} {percent} %",
            )
        )
    return SIUEvaluation(on, tuple(out), flow_gpd, flow_source)
