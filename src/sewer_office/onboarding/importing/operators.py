"""The operator of each planned row: a registered person found by name (told apart by the
mailing address when several share it), what the row adds to that person (a mailing address it
lacked, contacts), or a new person shared by the rows of the file that name it alike.

Apart from the facility's planning (:mod:`.planner`) because it reads other records (persons
and their contacts) and decides on its own words; it reads and never writes.
"""

from __future__ import annotations

import re

from sewer_office.onboarding.matching import PersonIndex, mailing_key
from sewer_office.registry.choices import ContactKind, PersonKind
from sewer_office.registry.models import Contact, Person
from sewer_office.registry.names import normalized, person_kind
from sewer_rules.hostile import shorten

from .plan import NewPerson, PersonUpdate, Plan, RowPlan
from .targets import MappingSpec


def contact_key(kind: str, value: str) -> tuple[str, str]:
    """A contact as compared: a telephone number by its digits, an e-mail address case aside."""
    if kind == ContactKind.PHONE:
        return kind, re.sub(r"\D", "", value)
    return kind, value.strip().casefold()


class OperatorPlanner:
    """Plans each row's operator against the persons of the registry (read once) and the new
    persons the file registers (``plan.new_persons``, ``plan.person_updates``)."""

    def __init__(self, mapping: MappingSpec, persons: PersonIndex, plan: Plan) -> None:
        self.mapping = mapping
        self.persons = persons
        self.plan = plan
        self._contacts: dict[int, set[tuple[str, str]]] = {}
        self._mailing: dict[int, bool] = {}

    def plan_operator(self, plan: RowPlan) -> None:
        """The row's operator: a registered person (by name, told apart by the mailing address),
        or a new one; refused (``plan.errors``) when the name is ambiguous."""
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
            person = NewPerson(pkey, name.strip(), person_kind(name, PersonKind.FIRM), mailing)
            self.plan.new_persons[pkey] = person
        elif not any(person.mailing.values()) and any(mailing.values()):
            person.mailing = mailing
        for contact in contacts:
            if contact_key(*contact) not in {contact_key(*c) for c in person.contacts}:
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
                contact_key(k, val)
                for k, val in Contact.objects.filter(person_id=person_id).values_list(
                    "kind", "value"
                )
            }
        update = self.plan.person_updates.setdefault(person_id, PersonUpdate(person_id))
        if mailing and not self._mailing[person_id] and not update.mailing:
            update.mailing = mailing
            plan.person_changes.append("operator's mailing address recorded (it had none)")
        for kind, text in contacts:
            ckey = contact_key(kind, text)
            if ckey in self._contacts[person_id]:
                continue
            self._contacts[person_id].add(ckey)
            update.contacts.append((kind, text))
            plan.person_changes.append(f"operator's {ContactKind(kind).label.lower()} {text} added")
