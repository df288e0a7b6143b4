"""§ 196-19 C and D — what no person shall discharge, as limits on laboratory results.

§ 196-19 C lists wastes no person shall discharge to any public sewer: these are absolute,
and a result beyond them is ``prohibited``. § 196-19 D lists wastes prohibited "if it appears
likely in the opinion of the engineer/Superintendent that such wastes can harm" the works:
the software flags a result beyond them as ``review`` and a person decides and records the
decision under § 196-19 E (docs/interpretations.md).
"""

from __future__ import annotations

from sewer_rules.citations import cite
from sewer_rules.findings import Status
from sewer_rules.limits import Bound, JudgmentRule, LimitRule
from sewer_rules.sections import declare

# § 196-19 C(2) "Any waters or wastes containing toxic or poisonous solids, liquids or gases in
# sufficient quantity ... including but not limited to cyanides in excess of two mg/l as CN in
# the wastes as discharged to the public sewer."
CYANIDE = LimitRule(
    key="cyanide",
    citation=cite("§ 196-19 C(2)"),
    analyte="cyanide_total",
    parameter="cyanide.maximum",
    bound=Bound.UPPER,
    status=Status.PROHIBITED,
    wording="in excess of",
)

# § 196-19 C(3) "Any waters or wastes having a pH lower than 5.5 or having any other corrosive
# property capable of causing damage or hazard to structures, equipment and personnel or the
# wastewater facilities."  (5.5 itself is lawful.)
PH_LOW = LimitRule(
    key="ph_low",
    citation=cite("§ 196-19 C(3)"),
    analyte="ph",
    parameter="ph.minimum",
    bound=Bound.LOWER,
    status=Status.PROHIBITED,
    wording="lower than",
)

# § 196-19 D(1) "Any liquid or vapor having a temperature higher than 150° F. (65° C.)."
# (150 °F governs; 65 °C is its approximation.)
TEMPERATURE = LimitRule(
    key="temperature",
    citation=cite("§ 196-19 D(1)"),
    analyte="temperature",
    parameter="temperature.maximum",
    bound=Bound.UPPER,
    status=Status.REVIEW,
    wording="higher than",
)

# § 196-19 D(2) "Any water or waste containing fats, wax, grease or oils, whether emulsified or
# not, in excess of 100 mg/l ..."
GREASE = LimitRule(
    key="grease",
    citation=cite("§ 196-19 D(2)"),
    analyte="oil_grease",
    parameter="oil_grease.maximum",
    bound=Bound.UPPER,
    status=Status.REVIEW,
    wording="in excess of",
)


# § 196-19 D(5) "Any waters or wastes containing iron, chromium, copper, zinc and similar
# objectionable or toxic substances ... to such degree that any such material received in the
# composite sewage at the wastewater treatment works exceeds the limits established by the
# Superintendent for such materials."
def _local(analyte: str, citation: str) -> LimitRule:
    return LimitRule(
        key=f"local_{analyte}",
        citation=cite(citation),
        analyte=analyte,
        parameter=f"local_limit.{analyte}",
        bound=Bound.UPPER,
        status=Status.REVIEW,
        wording="above the Superintendent's limit of",
        unconfigured=Status.NO_LIMIT,
    )


METALS = tuple(
    _local(a, "§ 196-19 D(5)") for a in ("iron", "chromium", "copper", "zinc", "nickel", "lead")
)

# § 196-19 D(6) "Any waters or wastes containing phenels or other taste-producing or
# odor-producing substances, in such concentrations exceeding limits which may be established
# by the Superintendent ..."
PHENOLS = _local("phenols", "§ 196-19 D(6)")

# § 196-19 D(7) "Any radioactive wastes or isotopes of such half-life or concentration as may
# exceed limits established by the Superintendent in compliance with applicable state or
# federal regulations."
RADIOACTIVE = _local("gross_alpha", "§ 196-19 D(7)")

# § 196-19 D(8) "Any waters or wastes having a pH in excess of 9.5."  (9.5 itself is lawful.)
PH_HIGH = LimitRule(
    key="ph_high",
    citation=cite("§ 196-19 D(8)"),
    analyte="ph",
    parameter="ph.maximum",
    bound=Bound.UPPER,
    status=Status.REVIEW,
    wording="in excess of",
)

# § 196-19 D(9) "Materials which exert or cause: (a) Unusual concentrations of inert suspended
# solids ... or of dissolved solids (such as ... sodium chloride and sodium sulfate).
# (b) Excessive discoloration ..."  No number: the engineer judges what is unusual.
UNUSUAL_SOLIDS = JudgmentRule(
    key="unusual_solids",
    citation=cite("§ 196-19 D(9)(a)"),
    analytes=("dissolved_solids", "chloride"),
    message="no numeric limit: unusual concentrations are judged by the engineer",
)
DISCOLORATION = JudgmentRule(
    key="discoloration",
    citation=cite("§ 196-19 D(9)(b)"),
    analytes=("color",),
    message="no numeric limit: excessive discoloration is judged by the engineer",
)
# § 196-19 D(9)(d) "Unusual volume of flow ... constituting slugs": a single flow figure is not
# judged; continuous flow data is (sewer-use slugs).
FLOW = JudgmentRule(
    key="flow",
    citation=cite("§ 196-19 D(9)(d)"),
    analytes=("flow",),
    message="a single flow figure has no limit; slugs are found in continuous data",
)

LIMIT_RULES: tuple[LimitRule, ...] = (
    CYANIDE,
    PH_LOW,
    TEMPERATURE,
    GREASE,
    *METALS,
    PHENOLS,
    RADIOACTIVE,
    PH_HIGH,
)
JUDGMENT_RULES: tuple[JudgmentRule, ...] = (UNUSUAL_SOLIDS, DISCOLORATION, FLOW)

for _name, _value in list(globals().items()):
    for _rule in _value if isinstance(_value, tuple) else (_value,):
        if isinstance(_rule, LimitRule) and not _name.endswith("_RULES"):
            declare(str(_rule.citation), f"{__name__}.{_name}")
