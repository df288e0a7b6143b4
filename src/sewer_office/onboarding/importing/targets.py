"""The fields an import fills (:data:`TARGETS`) and the column mapping that reads them from a
file (:class:`MappingSpec`), with the keys rows, headers and words are compared by.

Kept apart from the planning: the mapping form (:mod:`~sewer_office.onboarding.forms`), the
mapping service and the command line need the fields and the spec, not the registry look-ups
of the planner.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from sewer_office.onboarding.models import ColumnMapping
from sewer_office.registry.choices import BuildingUse, EstablishmentKind


@dataclass(frozen=True)
class Target:
    """A field the import fills from a column: its name, its label, whether every row must
    give it, and the longest text the registry keeps of it."""

    name: str
    label: str
    required: bool = False
    max_length: int = 0
    help: str = ""
    #: column names that usually hold it: the mapping form proposes such a column (the clerk
    #: confirms it; nothing is read through a proposal that was not saved)
    aliases: tuple[str, ...] = ()


TARGETS: tuple[Target, ...] = (
    Target("facility_name", "Facility name", True, 200, "", ("facility", "name", "business")),
    Target(
        "facility_code",
        "Facility code",
        False,
        40,
        "the code laboratories write",
        ("code", "facility id"),
    ),
    Target(
        "kind",
        "Kind",
        True,
        0,
        "restaurant, industrial user…: its words mapped below",
        ("type", "category", "user type"),
    ),
    Target(
        "operator_name",
        "Operator (company or person)",
        True,
        200,
        "",
        ("operator", "company", "operator name"),
    ),
    Target(
        "mailing_street",
        "Operator's mailing street",
        False,
        300,
        "",
        ("mailing street", "mailing address", "street"),
    ),
    Target("mailing_city", "Operator's mailing town", False, 80, "", ("mailing city", "city")),
    Target("mailing_state", "Operator's mailing state", False, 2, "", ("mailing state", "state")),
    Target(
        "mailing_zip",
        "Operator's mailing ZIP code",
        False,
        10,
        "",
        ("mailing zip", "zip", "zip code", "postal code"),
    ),
    Target("email", "Contact e-mail", False, 300, "", ("email", "e mail", "contact email")),
    Target("phone", "Contact phone", False, 300, "", ("phone", "telephone", "contact phone")),
    Target(
        "sbl_or_parcel",
        "SBL or tax map number",
        False,
        40,
        "the parcel's print key",
        ("sbl", "tax map no", "tax map number", "tax map", "print key", "parcel", "parcel id"),
    ),
    Target(
        "address",
        "Street address",
        False,
        200,
        "the facility's street line",
        ("address", "site address", "location"),
    ),
    Target("building_name", "Building name", False, 120, "", ("building",)),
    Target(
        "building_use",
        "Building use",
        False,
        0,
        "residential, commercial, industrial…",
        ("use",),
    ),
)
BY_NAME = {t.name: t for t in TARGETS}
REQUIRED = tuple(t.name for t in TARGETS if t.required)


def column_key(text: str) -> str:
    """A column name as the mapping form compares it with a field's names: case and
    punctuation aside."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


def word_key(text: str) -> str:
    """A word of the kind column as compared: case and spacing aside."""
    return " ".join(text.casefold().split())


def digest(data: Any) -> str:
    """The SHA-256 of ``data`` as JSON (keys sorted): the key a header, a row's values or a
    plan is found or compared by."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def header_key(header: list[str]) -> str:
    """The key a header is found by: its set of column names (order and case aside)."""
    return digest(sorted({word_key(h) for h in header if h.strip()}))


def values_key(values: dict[str, str]) -> str:
    """The key a row's values are found by in the review queue (the same values, queued once)."""
    return digest(values)


def _choice_words(choices: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for value, label in choices:
        out[word_key(str(value))] = str(value)
        out[word_key(str(value).replace("_", " "))] = str(value)
        out[word_key(str(label))] = str(value)
    return out


#: The office's own words for the kinds and uses (their codes and labels), always understood.
KIND_WORDS = _choice_words(EstablishmentKind.choices)
USE_WORDS = _choice_words(BuildingUse.choices)


@dataclass(frozen=True)
class MappingSpec:
    """A column mapping as an import uses it (a saved :class:`ColumnMapping`, or its copy kept
    on an import)."""

    name: str
    columns: dict[str, str]
    kind_values: dict[str, str]

    @classmethod
    def of(cls, mapping: ColumnMapping) -> MappingSpec:
        return cls(mapping.name, dict(mapping.columns), dict(mapping.kind_values))

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> MappingSpec:
        return cls(
            str(data.get("name", "")),
            dict(data.get("columns") or {}),
            dict(data.get("kind_values") or {}),
        )

    def snapshot(self) -> dict[str, Any]:
        return {"name": self.name, "columns": self.columns, "kind_values": self.kind_values}

    def column(self, target: str) -> str:
        """The file's column of ``target`` (its label when the mapping names none)."""
        return self.columns.get(target) or BY_NAME[target].label

    def missing_in(self, header: list[str]) -> list[str]:
        """The mapping's columns the file lacks (a file it does not fit)."""
        have = {h.casefold().strip() for h in header}
        return [col for col in self.columns.values() if col.casefold().strip() not in have]

    def values_of(self, cells: dict[str, str]) -> dict[str, str]:
        """A row's cells as the import's fields (the texts trimmed)."""
        by_name = {k.casefold().strip(): v for k, v in cells.items()}
        return {
            target: by_name.get(column.casefold().strip(), "").strip()
            for target, column in self.columns.items()
            if target in BY_NAME
        }

    def kind_of(self, word: str) -> str | None:
        key = word_key(word)
        mapped = {word_key(k): v for k, v in self.kind_values.items()}
        return mapped.get(key) or KIND_WORDS.get(key)
