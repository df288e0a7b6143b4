"""Writing an import's plan into the registry: persons, properties, buildings and
establishments created or matched, each with its audit event, and the rows the plan could not
place queued for review — in the order the plan lists them, inside the import's transaction.

The plan itself is computed without the database's side effects (:mod:`.importing.planner`);
:func:`.services.apply_import` checks it is still the one previewed and hands it to
:class:`Writer`.
"""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.actors import Actor
from sewer_office.core import audit
from sewer_office.registry.models import Building, Contact, Establishment, Person
from sewer_office.registry.postal import cleaned

from .choices import RowOutcome
from .importing import (
    Plan,
    RowPlan,
)

PERSON_CITATION = "§ 196-15 PERSON"


class Writer:
    """Writes what a plan decided, each record with its audit event."""

    def __init__(self, plan: Plan, actor: Actor, reason: str) -> None:
        self.plan = plan
        self.actor = actor
        self.reason = reason
        self.persons: dict[str, Person] = {}
        self.buildings: dict[tuple[int, str], Building] = {}
        self.updated: set[int] = set()

    def _person(self, row: RowPlan) -> Person:
        if row.new_person is None:
            assert row.operator_id is not None
            self._update(row.operator_id)
            return Person.objects.get(pk=row.operator_id)
        new = row.new_person
        if new.key not in self.persons:
            person = audit.create_recorded(
                Person,
                {
                    "kind": new.kind,
                    "name": new.name,
                    **cleaned(new.mailing, "mail_state", "mail_zip"),
                },
                actor=self.actor,
                action="register",
                citation=PERSON_CITATION,
                reason=self.reason,
            )
            for kind, value in new.contacts:
                self._contact(person, kind, value)
            self.persons[new.key] = person
        return self.persons[new.key]

    def _contact(self, person: Person, kind: str, value: str) -> None:
        contact = Contact.objects.create(
            person=person, kind=kind, value=value, label="from the facilities import"
        )
        audit.record(
            actor=self.actor,
            action="add_contact",
            obj=person,
            after={"contact": contact.pk, "kind": kind, "value": value},
            reason=self.reason,
        )

    def _update(self, person_id: int) -> None:
        update = self.plan.person_updates.get(person_id)
        if update is None or person_id in self.updated:
            return
        self.updated.add(person_id)
        person = Person.objects.select_for_update().get(pk=person_id)
        if update.mailing:
            audit.change_recorded(
                person,
                cleaned(update.mailing, "mail_state", "mail_zip"),
                actor=self.actor,
                action="set_mailing_address",
                reason=self.reason,
            )
        for kind, value in update.contacts:
            self._contact(person, kind, value)

    def _building(self, row: RowPlan) -> Building:
        if row.new_building is None:
            assert row.building_id is not None
            return Building.objects.get(pk=row.building_id)
        new = row.new_building
        if new.key not in self.buildings:
            self.buildings[new.key] = audit.create_recorded(
                Building,
                {"property_id": new.property_id, "name": new.name, "use": new.use},
                actor=self.actor,
                action="register",
                reason=self.reason,
            )
        return self.buildings[new.key]

    def row(self, row: RowPlan) -> Establishment | None:
        """Write one planned row (new or changed); the facility it names."""
        why = f"{self.reason}, row {row.row}"
        if row.outcome == RowOutcome.NEW:
            operator = self._person(row)
            return audit.create_recorded(
                Establishment,
                {
                    "name": row.name,
                    "kind": row.kind,
                    "operator": operator,
                    "building": self._building(row),
                    "code": row.values.get("facility_code", ""),
                },
                actor=self.actor,
                action="register",
                reason=why,
            )
        if row.outcome in (RowOutcome.CHANGED, RowOutcome.UNCHANGED):
            assert row.establishment_id is not None
            est = Establishment.objects.select_for_update().get(pk=row.establishment_id)
            operator = self._person(row)
            if not row.est_changes:
                return est
            fields: dict[str, Any] = {}
            for name in row.est_changes:
                fields[name] = operator if name == "operator" else row.est_changes[name][1]
            return audit.change_recorded(
                est, fields, actor=self.actor, action="change_from_import", reason=why
            )
        return None


#: The definitions the registry's records answer to.
