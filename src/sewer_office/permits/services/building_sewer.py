"""Building sewer permits (§ 196-18): filing, fee assessment and plan checks."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import CLERK
from sewer_office.core.errors import InvalidInput
from sewer_office.permits import rules
from sewer_office.permits.models.building_sewer import BuildingSewerPermit
from sewer_office.registry.models import Building, Person, Property
from sewer_rules.ordinance.s196_18_building_sewers import BuildingSewerDesign, DesignError
from sewer_rules.parameters import ParameterValue

from .common import check_may_apply, create_application

FILE_ROLES = (CLERK,)


def file_building_sewer_permit(
    actor: Any,
    *,
    applicant: Person,
    prop: Property,
    permit_class: int,
    design: dict[str, Any],
    building: Building | None = None,
    reuses_old_sewer: bool = False,
    description: str = "",
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> BuildingSewerPermit:
    """File an application for a building sewer permit (§ 196-18 B).

    The fee in force on the application date is assessed now and stored; when it is not
    configured the application is still filed, and payment is blocked until it is.
    """
    check_may_apply(actor, applicant.pk, prop.owner_id, FILE_ROLES, "a building sewer permit")
    if building is not None and building.property_id != prop.pk:
        raise InvalidInput({"building": ["The building is not on this property."]})
    if permit_class not in (1, 2):
        raise InvalidInput({"permit_class": ["§ 196-18 B knows classes 1 and 2."]})
    validate_design(design, filed_on)
    permit = BuildingSewerPermit(
        applicant=applicant,
        property=prop,
        permit_class=permit_class,
        design=design,
        building=building,
        reuses_old_sewer=reuses_old_sewer,
        description=description,
    )
    permit.filed_on = filed_on or timezone.localdate(at or timezone.now())
    store_fee(permit)
    return create_application(permit, actor, citation="§ 196-18 B", files=files, at=at)


def validate_design(design: dict[str, Any], on: date | None) -> None:
    """Refuse a design the rules cannot read, naming the field."""
    try:
        BuildingSewerDesign.from_dict(design)
    except DesignError as e:
        raise InvalidInput({"design": [f"{e.field}: {e.message}"]}) from None
    rules.building_sewer_checks(design, on or timezone.localdate())


def assess_fee(permit: BuildingSewerPermit) -> ParameterValue:
    return rules.building_sewer_fee(permit.permit_class, permit.filed_on)


def store_fee(permit: BuildingSewerPermit) -> ParameterValue:
    fee = assess_fee(permit)
    permit.fee_amount = fee.value
    permit.fee_parameter = fee.name
    permit.fee_effective = fee.effective
    permit.fee_authority = fee.authority
    return fee


def fee_not_configured_message(permit: BuildingSewerPermit, fee: ParameterValue) -> str:
    kind = "residential or commercial" if permit.permit_class == 1 else "industrial"
    return (
        f"The permit and inspection fee for a {kind} building sewer permit ({fee.reference}) "
        f"is not configured for the application date {permit.filed_on:%Y-%m-%d} in the "
        f"jurisdiction '{rules.params().jurisdiction}' ({fee.name}). The Town Board sets it by "
        "resolution: record the resolution in the parameter file before taking payment."
    )


def plan_checks(permit: BuildingSewerPermit) -> dict[str, Any]:
    """The § 196-18 D, F, G, H checks of the declared design under the law of the filing date."""
    p = rules.params()
    try:
        checks = rules.building_sewer_checks(permit.design, permit.filed_on)
    except (DesignError, ValueError) as e:
        return {"checks": [], "error": str(e), "parameters_version": p.version}
    return {"checks": checks, "error": "", "parameters_version": p.version}
