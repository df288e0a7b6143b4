"""What an import of users and facilities would do, row by row: the plan.

A spreadsheet (:mod:`.spreadsheet`) read through a column mapping (:class:`MappingSpec`) gives
each row its fields (:data:`TARGETS`). Every row is checked first; then each valid row finds its
parcel and its operator (:mod:`.matching`) and its facility:

- **refused**: bad data — a required field blank, a kind the mapping does not know, a state
  or ZIP code that is not one, a text longer than the registry keeps, a facility code given to
  two rows, a facility code registered at another parcel… One refused row stops the whole
  import: nothing is written until the file is right (every refusal listed by row and field).
- **unmatched**: valid, but no one parcel found (the reason says why): the row goes to the
  review queue (:class:`~.models.ReviewItem`), where the clerk picks the parcel; the other
  rows apply. A row already in the queue (the same values, from an earlier import) is not
  queued twice.
- **new**: a facility not yet in the registry, created on its parcel.
- **unchanged** / **changed**: the facility is already registered — by its facility code, or
  by its name on the same parcel — and the row changes nothing, or changes the fields listed
  (its name, kind, operator, a code it lacked; its operator's missing mailing address or a
  contact not yet recorded).

The operator: a person of the registry with the same name and mailing address is reused
(the survivor of a merge); one the registry lacks is registered once, however many rows name
it. The building: the parcel's building of the name the row gives, else its only building,
else a new building (named as the row says, or after the facility; its use as the row says,
or from the kind: a restaurant or food preparation is food service, a food processor or
industrial user industrial, and so on).

The plan reads the registry and writes nothing; :mod:`.services` computes it again inside the
transaction that applies it (a preview is never trusted).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from sewer_office.registry.choices import (
    BuildingUse,
    ContactKind,
    EstablishmentKind,
    PersonKind,
)
from sewer_office.registry.merge import normalized
from sewer_office.registry.models import Building, Contact, Establishment, Person
from sewer_office.registry.postal import (
    normalize_state,
    normalize_zip,
    validate_state,
    validate_zip,
)
from sewer_rules.hostile import control_character, shorten

from .choices import RowOutcome
from .matching import ParcelIndex, PersonIndex, mailing_key
from .models import ColumnMapping, ReviewItem
from .spreadsheet import Sheet


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
TARGET_NAMES = tuple(t.name for t in TARGETS)
BY_NAME = {t.name: t for t in TARGETS}
REQUIRED = tuple(t.name for t in TARGETS if t.required)

#: The use a new building is given when the row names none: the kind's.
USE_OF_KIND: dict[str, str] = {
    EstablishmentKind.RESTAURANT: BuildingUse.FOOD_SERVICE,
    EstablishmentKind.FOOD_PREPARATION: BuildingUse.FOOD_SERVICE,
    EstablishmentKind.FOOD_PROCESSING: BuildingUse.INDUSTRIAL,
    EstablishmentKind.INDUSTRIAL: BuildingUse.INDUSTRIAL,
    EstablishmentKind.COMMERCIAL: BuildingUse.COMMERCIAL,
    EstablishmentKind.INSTITUTIONAL: BuildingUse.INSTITUTIONAL,
}
#: The person kind of a new operator, by the company-form words of its name (else a firm).
CORPORATE_WORDS = frozenset({"inc", "incorporated", "corp", "corporation"})
COMPANY_WORDS = frozenset({"llc", "company", "co", "ltd", "lp", "llp", "pc", "pllc"})
PHONE = re.compile(r"^[0-9()+.\-\s/#xXeEtT:]+$")


def column_key(text: str) -> str:
    """A column name as the mapping form compares it with a field's names: case and
    punctuation aside."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.casefold()).split())


def word_key(text: str) -> str:
    """A word of the kind column as compared: case and spacing aside."""
    return " ".join(text.casefold().split())


def header_key(header: list[str]) -> str:
    """The key a header is found by: its set of column names (order and case aside)."""
    names = sorted({" ".join(h.casefold().split()) for h in header if h.strip()})
    return hashlib.sha256(json.dumps(names).encode()).hexdigest()


