"""The planner: reads the registry once (parcels, persons, facilities) and decides each row
against it — its parcel (:mod:`~sewer_office.onboarding.matching`), its operator
(:mod:`.operators`), its building and its facility — remembering within the file what earlier rows took (a facility code, a
facility, a new person or building, a row already queued).

It reads and never writes: :mod:`~sewer_office.onboarding.services` writes the
:class:`~.plan.Plan` it fills.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sewer_office.onboarding.choices import RowOutcome
from sewer_office.onboarding.matching import ParcelIndex, PersonIndex
from sewer_office.onboarding.models import ReviewItem
from sewer_office.onboarding.spreadsheet import Sheet
from sewer_office.registry.choices import (
    BuildingUse,
    EstablishmentKind,
)
from sewer_office.registry.models import Building, Establishment
from sewer_office.registry.names import normalized
from sewer_rules.hostile import shorten

from .checks import check_row
from .operators import OperatorPlanner
from .plan import NewBuilding, Plan, RowPlan
from .targets import USE_WORDS, MappingSpec, values_key, word_key

#: The use a new building is given when the row names none: the kind's.
USE_OF_KIND: dict[str, str] = {
    EstablishmentKind.RESTAURANT: BuildingUse.FOOD_SERVICE,
    EstablishmentKind.FOOD_PREPARATION: BuildingUse.FOOD_SERVICE,
    EstablishmentKind.FOOD_PROCESSING: BuildingUse.INDUSTRIAL,
    EstablishmentKind.INDUSTRIAL: BuildingUse.INDUSTRIAL,
    EstablishmentKind.COMMERCIAL: BuildingUse.COMMERCIAL,
    EstablishmentKind.INSTITUTIONAL: BuildingUse.INSTITUTIONAL,
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
        self.parcels = ParcelIndex.load()
        self.persons = PersonIndex.load()
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
                self.persons.survivor.get(operator_id, operator_id),
                property_id,
                f"{name} (#{pk})",
            )
            if code:
                self.by_code[code.upper()] = info
            self.by_place[(property_id, normalized(name))].append(info)
        self._buildings: dict[int, list[tuple[int | None, str, tuple[int, str] | None]]] = {}
        self.plan = Plan(source_name, mapping)
        self.operators = OperatorPlanner(mapping, self.persons, self.plan)
        # within the file: facility code → row, facility → row, queued values → row
        self._codes: dict[str, int] = {}
        self._facilities: dict[tuple[Any, ...], int] = {}
        self._queued_rows: dict[str, int] = {}

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

    def _registered(self, plan: RowPlan, match_property: int | None) -> EstInfo | None:
        """The registered facility the row names: by its facility code, else by its name on the
        parcel found; None when there is none, or when the row is refused (``plan.errors``)."""
        code = plan.values.get("facility_code", "")
        col = self.mapping.column
        if code:
            if (first := self._codes.get(code)) is not None:
                plan.errors.append(
                    (col("facility_code"), f"the facility code {code} is also on row {first}")
                )
                return None
            self._codes[code] = plan.row
            if (existing := self.by_code.get(code)) is not None:
                if match_property is not None and existing.property_id != match_property:
                    plan.errors.append(
                        (
                            col("facility_code"),
                            f"the facility code {code} is {existing.label} at "
                            f"{self.parcels.labels.get(existing.property_id, 'another parcel')}, "
                            f"not at {self.parcels.labels.get(match_property, 'this parcel')}",
                        )
                    )
                    return None
                return existing
        if match_property is None:
            return None
        here = self.by_place.get((match_property, normalized(plan.name)), [])
        if len(here) > 1:
            plan.errors.append(
                (
                    col("facility_name"),
                    f"{len(here)} facilities named {shorten(plan.name)!r} on this parcel: "
                    "give the facility code",
                )
            )
            return None
        if not here:
            return None
        existing = here[0]
        if code and existing.code and existing.code != code:
            plan.errors.append(
                (
                    col("facility_code"),
                    f"{existing.label} on this parcel has the facility code "
                    f"{existing.code}, not {code}",
                )
            )
            return None
        return existing

    def _compare(self, plan: RowPlan, existing: EstInfo) -> None:
        """A registered facility: what the row changes of it (or nothing)."""
        plan.establishment_id = existing.pk
        plan.establishment_label = existing.label
        plan.property_id = existing.property_id
        plan.property_label = self.parcels.labels.get(existing.property_id, "")
        code = plan.values.get("facility_code", "")
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
            RowOutcome.CHANGED if plan.est_changes or plan.person_changes else RowOutcome.UNCHANGED
        )

    def _facility(self, plan: RowPlan, match_property: int | None) -> None:
        existing = self._registered(plan, match_property)
        if plan.errors or (existing is None and match_property is None):
            return  # refused, or unmatched: decided by the caller
        facility_key: tuple[Any, ...] = (
            ("est", existing.pk)
            if existing is not None
            else ("new", match_property, normalized(plan.name))
        )
        if (first := self._facilities.get(facility_key)) is not None:
            plan.errors.append(
                (self.mapping.column("facility_name"), f"the same facility as row {first}")
            )
            return
        self._facilities[facility_key] = plan.row
        self.operators.plan_operator(plan)
        if plan.errors:
            return
        if existing is not None:
            self._compare(plan, existing)
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
        check_row(plan, self.mapping)
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


def plan_import(sheet: Sheet, mapping: MappingSpec) -> Plan:
    """What applying ``sheet`` through ``mapping`` would do (reads, never writes)."""
    planner = Planner(mapping, sheet.source_name)
    for number, cells in sheet.rows:
        planner.row(number, mapping.values_of(cells))
    return planner.plan
