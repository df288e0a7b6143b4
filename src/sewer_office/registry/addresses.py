"""Where a letter to a person goes: the one place every letter takes its address block from.

Why one function: the notices, orders, certificates, referrals, invoices, receipts, statements
and approvals must all address a person the same way, and an address a carrier cannot deliver
(no town, no ZIP code) must be caught before the letter is mailed, not by the post office.

Which address (:func:`mailing_address`):

1. the person's own mailing address, when the office recorded one (its mail goes elsewhere
   than the premises: an absentee owner, a corporate office) — the structured one
   (``Person.mail_*``), else the free-text "Mailing address" contact of older records;
   a complete one is preferred, but a recorded one that is incomplete is still chosen (with
   its gaps) rather than silently mailing to the premises the person said not to use;
2. else the postal address of the premises concerned (or the first property the person owns).

:func:`address_gaps` names what the chosen address lacks ("ZIP code", "town"…), so the pages
that issue letters can warn the office (a notice may still be served in person).

The services at the end record an edit of an address, audited.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput

from .choices import ContactKind
from .models import Person, Property
from .postal import STATES, cleaned, locality_line, normalize_state

#: A free-text line that ends an address: "Town, ST 12345" (a ZIP+4 too).
_LOCALITY = re.compile(r"[A-Za-z][A-Za-z .'-]*,?\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)\s*$")
_ZIP_IN_TEXT = re.compile(r"\b\d{5}(?:-\d{4})?\b")

#: The parts of an address, as a warning names them.
STREET, TOWN, STATE, ZIP_CODE = "street", "town", "state", "ZIP code"


@dataclass(frozen=True)
class PostalAddress:
    """An address as a letter prints it: its street lines and its locality, with where it
    came from and what it lacks."""

    street_lines: tuple[str, ...]
    locality: str
    source: str
    gaps: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.gaps

    @property
    def lines(self) -> list[str]:
        return [*self.street_lines, *([self.locality] if self.locality else [])]


def _split(text: str) -> tuple[str, ...]:
    return tuple(ln.strip() for ln in (text or "").replace("\r", "").split("\n") if ln.strip())


def _structured(street: str, city: str, state: str, zip_code: str, source: str) -> PostalAddress:
    streets = _split(street)
    wanted = ((STREET, streets), (TOWN, city.strip()), (STATE, state.strip()), (ZIP_CODE, zip_code))
    return PostalAddress(
        street_lines=streets,
        locality=locality_line(city, state, zip_code.strip()),
        source=source,
        gaps=tuple(name for name, value in wanted if not value),
    )


def person_mailing(person: Any) -> PostalAddress | None:
    """The person's structured mailing address, if any part of it is recorded."""
    parts = (person.mail_street, person.mail_city, person.mail_state, person.mail_zip)
    if not any((p or "").strip() for p in parts):
        return None
    return _structured(*parts, source="mailing address")


def contact_mailing(person: Any) -> PostalAddress | None:
    """The free-text "Mailing address" contact of older records, read as lines: the last one
    is its locality when it reads "Town, ST 12345"."""
    mail = person.contacts.filter(kind=ContactKind.MAIL).order_by("id").first()
    lines = _split(mail.value) if mail is not None else ()
    if not lines:
        return None
    last = _LOCALITY.search(lines[-1])
    if last is not None and len(lines) > 1 and normalize_state(last.group(1)) in STATES:
        return PostalAddress(lines[:-1], lines[-1], "mailing address (as written)", ())
    text = " ".join(lines)
    gaps = []
    if len(lines) < 2:
        gaps.append(TOWN)
    if not re.search(r"\b[A-Z]{2}\b", text) and "New York" not in text:
        gaps.append(STATE)
    if not _ZIP_IN_TEXT.search(text):
        gaps.append(ZIP_CODE)
    return PostalAddress(lines, "", "mailing address (as written)", tuple(gaps or [TOWN]))


def property_postal(prop: Any) -> PostalAddress:
    """A property's postal address: its street line and its town, state and ZIP code."""
    return _structured(prop.address, prop.city, prop.state, prop.zip, source="premises")


def mailing_address(person: Any, premises: Any = None) -> PostalAddress | None:
    """The address a letter to ``person`` goes to (see the module's docstring for the order);
    None when nothing at all is recorded."""
    own = [a for a in (person_mailing(person), contact_mailing(person)) if a is not None]
    for address in own:
        if address.complete:
            return address
    if own:
        return own[0]
    prop = premises if premises is not None else person.properties.order_by("id").first()
    return property_postal(prop) if prop is not None else None


def mailing_lines(person: Any, premises: Any = None) -> list[str]:
    """The address block of a letter: the person's name, its street line(s), then
    "Town, ST 12345" (as much of it as is recorded)."""
    address = mailing_address(person, premises)
    return [person.name, *(address.lines if address is not None else [])]


def address_gaps(person: Any, premises: Any = None) -> list[str]:
    """What the address a letter to ``person`` would go to lacks (empty: complete)."""
    address = mailing_address(person, premises)
    if address is None:
        return [STREET, TOWN, STATE, ZIP_CODE]
    return list(address.gaps)


# --- services: recording an address --------------------------------------------------------

EDIT_ROLES = (CLERK, SUPERINTENDENT)


def _require(actor: Actor) -> None:
    if not has_role(actor, *EDIT_ROLES):
        raise Forbidden("Recording an address is the clerk's or the Superintendent's work.")


def set_mailing_address(
    person: Person, actor: Actor, *, street: str, city: str, state: str, zip_code: str
) -> Person:
    """Record where ``person``'s mail goes (all blank: to its premises), audited."""
    _require(actor)
    values = cleaned(
        {"mail_street": street, "mail_city": city, "mail_state": state, "mail_zip": zip_code},
        "mail_state",
        "mail_zip",
    )
    with transaction.atomic():
        locked = Person.objects.select_for_update().get(pk=person.pk)
        return audit.change_recorded(locked, values, actor=actor, action="set_mailing_address")


def set_postal_address(
    prop: Property, actor: Actor, *, address: str, city: str, state: str, zip_code: str
) -> Property:
    """Record a property's street line and postal town, state and ZIP code, audited."""
    _require(actor)
    values = cleaned(
        {"address": address, "city": city, "state": state, "zip": zip_code}, "state", "zip"
    )
    if not values["address"]:
        raise InvalidInput({"address": ["Address: the street line is required."]})
    with transaction.atomic():
        locked = Property.objects.select_for_update().get(pk=prop.pk)
        return audit.change_recorded(locked, values, actor=actor, action="set_postal_address")