def values_key(values: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()


def person_kind(name: str) -> str:
    words = set(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())
    if words & CORPORATE_WORDS:
        return PersonKind.CORPORATION
    if words & COMPANY_WORDS:
        return PersonKind.COMPANY
    return PersonKind.FIRM


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


# --- the plan ----------------------------------------------------------------------------------


@dataclass
class NewPerson:
    """An operator the registry lacks, registered once for every row that names it."""

    key: str
    name: str
    kind: str
    mailing: dict[str, str]
    contacts: list[tuple[str, str]] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)


@dataclass
class PersonUpdate:
    """What an import adds to a person already registered: the mailing address it lacked,
    contacts not yet recorded."""

    person_id: int
    mailing: dict[str, str] = field(default_factory=dict)
    contacts: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class NewBuilding:
    key: tuple[int, str]
    property_id: int
    name: str
    use: str

    @property
    def use_label(self) -> str:
        return str(BuildingUse(self.use).label)


@dataclass
class RowPlan:
    """What becomes of one row (see the module)."""

    row: int
    values: dict[str, str]
    outcome: str = ""
    errors: list[tuple[str, str]] = field(default_factory=list)  # (column, message)
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    kind: str = ""
    property_id: int | None = None
    property_label: str = ""
    establishment_id: int | None = None
    establishment_label: str = ""
    operator_id: int | None = None
    new_person: NewPerson | None = None
    building_id: int | None = None
    new_building: NewBuilding | None = None
    #: field of the establishment → (before, after), for a facility already registered
    est_changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    #: what this row adds to its operator (the first row that names it, when several do)
    person_changes: list[str] = field(default_factory=list)
    queued_item: int | None = None

    @property
    def name(self) -> str:
        return self.values.get("facility_name", "")

    @property
    def outcome_label(self) -> str:
        return str(RowOutcome(self.outcome).label) if self.outcome else ""

    def changes(self) -> list[str]:
        out = [f"{k}: {b!r} → {a!r}" for k, (b, a) in self.est_changes.items()]
        return out + self.person_changes

    def fingerprint(self) -> list[Any]:
        return [
            self.row,
            self.outcome,
            self.property_id,
            self.establishment_id,
            self.operator_id,
            self.new_person.key if self.new_person else "",
            self.building_id,
            self.new_building.key if self.new_building else "",
            self.changes(),
            self.reason,
            self.errors,
        ]


@dataclass
class Plan:
    source_name: str
    mapping: MappingSpec
    rows: list[RowPlan] = field(default_factory=list)
    new_persons: dict[str, NewPerson] = field(default_factory=dict)
    person_updates: dict[int, PersonUpdate] = field(default_factory=dict)
    new_buildings: dict[tuple[int, str], NewBuilding] = field(default_factory=dict)

    def of(self, outcome: str) -> list[RowPlan]:
        return [r for r in self.rows if r.outcome == outcome]

    @property
    def errors(self) -> list[tuple[int, str, str]]:
        """Every refusal: (row, column, message)."""
        return [(r.row, col, msg) for r in self.rows for col, msg in r.errors]

    @property
    def refused(self) -> bool:
        return any(r.errors for r in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        return {o.value: len(self.of(o.value)) for o in RowOutcome}

    @property
    def has_work(self) -> bool:
        """Whether applying would write anything."""
        return any(
            r.outcome in (RowOutcome.NEW, RowOutcome.CHANGED, RowOutcome.UNMATCHED)
            for r in self.rows
        )

    def fingerprint(self) -> str:
        """A digest of what applying would do: a preview applied after the registry changed is
        shown again rather than applied."""
        data = [r.fingerprint() for r in self.rows]
        return hashlib.sha256(json.dumps(data, default=str).encode()).hexdigest()

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source_name,
            "mapping": self.mapping.name,
            "rows": len(self.rows),
            "counts": self.counts,
            "refused": self.refused,
            "errors": [{"row": r, "field": f, "message": m} for r, f, m in self.errors],
            "new_persons": len(self.new_persons),
            "outcomes": [
                {
                    "row": r.row,
                    "outcome": r.outcome,
                    "facility": r.name,
                    "establishment_id": r.establishment_id,
                    "property": r.property_label,
                    "reason": r.reason,
                    "changes": r.changes(),
                    "notes": r.notes,
                }
                for r in self.rows
            ],
        }


