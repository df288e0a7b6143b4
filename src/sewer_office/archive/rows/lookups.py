"""Who and where a row names, matched against the registry and the office's accounts.

Matched, never created: a person by ``*_id`` or by name (exactly one of the registry's, once
merged duplicates are followed), a property by its tax parcel id or SBL, a facility by its
facility code or name, an inspector by an office account's user name. Each distinct value is
looked up once per import.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from sewer_office.registry.models import Establishment, Person, Property
from sewer_rules.hostile import shorten

from .values import RowError


class Registry:
    """The registry's persons, properties, facilities and the office's accounts, looked up once
    per distinct value of an import."""

    def __init__(self) -> None:
        self._persons: dict[str, Person] = {}
        self._properties: dict[str, Property] = {}
        self._facilities: dict[str, Establishment] = {}
        self._users: dict[str, Any] = {}

    def person(self, row: dict[str, str], name_col: str, id_col: str) -> Person | None:
        """The person ``row`` names (None when both columns are empty)."""
        name = " ".join(row.get(name_col, "").split())
        pid = row.get(id_col, "")
        if pid:
            if not pid.isdigit():
                raise RowError(id_col, f"'{shorten(pid)}' is not a person's number")
            person = Person.objects.filter(pk=int(pid)).first()
            if person is None:
                raise RowError(id_col, f"no person #{pid} in the registry")
            if name and name.lower() != person.name.lower():
                raise RowError(name_col, f"person #{pid} is {person.name}, not {shorten(name)}")
            return person.current()
        if not name:
            return None
        key = name.lower()
        if key not in self._persons:
            found = list(Person.objects.filter(name__iexact=name, merged_into__isnull=True)[:3])
            if not found:
                merged = Person.objects.filter(name__iexact=name).first()
                if merged is None:
                    raise RowError(
                        name_col,
                        f"no person named {shorten(name)} in the registry: register the person "
                        f"first (or give {id_col})",
                    )
                found = [merged.current()]
            if len(found) > 1:
                raise RowError(
                    name_col,
                    f"{len(found) if len(found) < 3 else 'several'} persons are named "
                    f"{shorten(name)}: give {id_col} (the person's number in the registry)",
                )
            self._persons[key] = found[0]
        return self._persons[key]

    def prop(self, row: dict[str, str], column: str = "parcel") -> Property | None:
        text = row.get(column, "")
        if not text:
            return None
        if text not in self._properties:
            found = Property.objects.filter(parcel_id=text).first()
            if found is None:
                by_sbl = list(Property.objects.filter(sbl=text)[:2])
                if len(by_sbl) > 1:
                    raise RowError(
                        column, f"SBL {shorten(text)} names several parcels: give the tax parcel id"
                    )
                found = by_sbl[0] if by_sbl else None
            if found is None:
                raise RowError(column, f"no property with the tax parcel id or SBL {shorten(text)}")
            self._properties[text] = found
        return self._properties[text]

    def facility(self, row: dict[str, str], column: str = "facility") -> Establishment | None:
        text = row.get(column, "")
        if not text:
            return None
        key = text.upper()
        if key not in self._facilities:
            found = (
                Establishment.objects.select_related("building__property").filter(code=key).first()
            )
            if found is None:
                named = list(
                    Establishment.objects.select_related("building__property").filter(
                        name__iexact=text
                    )[:2]
                )
                if len(named) > 1:
                    raise RowError(
                        column,
                        f"several facilities are named {shorten(text)}: give the facility code",
                    )
                found = named[0] if named else None
            if found is None:
                raise RowError(column, f"no facility with the code or name {shorten(text)}")
            self._facilities[key] = found
        return self._facilities[key]

    def user(self, row: dict[str, str], column: str) -> Any:
        name = row.get(column, "")
        if not name:
            raise RowError(column, "required: the user name of an office account")
        if name not in self._users:
            user = get_user_model().objects.filter(username=name).first()
            if user is None:
                raise RowError(
                    column,
                    f"no office account '{shorten(name)}': create one for the inspector (it may "
                    "stay inactive) or name an existing one",
                )
            self._users[name] = user
        return self._users[name]
