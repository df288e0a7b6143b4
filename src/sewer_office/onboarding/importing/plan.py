"""What an import would do, as data: each row's plan (:class:`RowPlan`) and the whole
(:class:`Plan`), with the persons and buildings it would register.

Kept apart from the planner that fills it: :mod:`~sewer_office.onboarding.services` writes a
plan, the preview page and the command line show it, and none of them needs the registry
look-ups.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sewer_office.onboarding.choices import RowOutcome
from sewer_office.registry.choices import BuildingUse

from .targets import MappingSpec, digest


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
    """What becomes of one row (see :mod:`~sewer_office.onboarding.importing`)."""

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
        return digest([r.fingerprint() for r in self.rows])

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