@dataclass(frozen=True)
class EstInfo:
    pk: int
    name: str
    code: str
    kind: str
    operator_id: int  # the current person (a merged operator stands for its survivor)
    property_id: int
    label: str


class Planner:
    """Reads the registry once (parcels, persons, facilities) and plans rows against it."""

    def __init__(self, mapping: MappingSpec, source_name: str) -> None:
        self.mapping = mapping
        self.source = source_name
        self.parcels = ParcelIndex.load()
        self.persons = PersonIndex.load()
        self.current = self._current_persons()
        self.by_code: dict[str, EstInfo] = {}
        self.by_place: dict[tuple[int, str], list[EstInfo]] = defaultdict(list)
        rows = Establishment.objects.values_list(
            "id", "name", "code", "kind", "operator_id", "building__property_id"
        )
        for pk, name, code, kind, operator_id, property_id in rows.iterator(chunk_size=2000):
            info = EstInfo(
                pk,
                name,
                code,
                kind,
                self.current.get(operator_id, operator_id),
                property_id,
                f"{name} (#{pk})",
            )
            if code:
                self.by_code[code.upper()] = info
            self.by_place[(property_id, normalized(name))].append(info)
        self._buildings: dict[int, list[tuple[int | None, str, tuple[int, str] | None]]] = {}
        self._contacts: dict[int, set[tuple[str, str]]] = {}
        self._mailing: dict[int, bool] = {}
        self.plan = Plan(source_name, mapping)
        # within the file: facility code → row, facility → row, operator key → new person
        self._codes: dict[str, int] = {}
        self._facilities: dict[tuple[Any, ...], int] = {}
        self._queued_rows: dict[str, int] = {}

    @staticmethod
    def _current_persons() -> dict[int, int]:
        merged = dict(
            Person.objects.filter(merged_into__isnull=False).values_list("id", "merged_into_id")
        )
        out: dict[int, int] = {}
        for pk in merged:
            current, seen = pk, {pk}
            while current in merged and merged[current] not in seen:
                current = merged[current]
                seen.add(current)
            out[pk] = current
        return out

    # --- checks of one row ---------------------------------------------------------------------

    def _check(self, plan: RowPlan) -> None:
        v, col = plan.values, self.mapping.column
        for target in TARGET_NAMES:
            text = v.get(target, "")
            if (bad := control_character(text)) is not None:
                plan.errors.append((col(target), f"holds a control character ({bad})"))
                v[target] = ""
                continue
            limit = BY_NAME[target].max_length
            if limit and len(text) > limit:
                plan.errors.append(
                    (
                        col(target),
                        f"{BY_NAME[target].label}: {len(text)} characters, longer than the "
                        f"{limit} the registry keeps",
                    )
                )
        for target in REQUIRED:
            if not v.get(target, ""):
                plan.errors.append((col(target), f"{BY_NAME[target].label}: missing"))
        if word := v.get("kind", ""):
            kind = self.mapping.kind_of(word)
            if kind is None or kind not in EstablishmentKind.values:
                known = sorted(self.mapping.kind_values) or ["none yet"]
                plan.errors.append(
                    (
                        col("kind"),
                        f"{shorten(word)!r} is not a kind the mapping {self.mapping.name!r} "
                        f"knows (its words: {', '.join(shorten(k) for k in known)}; or a kind's "
                        "own name such as Restaurant or Industrial user): add it to the mapping",
                    )
                )
            else:
                plan.kind = kind
        if (use := v.get("building_use", "")) and word_key(use) not in USE_WORDS:
            plan.errors.append(
                (
                    col("building_use"),
                    f"{shorten(use)!r} is not a building use (one of: "
                    f"{', '.join(str(label) for _v, label in BuildingUse.choices)})",
                )
            )
        for target, check, norm in (
            ("mailing_state", validate_state, normalize_state),
            ("mailing_zip", validate_zip, normalize_zip),
        ):
            if text := v.get(target, ""):
                try:
                    check(text)
                except ValidationError as e:
                    plan.errors.append((col(target), " ".join(e.messages)))
                else:
                    v[target] = norm(text)
        if email := v.get("email", ""):
            try:
                validate_email(email)
            except ValidationError:
                plan.errors.append((col("email"), f"{shorten(email)!r} is not an e-mail address"))
        if phone := v.get("phone", ""):
            digits = re.sub(r"\D", "", phone)
            if not PHONE.match(phone) or not 7 <= len(digits) <= 15:
                plan.errors.append((col("phone"), f"{shorten(phone)!r} is not a telephone number"))
        if code := v.get("facility_code", ""):
            v["facility_code"] = code.upper()

    # --- the operator --------------------------------------------------------------------------

    def _operator(self, plan: RowPlan) -> None:
        v = plan.values
        name = v["operator_name"]
        mailing = {
            "mail_street": v.get("mailing_street", ""),
            "mail_city": v.get("mailing_city", ""),
            "mail_state": v.get("mailing_state", ""),
            "mail_zip": v.get("mailing_zip", ""),
        }
        has_mailing = any(mailing.values())
        key = mailing_key(mailing["mail_street"], mailing["mail_zip"])
        contacts: list[tuple[str, str]] = [
            (str(kind), text)
            for kind, text in (
                (ContactKind.EMAIL, v.get("email", "")),
                (ContactKind.PHONE, v.get("phone", "")),
            )
            if text
        ]
        found = self.persons.candidates(name)
        chosen: int | None = None
        if key:
            same = {pk for pk in found if key in self.persons.mailings.get(pk, ())}
            blank = {pk for pk in found if pk not in self.persons.with_mailing}
            if len(same) > 1:
                plan.errors.append(self._ambiguous(name, same, "at that mailing address"))
                return
            if same:
                chosen = next(iter(same))
            elif len(blank) > 1:
                plan.errors.append(self._ambiguous(name, blank, "without a mailing address"))
                return
            elif blank:
                chosen = next(iter(blank))
            elif found:
                plan.notes.append(
                    f"a person named {name!r} is registered at another mailing address: "
                    "a new person is registered for this one"
                )
        else:
            if len(found) > 1:
                plan.errors.append(self._ambiguous(name, found, ""))
                return
            if found:
                chosen = next(iter(found))
        if chosen is not None:
            plan.operator_id = chosen
            self._update_person(plan, chosen, mailing if has_mailing else {}, contacts)
            return
        self._new_person(plan, name, key, mailing, contacts)

    def _ambiguous(self, name: str, ids: set[int], where: str) -> tuple[str, str]:
        listed = ", ".join(f"#{i}" for i in sorted(ids))
        named = " ".join(p for p in (f"{len(ids)} persons named {shorten(name)!r}", where) if p)
        return (
            self.mapping.column("operator_name"),
            f"{named} in the registry ({listed}): give the operator's mailing address to tell "
            "them apart, or merge them first",
        )

    def _new_person(
        self,
        plan: RowPlan,
        name: str,
        key: str,
        mailing: dict[str, str],
        contacts: list[tuple[str, str]],
    ) -> None:
        pkey = f"{normalized(name)}|{key}"
        person = self.plan.new_persons.get(pkey)
        if person is None and not key:
            # a row without a mailing address joins the one person of that name the file
            # registers (with an address given on another row)
            same_name = [
                p for k, p in self.plan.new_persons.items() if k.startswith(f"{normalized(name)}|")
            ]
            if len(same_name) == 1:
                person = same_name[0]
        if person is None:
            person = NewPerson(pkey, name.strip(), person_kind(name), mailing)
            self.plan.new_persons[pkey] = person
        elif not any(person.mailing.values()) and any(mailing.values()):
            person.mailing = mailing
        for contact in contacts:
            if _contact_key(*contact) not in {_contact_key(*c) for c in person.contacts}:
                person.contacts.append(contact)
        person.rows.append(plan.row)
        plan.new_person = person

    def _update_person(
        self,
        plan: RowPlan,
        person_id: int,
        mailing: dict[str, str],
        contacts: list[tuple[str, str]],
    ) -> None:
        if person_id not in self._contacts:
            person = Person.objects.get(pk=person_id)
            self._mailing[person_id] = any(
                (p or "").strip()
                for p in (person.mail_street, person.mail_city, person.mail_state, person.mail_zip)
            )
            self._contacts[person_id] = {
                _contact_key(k, val)
                for k, val in Contact.objects.filter(person_id=person_id).values_list(
                    "kind", "value"
                )
            }
        update = self.plan.person_updates.setdefault(person_id, PersonUpdate(person_id))
        if mailing and not self._mailing[person_id] and not update.mailing:
            update.mailing = mailing
            plan.person_changes.append("operator's mailing address recorded (it had none)")
        for kind, text in contacts:
            ckey = _contact_key(kind, text)
            if ckey in self._contacts[person_id]:
                continue
            self._contacts[person_id].add(ckey)
            update.contacts.append((kind, text))
            plan.person_changes.append(f"operator's {ContactKind(kind).label.lower()} {text} added")

    # --- the facility --------------------------------------------------------------------------

    def _building(self, plan: RowPlan, property_id: int) -> None:
        wanted = plan.values.get("building_name", "")
        if property_id not in self._buildings:
            self._buildings[property_id] = [
                (pk, name, None)
                for pk, name in Building.objects.filter(property_id=property_id)
                .order_by("id")
                .values_list("id", "name")
            ]
        known = self._buildings[property_id]
        same = [b for b in known if wanted and word_key(b[1]) == word_key(wanted)]
        chosen = same[0] if same else (known[0] if len(known) == 1 else None)
        if chosen is not None:
            pk, name, new_key = chosen
            if new_key is not None:
                plan.new_building = self.plan.new_buildings[new_key]
            else:
                plan.building_id = pk
                if wanted and word_key(name) != word_key(wanted):
                    plan.notes.append(f"in the parcel's only building, {name!r}")
            return
        name = wanted or plan.name
        use_word = plan.values.get("building_use", "")
        use = str(USE_WORDS[word_key(use_word)] if use_word else USE_OF_KIND[plan.kind])
        key = (property_id, word_key(name))
        building = NewBuilding(key, property_id, name, use)
        self.plan.new_buildings[key] = building
        known.append((None, name, key))
        plan.new_building = building

    def _facility(self, plan: RowPlan, match_property: int | None) -> None:
        v = plan.values
        code = v.get("facility_code", "")
        col = self.mapping.column
        existing: EstInfo | None = None
        if code:
            if (first := self._codes.get(code)) is not None:
                plan.errors.append(
                    (col("facility_code"), f"the facility code {code} is also on row {first}")
                )
                return
            self._codes[code] = plan.row
        if code and code in self.by_code:
            existing = self.by_code[code]
            if match_property is not None and existing.property_id != match_property:
                plan.errors.append(
                    (
                        col("facility_code"),
                        f"the facility code {code} is {existing.label} at "
                        f"{self.parcels.labels.get(existing.property_id, 'another parcel')}, not at "
                        f"{self.parcels.labels.get(match_property, 'this parcel')}",
                    )
                )
                return
        elif match_property is not None:
            here = self.by_place.get((match_property, normalized(plan.name)), [])
            if len(here) > 1:
                plan.errors.append(
                    (
                        col("facility_name"),
                        f"{len(here)} facilities named {shorten(plan.name)!r} on this parcel: "
                        "give the facility code",
                    )
                )
                return
            if here:
                existing = here[0]
                if code and existing.code and existing.code != code:
                    plan.errors.append(
                        (
                            col("facility_code"),
                            f"{existing.label} on this parcel has the facility code "
                            f"{existing.code}, not {code}",
                        )
                    )
                    return
        if existing is None and match_property is None:
            return  # unmatched: decided by the caller
        facility_key: tuple[Any, ...] = (
            ("est", existing.pk)
            if existing is not None
            else ("new", match_property, normalized(plan.name))
        )
        if (first := self._facilities.get(facility_key)) is not None:
            plan.errors.append((col("facility_name"), f"the same facility as row {first}"))
            return
        self._facilities[facility_key] = plan.row
        self._operator(plan)
        if plan.errors:
            return
        if existing is not None:
            plan.establishment_id = existing.pk
            plan.establishment_label = existing.label
            plan.property_id = existing.property_id
            plan.property_label = self.parcels.labels.get(existing.property_id, "")
            changes = plan.est_changes
            if existing.name != plan.name:
                changes["name"] = (existing.name, plan.name)
            if existing.kind != plan.kind:
                changes["kind"] = (existing.kind, plan.kind)
            if code and not existing.code:
                changes["code"] = ("", code)
            if plan.new_person is not None:
                changes["operator"] = (f"#{existing.operator_id}", f"new: {plan.new_person.name}")
            elif plan.operator_id != existing.operator_id:
                changes["operator"] = (f"#{existing.operator_id}", f"#{plan.operator_id}")
            plan.outcome = (
                RowOutcome.CHANGED
                if plan.est_changes or plan.person_changes
                else RowOutcome.UNCHANGED
            )
            return
        assert match_property is not None
        plan.property_id = match_property
        plan.property_label = self.parcels.labels.get(match_property, "")
        self._building(plan, match_property)
        plan.outcome = RowOutcome.NEW

    # --- rows ----------------------------------------------------------------------------------

    def row(
        self, number: int, values: dict[str, str], *, property_id: int | None = None
    ) -> RowPlan:
        """Plan one row; ``property_id``: the parcel the clerk chose (the review queue)."""
        plan = RowPlan(number, dict(values))
        self._check(plan)
        if not plan.errors:
            if property_id is not None:
                match_property: int | None = property_id
                plan.property_label = self.parcels.labels.get(property_id, "")
            else:
                found = self.parcels.find(
                    plan.values.get("sbl_or_parcel", ""), plan.values.get("address", "")
                )
                match_property = found.property_id
                if found.note:
                    plan.notes.append(found.note)
                plan.reason = found.reason
            self._facility(plan, match_property)
            if not plan.errors and not plan.outcome:
                self._unmatched(plan)
            elif plan.outcome and plan.reason:  # matched by its facility code
                plan.notes.append(f"{plan.reason}: the facility is matched by its code")
                plan.reason = ""
        if plan.errors:
            plan.outcome = RowOutcome.REFUSED
        self.plan.rows.append(plan)
        return plan

    def _unmatched(self, plan: RowPlan) -> None:
        key = values_key(plan.values)
        if (first := self._queued_rows.get(key)) is not None:
            plan.errors.append((self.mapping.column("facility_name"), f"repeats row {first}"))
            return
        self._queued_rows[key] = plan.row
        item = ReviewItem.objects.filter(values_key=key).order_by("id").first()
        if item is not None:
            plan.queued_item = item.pk
            plan.outcome = RowOutcome.QUEUED_BEFORE
            plan.notes.append(
                f"already in the review queue: item #{item.pk} ({item.get_state_display().lower()})"
            )
            return
        plan.outcome = RowOutcome.UNMATCHED


def _contact_key(kind: str, value: str) -> tuple[str, str]:
    if kind == ContactKind.PHONE:
        return kind, re.sub(r"\D", "", value)
    return kind, value.strip().casefold()


def plan_import(sheet: Sheet, mapping: MappingSpec) -> Plan:
    """What applying ``sheet`` through ``mapping`` would do (reads, never writes)."""
    planner = Planner(mapping, sheet.source_name)
    for number, cells in sheet.rows:
        planner.row(number, mapping.values_of(cells))
    return planner.plan
