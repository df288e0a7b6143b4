"""Services of the registry: the changes to registry records that the law cares about.

Each writes its audit event in the same transaction as the change.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import transaction

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.jurisdictions import acts_for, jurisdictions_of
from sewer_office.accounts.roles import CLERK, COORDINATOR, SUPERINTENDENT, has_role
from sewer_office.accounts.towns import installed, primary
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import require_acting_for

from .following import follow_parcel
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
    jurisdiction: str = "",
) -> Property:
    """A tax parcel with its owner, area, postal locality (``city``, ``state``, ``zip``) and
    (optionally) its building, audited.

    The parcel belongs to its service area's jurisdiction; without an area, to
    ``jurisdiction``, else to the one town the clerk acts for, else to the installation's
    primary town (:func:`jurisdiction_for`)."""
    _require_intake(actor, "a property")
    governed_by = jurisdiction_for(actor, service_area, jurisdiction)
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
                "jurisdiction": governed_by,
            },
            actor=actor,
            action="register",
        )
        if building_use:
            Building.objects.create(
                property=prop, name="Main building", use=building_use, dwelling_units=dwelling_units
            )
    return prop


def jurisdiction_for(actor: Actor, area: ServiceArea | None, asked: str = "") -> str:
    """The jurisdiction a new parcel belongs to: its service area's; else ``asked``; else the
    one the actor acts for; else the primary. Refused when the actor does not act for it (a
    Wappinger clerk registers no Poughkeepsie parcel) or the installation does not serve it."""
    theirs = jurisdictions_of(actor)
    if area is not None:
        found = area.jurisdiction
        if asked and asked != found:
            raise InvalidInput(
                {"jurisdiction": [f"{area.name} is governed by {found}'s law, not {asked}'s"]}
            )
    elif asked:
        found = asked
    elif theirs is not None and len(theirs) == 1:
        found = next(iter(theirs))
    else:
        found = primary()
    _require_served(found)
    if not acts_for(actor, found):
        raise Forbidden(f"Your account does not act for {found}.")
    return found


def _require_served(town: str) -> None:
    """Refused: a town the installation does not serve (``SEWER_USE_JURISDICTIONS``)."""
    if town not in installed():
        raise InvalidInput(
            {"jurisdiction": [f"this installation serves {', '.join(installed())}, not {town}"]}
        )


#: Who records that a parcel passed under another member town's law.
JURISDICTION_ROLES = (CLERK, SUPERINTENDENT, COORDINATOR)


def move_to_jurisdiction(
    actor: Actor, prop: Property, jurisdiction: str, since: date, reason: str
) -> Property:
    """Record that ``prop`` is governed by ``jurisdiction``'s law from ``since`` (a boundary
    change, an intermunicipal agreement), with the act in ``reason``, audited.

    Every record of the parcel follows it from then on; the records already made keep the
    determinations they made under the law of their day. The actor acts for both towns."""
    if not has_role(actor, *JURISDICTION_ROLES):
        raise Forbidden("Recording a parcel's jurisdiction is the clerk's or the coordinator's.")
    _require_served(jurisdiction)
    if not (acts_for(actor, prop.jurisdiction) and acts_for(actor, jurisdiction)):
        raise Forbidden("Moving a parcel between towns takes an account acting for both.")
    if jurisdiction == prop.jurisdiction:
        raise Blocked(f"{prop.parcel_id} is already governed by {jurisdiction}'s law.")
    if not reason.strip():
        raise InvalidInput({"reason": ["name the act that moved the parcel"]})
    with transaction.atomic():
        before = {"jurisdiction": prop.jurisdiction, "since": str(prop.jurisdiction_since or "")}
        prop.jurisdiction, prop.jurisdiction_since = jurisdiction, since
        prop.save(update_fields=["jurisdiction", "jurisdiction_since", "updated_at"])
        # the parcel's facilities keep its town (their records are found by it), and so do
        # its permits, violations and inspections (docs/scale.md)
        facilities = Establishment.objects.filter(building__property=prop).update(
            jurisdiction=jurisdiction
        )
        following = {"registry.Establishment": facilities} if facilities else {}
        following.update(follow_parcel(prop))
        audit.record(
            actor=actor,
            action="move_jurisdiction",
            obj=prop,
            before=before,
            after={"jurisdiction": jurisdiction, "since": str(since), "records": following},
            reason=reason.strip(),
        )
    return prop


def register_establishment(
    actor: Actor, *, name: str, kind: str, operator: Person, building: Building, code: str = ""
) -> Establishment:
    """A business operating in a building, audited. ``code`` is the facility code that
    laboratory files and meters use (upper-cased; unique among establishments)."""
    _require_intake(actor, "an establishment")
    require_acting_for(actor, building.property, "Registering an establishment")
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
