"""40 CFR 136.3(e) Table II — maximum holding times between sampling and analysis.

§ 196-19 I requires measurements "in accordance with the latest edition of Standard Methods";
40 CFR 136.3(e) fixes how long a sample may wait before analysis. A result analysed after its
holding time is flagged ``holding_time_exceeded``; the engineer decides whether it stands
(docs/interpretations.md). The hours are dated parameters ``holding_time.*``.
"""

from __future__ import annotations

from sewer_rules.citations import ExternalReference

CITATION = ExternalReference("40 CFR 136.3(e) Table II")

#: analyte → the dated parameter holding its maximum holding time (hours)
HOLDING_TIME_PARAMETER: dict[str, str] = {
    "bod5": "holding_time.bod5",
    "tss": "holding_time.tss",
    "oil_grease": "holding_time.oil_grease",
    "ph": "holding_time.ph",
    "temperature": "holding_time.temperature",
    "cyanide_total": "holding_time.cyanide_total",
    "copper": "holding_time.metals",
    "chromium": "holding_time.metals",
    "zinc": "holding_time.metals",
    "iron": "holding_time.metals",
    "nickel": "holding_time.metals",
    "lead": "holding_time.metals",
    "phenols": "holding_time.phenols",
    "chloride": "holding_time.chloride",
    "dissolved_solids": "holding_time.dissolved_solids",
    "color": "holding_time.color",
}
