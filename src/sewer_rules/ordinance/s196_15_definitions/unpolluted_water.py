"""§ 196-15 UNPOLLUTED WATER OR WASTE — whether a sample is unpolluted (yes / no / unknown).

§ 196-15 A: "UNPOLLUTED WATER OR WASTE — Any water or waste containing none of the following:
free or emulsified grease or oil, acid of alkali, phenols or other substances imparting taste
or odor in receiving waters; toxic or poisonous substances in suspension, colloidal state or
solution; noxious or odorous gases. It shall contain not more than 10,000 parts per million by
weight of dissolved solids of which not more than 2,500 parts per million shall be as chlorides
with permissible volumes subject to review by the engineer and not more than 10 parts per
million each of suspended solids and BOD. The color shall not exceed 50 parts per million."

How the software reads it (docs/interpretations.md, "Thresholds and units"):

- All conditions must hold. Dissolved solids ≤ 10,000, chlorides ≤ 2,500, suspended solids
  ≤ 10, BOD ≤ 10 and color ≤ 50 ppm must each be measured.
- "containing" a listed substance is judged against dated parameters, by default the New York
  drinking-water levels, so that ordinary tap water is unpolluted: phenols
  (``unpolluted_water.phenols_maximum``, must be measured) and the toxic substances the
  engine knows (cyanide, chromium, copper, zinc, lead, nickel: judged when measured; a detected
  substance with no level configured leaves the answer unknown).
- "acid or alkali": a pH outside its own dated range (``unpolluted_water.ph_minimum`` /
  ``ph_maximum``, default 6.5–8.5, the NYS drinking-water source range), not the
  sewer-discharge range 5.5–9.5 of § 196-19 C(3) and D(8); pH must be measured.
- "free or emulsified grease or oil": oil and grease must be measured and not detected at a
  meaningful reporting limit, as for cooling water.
- Odor, taste and noxious gases are not laboratory results here and are left to inspection.
"""

from __future__ import annotations

from .criteria import Criterion, Mode


def _toxic(analyte: str, name: str) -> Criterion:
    return Criterion(
        analyte, analyte, Mode.RANGE, False, maximum=f"unpolluted_water.{name}_maximum"
    )


UNPOLLUTED_CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        "dissolved_solids",
        "dissolved_solids",
        Mode.RANGE,
        True,
        maximum="unpolluted_water.dissolved_solids_maximum",
    ),
    Criterion(
        "chloride", "chloride", Mode.RANGE, True, maximum="unpolluted_water.chlorides_maximum"
    ),
    Criterion("ss", "tss", Mode.RANGE, True, maximum="unpolluted_water.suspended_solids_maximum"),
    Criterion("bod", "bod5", Mode.RANGE, True, maximum="unpolluted_water.bod_maximum"),
    Criterion("color", "color", Mode.RANGE, True, maximum="unpolluted_water.color_maximum"),
    Criterion(
        "acid_alkali",
        "ph",
        Mode.RANGE,
        True,
        minimum="unpolluted_water.ph_minimum",
        maximum="unpolluted_water.ph_maximum",
    ),
    Criterion("oil", "oil_grease", Mode.ABSENT, True, maximum="oil_grease.reporting_limit_maximum"),
    Criterion("phenols", "phenols", Mode.RANGE, True, maximum="unpolluted_water.phenols_maximum"),
    _toxic("cyanide_total", "cyanide"),
    _toxic("chromium", "chromium"),
    _toxic("copper", "copper"),
    _toxic("zinc", "zinc"),
    _toxic("lead", "lead"),
    _toxic("nickel", "nickel"),
)
