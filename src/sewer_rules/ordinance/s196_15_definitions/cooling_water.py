"""§ 196-15 COOLING WATER — whether a sample is cooling water (yes / no / unknown).

§ 196-15 A: "COOLING WATER — The water discharged from any system of condensation, air
conditioning, cooling, refrigeration or other, but which shall be free from odor and oil. It
shall contain no polluting substances which could produce BOD or suspended solids, each in
excess of 10 parts per million by weight."

How the software reads it (docs/interpretations.md, "Thresholds and units"):

- ``yes`` only when the source is a cooling system, BOD ≤ 10 and suspended solids ≤ 10 were
  measured ("in excess of 10": exactly 10 is cooling water), and oil and grease was measured
  below a meaningful reporting limit (a non-detect at a reporting limit at or below
  ``oil_grease.reporting_limit_maximum``); ``no`` when any of these fails (a declared source
  that is not a cooling system, BOD or SS above 10, oil and grease detected); ``unknown`` when
  something needed was not measured or not declared.
- The source is what the results file's optional ``source`` column declares for the sample
  (the office fills it from an approval for industrial cooling water). A blank source is not
  known: such a sample is never ``yes``.
- "free from odor" is not measured by a laboratory result and is left to inspection.
"""

from __future__ import annotations

from .criteria import Criterion, Mode

#: Declared sources that are "any system of condensation, air conditioning, cooling,
#: refrigeration or other" (spelled in lower case, words joined by ``_``). Any other declared
#: source is not a cooling system.
COOLING_SOURCES = frozenset(
    {"cooling", "cooling_system", "condensation", "air_conditioning", "refrigeration"}
)

COOLING_CRITERIA: tuple[Criterion, ...] = (
    Criterion("bod", "bod5", Mode.RANGE, True, maximum="cooling_water.bod_maximum"),
    Criterion("ss", "tss", Mode.RANGE, True, maximum="cooling_water.suspended_solids_maximum"),
    Criterion("oil", "oil_grease", Mode.ABSENT, True, maximum="oil_grease.reporting_limit_maximum"),
)
