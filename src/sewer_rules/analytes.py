"""The analyte vocabulary: canonical names, the spellings laboratories use, EPA codes.

A laboratory file names a parameter many ways ("BOD", "BOD5", "00310", "Biochemical Oxygen
Demand"); :func:`resolve` maps every accepted spelling to one canonical analyte, and refuses
the rest. Each analyte carries what the rules need to know of it: its dimension and
canonical unit (the unit its values are compared in), the sample type 40 CFR 403.12(g) and
§ 196-19 I expect, and its 40 CFR 136 Table II holding-time parameter.

EPA parameter (STORET) codes are from DOMAIN.md and are marked there "(verify)".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class SampleKind(StrEnum):
    """How § 196-19 I and 40 CFR 403.12(g) expect an analyte to be sampled."""

    GRAB = "grab"
    COMPOSITE = "composite"
    ANY = "any"


@dataclass(frozen=True)
class Analyte:
    name: str
    label: str
    dimension: str
    canonical_unit: str
    sample_kind: SampleKind
    epa_codes: tuple[str, ...]
    aliases: tuple[str, ...]
    non_negative: bool = True


ANALYTES: tuple[Analyte, ...] = (
    Analyte("ph", "pH", "ph", "SU", SampleKind.GRAB, ("00400",), ("ph", "p.h.", "ph value")),
    Analyte(
        "temperature",
        "Temperature",
        "temperature",
        "°F",
        SampleKind.GRAB,
        ("00010", "00011"),
        ("temperature", "temp", "water temperature"),
        non_negative=False,
    ),
    Analyte(
        "bod5",
        "BOD, 5-day",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("00310",),
        ("bod", "bod5", "bod 5", "bod-5", "bod, 5-day", "bod 5-day", "biochemical oxygen demand"),
    ),
    Analyte(
        "tss",
        "Total suspended solids",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("00530",),
        ("tss", "ss", "suspended solids", "total suspended solids"),
    ),
    Analyte(
        "oil_grease",
        "Oil and grease (HEM)",
        "concentration",
        "mg/l",
        SampleKind.GRAB,
        ("00552", "00556"),
        ("o&g", "fog", "oil and grease", "oil & grease", "grease and oil", "hem", "oil_grease"),
    ),
    Analyte(
        "cyanide_total",
        "Cyanide, total",
        "concentration",
        "mg/l",
        SampleKind.GRAB,
        ("00720",),
        (
            "cyanide, total",
            "cyanide total",
            "cyanide",
            "total cyanide",
            "cn",
            "cn, total",
            "cyanide_total",
        ),
    ),
    Analyte(
        "copper",
        "Copper, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01042",),
        ("copper", "cu", "copper, total"),
    ),
    Analyte(
        "chromium",
        "Chromium, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01034",),
        ("chromium", "cr", "chromium, total"),
    ),
    Analyte(
        "zinc",
        "Zinc, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01092",),
        ("zinc", "zn", "zinc, total"),
    ),
    Analyte(
        "iron",
        "Iron, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01045",),
        ("iron", "fe", "iron, total"),
    ),
    Analyte(
        "nickel",
        "Nickel, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01067",),
        ("nickel", "ni", "nickel, total"),
    ),
    Analyte(
        "lead",
        "Lead, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01051",),
        ("lead", "pb", "lead, total"),
    ),
    Analyte(
        "phenols",
        "Phenolics, total",
        "concentration",
        "mg/l",
        SampleKind.GRAB,
        ("32730",),
        ("phenols", "phenol", "phenolics", "total phenols", "phenolics, total", "phenels"),
    ),
    Analyte(
        "chloride",
        "Chloride",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("00940",),
        ("chloride", "chlorides", "cl"),
    ),
    Analyte(
        "dissolved_solids",
        "Total dissolved solids",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("70300",),
        ("tds", "dissolved solids", "total dissolved solids", "dissolved_solids"),
    ),
    Analyte(
        "color",
        "Color",
        "concentration",
        "mg/l",
        SampleKind.GRAB,
        ("00080",),
        ("color", "colour", "true color"),
    ),
    Analyte(
        "gross_alpha",
        "Gross alpha radioactivity",
        "radioactivity",
        "pCi/l",
        SampleKind.COMPOSITE,
        ("01501",),
        ("gross alpha", "gross_alpha", "alpha"),
    ),
    Analyte(
        "flow", "Flow", "flow", "gpd", SampleKind.ANY, ("50050",), ("flow", "discharge flow", "q")
    ),
)

BY_NAME: dict[str, Analyte] = {a.name: a for a in ANALYTES}


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


_LOOKUP: dict[str, Analyte] = {}
for _a in ANALYTES:
    for _spelling in (_a.name, _a.label, *_a.aliases, *_a.epa_codes):
        _k = _key(_spelling)
        if _k in _LOOKUP and _LOOKUP[_k] is not _a:
            raise RuntimeError(f"analyte spelling {_spelling!r} is ambiguous")
        _LOOKUP[_k] = _a

#: Every accepted spelling (lower-cased, single-spaced) and the canonical name it stands for.
SPELLINGS: dict[str, str] = {k: a.name for k, a in _LOOKUP.items()}


class UnknownAnalyte(ValueError):
    """A parameter name no laboratory vocabulary entry matches."""


def resolve(text: str) -> Analyte:
    """The analyte a laboratory's parameter name or EPA code stands for."""
    found = _LOOKUP.get(_key(text))
    if found is None:
        raise UnknownAnalyte(f"unknown parameter {text.strip()!r}")
    return found


def normalize_spelling(text: str) -> str:
    """The lookup key of a spelling (used by the batch engine to resolve a whole column)."""
    return _key(text)
