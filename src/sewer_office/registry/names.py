"""How the registry reads a person's name: compared for duplicates, and read for its kind.

Every import that meets a name (the county's roll, a users' spreadsheet) and the merge page
compare names the same way, and a person an import creates gets its kind from its name the same
way, so that the roll's owner and the spreadsheet's operator are one person of one kind.
"""

from __future__ import annotations

import re
import unicodedata

from .choices import PersonKind

#: Words that do not tell two names apart ("Acme Plating Corp." is "Acme Plating Corporation").
NOISE = frozenset(
    {"the", "inc", "llc", "corp", "corporation", "co", "company", "ltd", "lp", "llp", "pc"}
)


def normalized(text: str) -> str:
    """A name or an address as compared for duplicates: accents, case, punctuation and
    company-form words dropped, spaces collapsed."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.sub(r"[^a-z0-9]+", " ", plain).split()
    return " ".join(w for w in words if w not in NOISE)


#: The company-form words that say which kind of § 196-15 PERSON a name is.
_CORPORATION = frozenset({"inc", "incorporated", "corp", "corporation"})
_COMPANY = frozenset(
    {"llc", "pllc", "ltd", "lp", "llp", "pc", "company", "co", "partnership", "trust", "bank"}
)
_ASSOCIATION = frozenset({"association", "assn", "assoc", "hoa", "condominium", "condo"})


def person_kind(name: str, default: str) -> str:
    """The kind of § 196-15 PERSON a name reads as: a corporation by its "Inc." or "Corp.", a
    company by "LLC", "Ltd" and the like, an association; else ``default`` (an owner on the
    roll is an individual, an operator in a users' spreadsheet a firm). The clerk corrects the
    rare other case on the person's page."""
    words = set(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())
    if words & _CORPORATION:
        return PersonKind.CORPORATION
    if words & _COMPANY:
        return PersonKind.COMPANY
    if words & _ASSOCIATION:
        return PersonKind.ASSOCIATION
    return default
