"""§ 196-15 COOLING WATER and UNPOLLUTED WATER OR WASTE — classifying a sample as a whole.

Both definitions speak of a water, not of one result: every result of a sample is read
together. What each definition asks is data in ``ordinance/s196_15_definitions``
(``COOLING_CRITERIA``, ``UNPOLLUTED_CRITERIA``, ``COOLING_SOURCES``); this module applies it
to one sample's results. The columnar form over a whole table is
``sewer_engines.evaluation.classify``, tested equal to this one.

Each answer is ``True`` (yes), ``False`` (no) or ``None`` (unknown). ``yes`` needs every
required criterion measured and met and nothing measured left undecided; one result that
breaks one criterion makes ``no``; anything else is ``unknown`` — never ``yes`` by default.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from sewer_rules.ordinance.s196_15_definitions.cooling_water import (
    COOLING_CRITERIA,
    COOLING_SOURCES,
)
from sewer_rules.ordinance.s196_15_definitions.criteria import Criterion, Mode
from sewer_rules.ordinance.s196_15_definitions.unpolluted_water import UNPOLLUTED_CRITERIA
from sewer_rules.parameters import ParameterSet
from sewer_rules.sections import implements

from .reading import Reading

DEFINITIONS: dict[str, tuple[Criterion, ...]] = {
    "cooling_water": COOLING_CRITERIA,
    "unpolluted_water": UNPOLLUTED_CRITERIA,
}
#: Every dated parameter the classification reads.
PARAMETERS = sorted({p for cs in DEFINITIONS.values() for c in cs for p in c.parameters})


class Verdict(IntEnum):
    """What one result says of one criterion (ordered: the lowest of a sample decides)."""

    BROKEN = -1
    UNDECIDED = 0
    MET = 1


@dataclass(frozen=True)
class SampleClassification:
    sample_id: str
    cooling_water: bool | None
    unpolluted_water: bool | None


def _bound(params: ParameterSet, name: str | None, reading: Reading) -> object:
    if name is None:
        return None
    first = params.parameter(name).values[0].effective
    return params.get(name, max(reading.day, first)).value


def verdict(criterion: Criterion, reading: Reading, params: ParameterSet) -> Verdict:
    """One result against one criterion of a definition (see ``criteria.Mode``)."""
    lo, hi = _bound(params, criterion.minimum, reading), _bound(params, criterion.maximum, reading)
    value, detected = reading.value, not reading.nd
    meaningful = hi is not None and value <= hi  # type: ignore[operator]
    if criterion.mode is Mode.ABSENT:
        if detected:
            return Verdict.BROKEN
        return Verdict.MET if meaningful else Verdict.UNDECIDED
    if lo is None and hi is None:  # no level configured: a detection cannot be judged
        return Verdict.UNDECIDED if detected or criterion.required else Verdict.MET
    if detected:
        within = (lo is None or value >= lo) and (hi is None or value <= hi)  # type: ignore[operator]
        return Verdict.MET if within else Verdict.BROKEN
    return Verdict.MET if lo is None and meaningful else Verdict.UNDECIDED


def source_verdict(reading: Reading) -> Verdict | None:
    """The declared source as a cooling-water criterion (None: not declared)."""
    declared = re.sub(r"[\s\-]+", "_", (reading.source or "").strip().lower())
    if not declared:
        return None
    return Verdict.MET if declared in COOLING_SOURCES else Verdict.BROKEN


def _meets(
    criteria: tuple[Criterion, ...], results: Sequence[Reading], params: ParameterSet
) -> bool | None:
    """A definition over a sample's results: False broken, True all met, None unknown."""
    verdicts: list[Verdict] = []
    met: set[str] = set()
    for reading in results:
        for c in criteria:
            if c.analyte == reading.analyte.name:
                v = verdict(c, reading, params)
                verdicts.append(v)
                if v is Verdict.MET and c.required:
                    met.add(c.key)
    worst = min(verdicts, default=None)
    if worst is Verdict.BROKEN:
        return False
    required = {c.key for c in criteria if c.required}
    return True if worst is Verdict.MET and met == required else None


@implements("§ 196-15 COOLING WATER", "§ 196-15 UNPOLLUTED WATER OR WASTE")
def classify_sample(results: Sequence[Reading], params: ParameterSet) -> SampleClassification:
    """One sample's classification from all its results.

    § 196-15 COOLING WATER: "The water discharged from any system of condensation, air
    conditioning, cooling, refrigeration or other, but which shall be free from odor and oil.
    It shall contain no polluting substances which could produce BOD or suspended solids, each
    in excess of 10 parts per million by weight." Yes only for a declared cooling-system
    source with BOD ≤ 10 and SS ≤ 10 measured and oil and grease not detected at a meaningful
    reporting limit.

    § 196-15 UNPOLLUTED WATER OR WASTE: "containing none of the following: free or emulsified
    grease or oil, acid of alkali, phenols ...; toxic or poisonous substances ... not more than
    10,000 parts per million by weight of dissolved solids of which not more than 2,500 ...
    as chlorides ... not more than 10 parts per million each of suspended solids and BOD. The
    color shall not exceed 50 parts per million." Yes only when all of these are shown.
    """
    cooling = _meets(COOLING_CRITERIA, results, params)
    sources = [v for v in map(source_verdict, results) if v is not None]
    source = min(sources, default=None)
    if source is Verdict.BROKEN:
        cooling = False
    elif cooling and source is not Verdict.MET:
        cooling = None
    return SampleClassification(
        results[0].sample_id, cooling, _meets(UNPOLLUTED_CRITERIA, results, params)
    )
