"""Building sewer permits (§ 196-18): filing, fee assessment and plan checks."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, NotRequired, TypedDict

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK
from sewer_office.core.errors import InvalidInput
from sewer_office.core.town_law import (
    article_refusal,
    require_article,
    require_article_for,
    town_of,
)
from sewer_office.permits import rules
from sewer_office.permits.models.building_sewer import BuildingSewerPermit
from sewer_office.registry.models import Building, Person, Property
from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
from sewer_rules.ordinance.s196_18_building_sewers.design_fields import DesignError
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import PermitClass, classify_service
from sewer_rules.parameters import ParameterValue

from .common import check_may_apply, create_application

FILE_ROLES = (CLERK,)
#: What the article's determinations here are, as a refusal for a town of another law names it.
PERMIT = "A building sewer permit (§ 196-18)"

#: A declared design is the applicant's JSON, read by the rules (``BuildingSewerDesign``) and
#: kept on the permit as filed: open by nature, so a ``dict[str, Any]`` here. So is one check
#: of it (``Check.as_dict()``), stored with the approved plans as it was shown.
Design = dict[str, Any]
CheckRow = dict[str, Any]


class PlanChecks(TypedDict):
    """The § 196-18 D, F, G, H checks of a design (the permit's page, the approval's guard)."""

    checks: list[CheckRow]
    error: str
    parameters_version: str


class ClassPreview(TypedDict):
    """The class and fee an application will be charged (the filing form's preview)."""

    permit_class: int
    text: str
    reasons: list[str]
    fee: str | None
    fee_parameter: str
    declared: int | None
    disagrees: bool


#: :class:`PlanChecks` of a design not yet filed, and whether any failed; the filing page adds
#: the class it will be charged under "class" (a keyword, hence the functional form).
DesignChecks = TypedDict(
    "DesignChecks",
    {
        "checks": list[CheckRow],
        "error": str,
        "parameters_version": str,
        "failed": bool,
        "class": NotRequired[ClassPreview],
    },
)


class FeeToPay(TypedDict):
    amount: Decimal | None
    class_text: str
    where: str
    authority: str
    parameter: str
    effective: date | None


class NextSteps(TypedDict):
    """For the applicant's page: what happens next, and the fee to pay while it is due."""

    text: str
    pay: FeeToPay | None


def file_building_sewer_permit(
    actor: Actor,
    *,
    applicant: Person,
    prop: Property,
    permit_class: int,
    design: Design,
    building: Building | None = None,
    reuses_old_sewer: bool = False,
    description: str = "",
    use: str = "",
    industrial_wastes: str = "",
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> BuildingSewerPermit:
    """Apply for a building sewer permit (§ 196-18 B): the permission § 196-18 A requires before
    anyone uncovers or connects to a public sewer.

    The class is the rule's (:func:`classify`), from the use, the industrial wastes declared and
    the design's connected sources; the declared ``permit_class`` is kept beside it and a
    disagreement is flagged for the clerk. The fee of the rule's class in force on the
    application date is assessed now and stored. The application is a draft awaiting the filing
    fee until the fee is paid or waived (§ 196-18 B: paid "at the time the application is
    filed"); when the fee is not configured, payment is blocked until it is. The fee and the
    checks are the parcel's town's; a parcel of a town under a law of its own is refused
    (``OtherLaw``) before anything is computed or written.
    """
    check_may_apply(actor, applicant.pk, prop.owner_id, FILE_ROLES, "a building sewer permit")
    town = require_article_for(prop, PERMIT)
    if building is not None and building.property_id != prop.pk:
        raise InvalidInput({"building": ["The building is not on this property."]})
    if permit_class not in (1, 2):
        raise InvalidInput({"permit_class": ["§ 196-18 B knows classes 1 and 2."]})
    validate_design(town, design, filed_on)
    decided = classify(design, use, industrial_wastes)
    permit = BuildingSewerPermit(
        applicant=applicant,
        property=prop,
        permit_class=permit_class,
        service_use=use,
        industrial_wastes=industrial_wastes.strip(),
        rule_class=decided.permit_class,
        class_reasons=list(decided.reasons),
        design=design,
        building=building,
        reuses_old_sewer=reuses_old_sewer,
        description=description,
    )
    permit.filed_on = filed_on or timezone.localdate(at or timezone.now())
    store_fee(permit)
    return create_application(permit, actor, citation="§ 196-18 B", files=files, at=at)


def classify(design: Design, use: str, industrial_wastes: str) -> PermitClass:
    """The class by § 196-18 B's rule from what the application states (a bad ``use`` is
    refused, naming the field)."""
    sources: set[str] = set(design.get("connected_sources") or [])
    for b in design.get("buildings") or []:
        if isinstance(b, dict):
            sources |= set(b.get("connected_sources") or [])
    try:
        return classify_service(use=use, wastes=industrial_wastes, connected_sources=sources)
    except ValueError as e:
        raise InvalidInput({"service_use": [str(e)]}) from None


def validate_design(town: str, design: Design, on: date | None) -> None:
    """Refuse a design the rules cannot read, naming the field."""
    try:
        BuildingSewerDesign.from_dict(design)
    except DesignError as e:
        raise InvalidInput({"design": [f"{e.field}: {e.message}"]}) from None
    rules.building_sewer_checks(town, design, on or timezone.localdate())


def assess_fee(permit: BuildingSewerPermit) -> ParameterValue:
    """The fee of the rule's class (the declared class for records filed before the rule), by
    the permit's town's resolutions; refused for a town under a law of its own."""
    town = require_article_for(permit, PERMIT)
    return rules.building_sewer_fee(town, permit.charged_class, permit.filed_on)


def store_fee(permit: BuildingSewerPermit) -> ParameterValue:
    fee = assess_fee(permit)
    permit.fee_amount = fee.value
    permit.fee_parameter = fee.name
    permit.fee_effective = fee.effective
    permit.fee_authority = fee.authority
    return fee


def fee_not_configured_message(permit: BuildingSewerPermit, fee: ParameterValue) -> str:
    kind = "residential or commercial" if permit.charged_class == 1 else "industrial"
    return (
        f"The permit and inspection fee for a {kind} building sewer permit ({fee.reference}) "
        f"is not configured for the application date {permit.filed_on:%Y-%m-%d} in the "
        f"jurisdiction '{town_of(permit)}' ({fee.name}). The Town Board sets it by "
        "resolution: record the resolution in the parameter file before taking payment."
    )


def plan_checks(permit: BuildingSewerPermit) -> PlanChecks:
    """The § 196-18 D, F, G, H checks of the declared design under the law of the filing date,
    by the values of the permit's town. A permit whose parcel has since passed to a town under
    a law of its own is not checked under the article: the refusal is the ``error`` (the page
    shows it, the approval of the plans is refused with it)."""
    town = town_of(permit)
    if why := article_refusal(town, PERMIT):
        return {"checks": [], "error": why, "parameters_version": ""}
    p = rules.params(town)
    try:
        checks = rules.building_sewer_checks(town, permit.design, permit.filed_on)
    except (DesignError, ValueError) as e:
        return {"checks": [], "error": str(e), "parameters_version": p.version}
    return {"checks": checks, "error": "", "parameters_version": p.version}


#: What each state of a building sewer permit means for the applicant: what happens next and
#: what it waits for, in the owner's words (§ 196-18).
NEXT_STEPS: dict[str, str] = {
    "submitted": (
        "Your application is not filed yet: it is awaiting the filing fee. The law wants the "
        "permit and inspection fee paid at the time the application is filed (§ 196-18 B): pay "
        "it at the Town Clerk's office; the payment files your application, and the Town's "
        "engineer then reviews your plans."
    ),
    "plan_review": (
        "The fee is paid (or waived) and your application is filed. The Town's engineer is reviewing your plans against § 196-18; you "
        "will be told if anything must change."
    ),
    "plans_approved": (
        "Your plans are approved. If the work opens a Town road, the Highway Superintendent "
        "issues a road opening permit (§ 196-18 K) before any digging; then tell the office "
        "when the sewer is ready for inspection, before it is covered."
    ),
    "road_opening_permitted": (
        "The road opening permit is issued. Build the sewer, leave it uncovered, and tell the "
        "office when it is ready for inspection."
    ),
    "ready_for_inspection": (
        "The Superintendent will inspect the uncovered sewer and supervise its connection to "
        "the public sewer (§ 196-18 J)."
    ),
    "corrections_required": (
        "The inspection found something to correct. Make the corrections, then tell the "
        "office the sewer is ready for inspection again."
    ),
}


def next_steps(permit: BuildingSewerPermit) -> NextSteps:
    """For the applicant's page: what happens next, and how and where to pay the fee."""
    pay: FeeToPay | None = None
    if permit.state == "submitted" and not permit.fee_settled:
        pay = {
            "amount": permit.fee_amount,
            "class_text": permit.class_text,
            "where": "at the Town Clerk's office (Town Hall), by cash or cheque to the Town",
            "authority": permit.fee_authority,
            "parameter": permit.fee_parameter,
            "effective": permit.fee_effective,
        }
    return {"text": NEXT_STEPS.get(permit.state, ""), "pay": pay}


def class_preview(
    town: str,
    design: Design,
    use: str,
    industrial_wastes: str,
    declared: int | None,
    on: date | None = None,
) -> ClassPreview:
    """The class and fee the application will be charged, before anything is filed or paid:
    "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2); fee USD
    500.00", and whether the declared class disagrees. ``town`` is the parcel's: its fee."""
    require_article(town, PERMIT)
    decided = classify(design, use, industrial_wastes)
    fee = rules.building_sewer_fee(town, decided.permit_class, on or timezone.localdate())
    amount = "not configured" if fee.value is None else f"USD {fee.value:,.2f}"
    return {
        "permit_class": decided.permit_class,
        "text": f"{decided.text}; fee {amount}",
        "reasons": list(decided.reasons),
        "fee": None if fee.value is None else str(fee.value),
        "fee_parameter": fee.name,
        "declared": declared,
        "disagrees": declared is not None and declared != decided.permit_class,
    }


def design_checks(town: str, design: Design, on: date | None = None) -> DesignChecks:
    """The § 196-18 D, F, G, H checks of a design not yet filed (the filing form's preview),
    by the values of ``town`` (the parcel's); refused for a town under a law of its own."""
    require_article(town, PERMIT)
    day = on or timezone.localdate()
    p = rules.params(town)
    try:
        checks = rules.building_sewer_checks(town, design, day)
    except (DesignError, ValueError) as e:
        return {"checks": [], "error": str(e), "failed": True, "parameters_version": p.version}
    return {
        "checks": checks,
        "error": "",
        "failed": any(c.get("passed") is False for c in checks),
        "parameters_version": p.version,
    }
