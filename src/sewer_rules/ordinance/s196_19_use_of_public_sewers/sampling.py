"""§ 196-19 I — how samples are taken, as advisories on results.

"The particular analysis involved will determine whether a twenty-four-hour composite of all
outfalls of a premises is appropriate or whether a grab sample or samples should be taken.
Normally, but not always, BOD and suspended solids analysis are obtained from twenty-four-hour
composites of all outfalls whereas pH's are determined from periodic grab samples."

With 40 CFR 403.12(g)(3)-(5): pH, temperature, oil and grease, cyanide, phenols, sulfides and
volatile organics are grab parameters. "Normally, but not always": a mismatch is an advisory
on the result, never a rejection (docs/interpretations.md).
"""

from __future__ import annotations

from sewer_rules.analytes import Analyte, SampleKind
from sewer_rules.citations import ExternalReference, cite
from sewer_rules.findings import Advisory
from sewer_rules.sections import implements

CITATION_COMPOSITE = cite("§ 196-19 I")
CITATION_GRAB = ExternalReference("40 CFR 403.12(g)(3)")
SAMPLE_TYPES = ("grab", "composite", "continuous")
#: analytes a meter may record continuously (§ 196-19 H control manhole "meters")
CONTINUOUS_ANALYTES = frozenset({"ph", "temperature", "flow"})


@implements("§ 196-19 I")
def sample_type_advisory(analyte: Analyte, sample_type: str) -> Advisory | None:
    """An advisory when the sample type is not the one the law and 40 CFR 403.12(g) expect."""
    if sample_type == "continuous":
        if analyte.name in CONTINUOUS_ANALYTES:
            return None
        return Advisory(
            "sample_type",
            CITATION_COMPOSITE,
            f"{analyte.label} is not measured continuously; a laboratory sample is expected",
        )
    if analyte.sample_kind is SampleKind.COMPOSITE and sample_type == "grab":
        return Advisory(
            "sample_type",
            CITATION_COMPOSITE,
            f"{analyte.label} is normally determined from a 24-hour composite, not a grab",
        )
    if analyte.sample_kind is SampleKind.GRAB and sample_type == "composite":
        return Advisory(
            "sample_type",
            CITATION_GRAB,
            f"{analyte.label} is a grab parameter (40 CFR 403.12(g)); a 24-hour composite is not valid for it",
        )
    return None
