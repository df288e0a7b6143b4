"""Services of the registry: the changes to registry records that the law cares about.

Each writes its audit event in the same transaction as the change.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import transaction

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, SUPERINTENDENT, has_role
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput

from .models import Building, Contact, Establishment, Person, Property, ServiceArea
from .postal import cleaned
from .signals import public_sewer_declared

AVAILABILITY_CITATION = "§ 196-17 E"
AVAILABILITY_ROLES = (CLERK, SUPERINTENDENT)


def declare_public_sewer_available(
    area: ServiceArea, on: date, act: str, actor: Actor, *, at: datetime | None = None
) -> ServiceArea:
    """Record the Town's act making public sewer available to ``area`` from ``on``.

    From that date every property of the area on a private system must connect and abandon the
    private system (§ 196-17 E): the permits app opens those requirements, in this transaction.
    Recorded by the clerk (who keeps the Town's acts) or the Superintendent.
    """
    if not has_role(actor, *AVAILABILITY_ROLES):
        raise Forbidden(
            f"Recording public sewer availability is reserved to the clerk or the Superintendent "
            f"({AVAILABILITY_CITATION})."
        )
    if not act.strip():
        raise Blocked(
            "Name the Town's act (resolution number and date) that makes sewer available."
        )
    with transaction.atomic():
        locked = ServiceArea.objects.select_for_update().get(pk=area.pk)
        if locked.public_sewer_available_from is not None:
            raise Blocked(
                f"{locked.name}: public sewer already available from "
                f"{locked.public_sewer_available_from:%Y-%m-%d} ({locked.availability_act})."
            )
        before = audit.snapshot(locked)
        locked.public_sewer_available_from = on
        locked.availability_act = act.strip()
        locked.save()
        audit.record(
            actor=actor,
            action="declare_public_sewer_available",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=act.strip(),
            citation=AVAILABILITY_CITATION,
            at=at,
        )
        public_sewer_declared.send(
            sender=ServiceArea, area=locked, on=on, act=act, actor=actor, at=at
        )
    return locked


def set_wastewater_service(
    prop: Property,
    service: str,
    on: date,
    actor: Actor,
    *,
    citation: str,
    reason: str = "",
    at: datetime | None = None,
) -> Property:
    """Change a property's wastewater service (called by the permits' services, in their
    transaction, e.g. when a building sewer connection is completed, § 196-18 J)."""
    locked = Property.objects.select_for_update().get(pk=prop.pk)
    before = audit.snapshot(locked)
    locked.wastewater_service = service
    locked.service_since = on
    locked.save()
    audit.record(
        actor=actor,
        action="set_wastewater_service",
        obj=locked,
        before=before,
        after=audit.snapshot(locked),
        reason=reason,
        citation=citation,
        at=at,
    )
    return locked


# --- intake: registering persons, properties and establishments --------------------------------

INTAKE_ROLES = (CLERK,)


def _require_intake(actor: Actor, what: str) -> None:
    if not has_role(actor, *INTAKE_ROLES):
        raise Forbidden(f"Registering {what} is the clerk's work.")


def register_person(
    actor: Actor,
    *,
    kind: str,
    name: str,
    contacts: dict[str, str],
    mailing: dict[str, str] | None = None,
) -> Person:
    """A person of § 196-15 PERSON with its contacts and (``mail_*`` keys) the mailing address
    its mail goes to when not its premises, audited."""
    _require_intake(actor, "a person")
    with transaction.atomic():
        person = audit.create_recorded(
            Person,
            {"kind": kind, "name": name.strip(), **cleaned(mailing, "mail_state", "mail_zip")},
            actor=actor,
            action="register",
            citation="§ 196-15 PERSON",
        )
        for contact_kind, value in contacts.items():
            if value.strip():
                Contact.objects.create(person=person, kind=contact_kind, value=value.strip())
    return person


def register_property(
    actor: Actor,
    *,
    parcel_id: str,
    address: str,
    owner: Person,
    service_area: ServiceArea | None,
    acreage: Any = None,
    building_use: str = "",
    dwelling_units: int = 0,
    postal: dict[str, str] | None = None,
) -> Property:
    """A tax parcel with its owner, area, postal locality (``city``, ``state``, ``zip``) and
    (optionally) its building, audited."""
    _require_intake(actor, "a property")
    with transaction.atomic():
        prop = audit.create_recorded(
            Property,
            {
                "parcel_id": parcel_id,
                "address": address.strip(),
                **cleaned(postal, "state", "zip"),
                "owner": owner,
                "service_area": service_area,
                "acreage": acreage,
            },
            actor=actor,
            action="register",
        )
        if building_use:
            Building.objects.create(
                property=prop, name="Main building", use=building_use, dwelling_units=dwelling_units
            )
    return prop


def register_establishment(
    actor: Actor, *, name: str, kind: str, operator: Person, building: Building, code: str = ""
) -> Establishment:
    """A business operating in a building, audited. ``code`` is the facility code that
    laboratory files and meters use (upper-cased; unique among establishments)."""
    _require_intake(actor, "an establishment")
    code = code.strip().upper()
    if code and Establishment.objects.filter(code=code).exists():
        raise InvalidInput({"code": [f"facility code {code} is already in use"]})
    return audit.create_recorded(
        Establishment,
        {
            "name": name.strip(),
            "kind": kind,
            "operator": operator,
            "building": building,
            "code": code,
        },
        actor=actor,
        action="register",
    )
