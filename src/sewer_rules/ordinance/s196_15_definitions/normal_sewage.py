"""§ 196-15 NORMAL SEWAGE — the strength above which a waste is of abnormal strength.

"Sewage shall be regarded as normal for the Town if analysis shows, by weight, a daily average
of not more than 300 parts per million of suspended solids, not more than 240 parts per million
of BOD and not more than 50 parts per million of either soluble matter (grease or oil) ..."

Above any of them the waste is of abnormal strength. That is not by itself a violation: it is
what the Superintendent may charge for under § 196-19 E(1)(d) and what a special agreement
under § 196-19 J covers (docs/interpretations.md). Status ``abnormal_strength``.
"""

from __future__ import annotations

from sewer_rules.citations import cite
from sewer_rules.findings import Status
from sewer_rules.limits import Bound, LimitRule
from sewer_rules.sections import declare

_NORMAL = cite("§ 196-15 NORMAL SEWAGE")


def _above_normal(key: str, analyte: str, parameter: str) -> LimitRule:
    return LimitRule(
        key=key,
        citation=_NORMAL,
        analyte=analyte,
        parameter=parameter,
        bound=Bound.UPPER,
        status=Status.ABNORMAL_STRENGTH,
        wording="above the normal-strength",
    )


NORMAL_SUSPENDED_SOLIDS = _above_normal("normal_ss", "tss", "normal_sewage.suspended_solids")
NORMAL_BOD = _above_normal("normal_bod", "bod5", "normal_sewage.bod")
NORMAL_GREASE_OIL = _above_normal("normal_grease", "oil_grease", "normal_sewage.grease_oil")

NORMAL_STRENGTH_RULES: tuple[LimitRule, ...] = (
    NORMAL_BOD,
    NORMAL_SUSPENDED_SOLIDS,
    NORMAL_GREASE_OIL,
)

for _name, _value in list(globals().items()):
    for _rule in _value if isinstance(_value, tuple) else (_value,):
        if isinstance(_rule, LimitRule) and not _name.endswith("_RULES"):
            declare(str(_rule.citation), f"{__name__}.{_name}")
