"""The analyte vocabulary: canonical names, the spellings laboratories use, EPA codes, CAS
numbers.

A laboratory file names a parameter many ways ("BOD", "BOD5", "00310", "Biochemical Oxygen
Demand", "7440-50-8"); :func:`resolve` maps every accepted spelling to one canonical analyte,
and refuses the rest. Each analyte carries what the rules need to know of it: its dimension and
canonical unit (the unit its values are compared in), the sample type 40 CFR 403.12(g) and
§ 196-19 I expect, and its 40 CFR 136 Table II holding-time parameter.

EPA parameter (STORET) codes are from DOMAIN.md and are marked there "(verify)".

CAS Registry Numbers name a substance, not a measurement: only the analytes that are one
substance have one (the metals; cyanide as the cyanide ion, 57-12-5; chloride as the chloride
ion, 16887-00-6). BOD, suspended and dissolved solids, oil and grease, pH, temperature, color,
flow, gross alpha and total phenolics are defined by their method and have none (phenol's own
number, 108-95-2, names one compound, not the 4-aminoantipyrine total). Each number's check
digit is verified when the module loads. A CAS number is accepted as it is written, with its
dashes ("7440-50-8"): without them it would be a bare number that an EPA code or a laboratory's
own code could also be, so "7440508" is not read as copper.
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
    #: CAS Registry Numbers, dashed (none for a parameter defined by its method).
    cas: tuple[str, ...] = ()


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
        cas=("57-12-5",),
    ),
    Analyte(
        "copper",
        "Copper, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01042",),
        ("copper", "cu", "copper, total"),
        cas=("7440-50-8",),
    ),
    Analyte(
        "chromium",
        "Chromium, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01034",),
        ("chromium", "cr", "chromium, total"),
        cas=("7440-47-3",),
    ),
    Analyte(
        "zinc",
        "Zinc, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01092",),
        ("zinc", "zn", "zinc, total"),
        cas=("7440-66-6",),
    ),
    Analyte(
        "iron",
        "Iron, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01045",),
        ("iron", "fe", "iron, total"),
        cas=("7439-89-6",),
    ),
    Analyte(
        "nickel",
        "Nickel, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01067",),
        ("nickel", "ni", "nickel, total"),
        cas=("7440-02-0",),
    ),
    Analyte(
        "lead",
        "Lead, total",
        "concentration",
        "mg/l",
        SampleKind.COMPOSITE,
        ("01051",),
        ("lead", "pb", "lead, total"),
        cas=("7439-92-1",),
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
        cas=("16887-00-6",),
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

#: A CAS Registry Number as written: two to seven digits, two digits, one check digit.
CAS_PATTERN = re.compile(r"^(\d{2,7})-(\d{2})-(\d)$")


def cas_check_digit_ok(text: str) -> bool:
    """Whether ``text`` is a CAS number whose check digit is right (the digits before it,
    from the right, weighted 1, 2, 3... and summed, modulo 10)."""
    m = CAS_PATTERN.match(text.strip())
    if m is None:
        return False
    digits = (m.group(1) + m.group(2))[::-1]
    return sum(i * int(d) for i, d in enumerate(digits, start=1)) % 10 == int(m.group(3))


for _a in ANALYTES:
    for _number in _a.cas:
        if not cas_check_digit_ok(_number):
            raise RuntimeError(f"CAS number {_number!r} of {_a.name} has a wrong check digit")

#: Every analyte's CAS numbers and the canonical name each stands for.
CAS_NUMBERS: dict[str, str] = {n: a.name for a in ANALYTES for n in a.cas}


def _key(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


_LOOKUP: dict[str, Analyte] = {}
for _a in ANALYTES:
    for _spelling in (_a.name, _a.label, *_a.aliases, *_a.epa_codes, *_a.cas):
        _k = _key(_spelling)
        if _k in _LOOKUP and _LOOKUP[_k] is not _a:
            raise RuntimeError(f"analyte spelling {_spelling!r} is ambiguous")
        _LOOKUP[_k] = _a

#: Every accepted spelling (lower-cased, single-spaced) and the canonical name it stands for.
SPELLINGS: dict[str, str] = {k: a.name for k, a in _LOOKUP.items()}


class UnknownAnalyte(ValueError):
    """A parameter name no laboratory vocabulary entry matches."""


def resolve(text: str) -> Analyte:
    """The analyte a laboratory's parameter name, EPA code or CAS number stands for."""
    found = _LOOKUP.get(_key(text))
    if found is None:
        raise UnknownAnalyte(f"unknown parameter {text.strip()!r}")
    return found


def normalize_spelling(text: str) -> str:
    """The lookup key of a spelling (used by the batch engine to resolve a whole column)."""
    return _key(text)
