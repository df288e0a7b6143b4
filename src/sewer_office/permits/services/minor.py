"""Grinders (§ 196-19 D(3)), grease traps and interceptors (§ 196-19 F), flushing notices (L)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import BUILDING_INSPECTOR, CLERK, SUPERINTENDENT, has_role
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.town_law import require_article_for
from sewer_office.permits import rules
from sewer_office.permits.choices import InterceptorKind
from sewer_office.permits.models.minor import (
    FlushingNotice,
    GrinderApproval,
    InterceptorRequirement,
)
from sewer_office.registry.models import Building, Establishment, Person, Property

from .common import check_may_apply, create_application


def file_grinder(
    actor: Actor,
    *,
    applicant: Person,
    prop: Property,
    make_model: str,
    motor_hp: Decimal,
    establishment: Establishment | None = None,
    description: str = "",
    filed_on: date | None = None,
    at: datetime | None = None,
) -> GrinderApproval:
    """Declare a garbage grinder; the rules say, by the parcel's town's values, whether the
    Superintendent must approve it (refused for a town under a law of its own)."""
    check_may_apply(actor, applicant.pk, prop.owner_id, (CLERK,), "a grinder")
    town = require_article_for(prop, "A grinder approval (§ 196-19 D(3))")
    if motor_hp < 0:
        raise InvalidInput({"motor_hp": ["A motor rating cannot be negative."]})
    on = filed_on or timezone.localdate(at or timezone.now())
    check = rules.grinder_check(town, motor_hp, on)
    grinder = GrinderApproval(
        applicant=applicant,
        property=prop,
        establishment=establishment,
        make_model=make_model,
        motor_hp=motor_hp,
        rule_check=check,
        description=description,
        filed_on=on,
    )
    needs = check["passed"] is False
    return create_application(
        grinder,
        actor,
        citation="§ 196-19 D(3)",
        at=at,
        initial_state="submitted" if needs else "not_required",
        reason=check["message"],
    )


def require_interceptor(
    actor: Actor,
    *,
    establishment: Establishment,
    kind: str,
    basis: str = "",
    filed_on: date | None = None,
    at: datetime | None = None,
) -> InterceptorRequirement:
    """Record that an establishment must provide a grease trap (F(2)) or interceptor (F(1)).

    A grease trap follows from the establishment being a food service (recorded by the clerk,
    the Building Inspector or the Superintendent); an oil and sand interceptor only from the
    Superintendent's opinion, and never for private living quarters or dwelling units.
    Refused for a facility of a town under a law of its own.
    """
    building = establishment.building
    # the parcel's town, as the requirement's own (its facility keeps the same)
    require_article_for(building.property, "A grease trap or interceptor requirement (§ 196-19 F)")
    if kind == InterceptorKind.GREASE_TRAP:
        if not has_role(actor, CLERK, BUILDING_INSPECTOR, SUPERINTENDENT):
            raise Forbidden(
                "Recording a grease trap requirement is for office staff (§ 196-19 F(2))."
            )
        if not establishment.is_food:
            raise Blocked(
                "Grease traps are required of food preparation services, processing operations "
                "and restaurants (§ 196-19 F(2)); this establishment is not one."
            )
        citation = "§ 196-19 F(2)"
        basis = basis or "Food preparation service, processing operation or restaurant."
    elif kind == InterceptorKind.OIL_SAND:
        if not has_role(actor, SUPERINTENDENT):
            raise Forbidden(
                "Oil and sand interceptors are required in the opinion of the Superintendent "
                "(§ 196-19 F(1))."
            )
        if not building.nonresidential:
            raise Blocked(
                "Interceptors are not required for private living quarters or dwelling units "
                "(§ 196-19 F(1))."
            )
        if not basis.strip():
            raise InvalidInput(
                {"basis": ["State why the interceptor is necessary (§ 196-19 F(1))."]}
            )
        citation = "§ 196-19 F(1)"
    else:
        raise InvalidInput({"kind": ["Unknown kind of interceptor."]})
    if InterceptorRequirement.objects.filter(establishment=establishment, kind=kind).exists():
        raise Blocked(
            f"{establishment.name} already has a {InterceptorKind(kind).label} requirement."
        )
    req = InterceptorRequirement(
        applicant=establishment.operator,
        property=building.property,
        establishment=establishment,
        kind=kind,
        basis=basis,
        filed_on=filed_on or timezone.localdate(at or timezone.now()),
    )
    return create_application(req, actor, citation=citation, at=at)


def file_flushing_notice(
    actor: Actor,
    *,
    applicant: Person,
    building: Building,
    planned_on: date,
    water_source: str,
    water_unpolluted: bool,
    tri_municipal_notified_on: date,
    description: str = "",
    filed_on: date | None = None,
    at: datetime | None = None,
) -> FlushingNotice:
    """Give notice before flushing a nonresidential building sewer (§ 196-19 L); refused for
    a parcel of a town under a law of its own."""
    prop = building.property
    check_may_apply(actor, applicant.pk, prop.owner_id, (CLERK,), "a flushing notice")
    require_article_for(prop, "A flushing notice (§ 196-19 L)")
    on = filed_on or timezone.localdate(at or timezone.now())
    errors: dict[str, list[str]] = {}
    if not building.nonresidential:
        errors["building"] = ["§ 196-19 L concerns nonresidential building sewers."]
    if not water_unpolluted:
        errors["water_unpolluted"] = [
            "All waters used in flushing shall be unpolluted water as defined in § 196-15 "
            "(§ 196-19 L)."
        ]
    if planned_on < on:
        errors["planned_on"] = ["Notice must be given prior to the flushing (§ 196-19 L)."]
    if tri_municipal_notified_on > planned_on:
        errors["tri_municipal_notified_on"] = [
            "Tri-Municipal must be notified prior to the flushing."
        ]
    if errors:
        raise InvalidInput(errors)
    notice = FlushingNotice(
        applicant=applicant,
        property=prop,
        building=building,
        planned_on=planned_on,
        water_source=water_source,
        water_unpolluted=True,
        tri_municipal_notified_on=tri_municipal_notified_on,
        description=description,
        filed_on=on,
    )
    return create_application(notice, actor, citation="§ 196-19 L", at=at)
