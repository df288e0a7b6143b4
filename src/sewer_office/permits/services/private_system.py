"""Private wastewater disposal systems (§ 196-17) and the connection requirement (E)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import BUILDING_INSPECTOR, CLERK
from sewer_office.core import audit
from sewer_office.core.errors import Blocked
from sewer_office.core.town_law import require_article_for
from sewer_office.permits.models.private_system import PrivateDisposalSystem
from sewer_office.registry.models import Person, Property, ServiceArea

from .common import check_may_apply, create_application


def file_private_system(
    actor: Actor,
    *,
    applicant: Person,
    prop: Property,
    system_type: str,
    design_flow_gpd: int | None = None,
    description: str = "",
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> PrivateDisposalSystem:
    """Propose a private system; refused where public sewer is available (§ 196-17 A), and for
    a parcel of a town under a law of its own."""
    check_may_apply(
        actor, applicant.pk, prop.owner_id, (CLERK, BUILDING_INSPECTOR), "a private system"
    )
    require_article_for(prop, "A private wastewater disposal system (§ 196-17)")
    on = filed_on or timezone.localdate(at or timezone.now())
    area = prop.service_area
    if area is not None and area.public_sewer_available(on):
        raise Blocked(
            f"Public sewer is available to {area.name} since "
            f"{area.public_sewer_available_from:%Y-%m-%d}: the building sewer must be connected "
            "to it, not to a private system (§ 196-17 A; § 196-17 E)."
        )
    system = PrivateDisposalSystem(
        applicant=applicant,
        property=prop,
        system_type=system_type,
        design_flow_gpd=design_flow_gpd,
        description=description,
        filed_on=on,
    )
    return create_application(system, actor, citation="§ 196-17 A", files=files, at=at)


def on_public_sewer_declared(
    sender: Any,
    area: ServiceArea,
    on: date,
    act: str,
    actor: Actor,
    at: datetime | None = None,
    **_: Any,
) -> None:
    """§ 196-17 E: every system in service in the area must now connect (same transaction).

    Recorded in the name of the person who recorded the Town's act, citing it; the state
    change bypasses the role check of ``require_connection`` on purpose: the duty arises from
    the act itself, not from a decision of the actor.
    """
    systems = PrivateDisposalSystem.objects.select_for_update().filter(
        property__service_area=area, state="in_service"
    )
    for system in systems:
        before = audit.snapshot(system)
        system.state = "connection_required"
        system.connection_required_on = on
        system.save()
        audit.record(
            actor=actor,
            action="require_connection",
            obj=system,
            before=before,
            after=audit.snapshot(system),
            reason=f"public sewer available to {area.name} from {on:%Y-%m-%d} ({act})",
            citation="§ 196-17 E",
            state_from="in_service",
            state_to="connection_required",
            at=at,
        )
