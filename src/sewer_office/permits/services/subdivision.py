"""Subdivision sewers (§ 196-16 G; § 196-23)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK
from sewer_office.core.errors import InvalidInput
from sewer_office.core.town_law import require_article_for
from sewer_office.permits import rules
from sewer_office.permits.choices import Provision
from sewer_office.permits.models.subdivision import SubdivisionSewer
from sewer_office.registry.models import Person, Property
from sewer_rules.parameters import ParameterValue

from .common import check_may_apply, create_application

#: What the article's determinations here are, as a refusal for a town of another law names it.
PERMIT = "A subdivision sewer permit (§ 196-16 G; § 196-23)"


def file_subdivision(
    actor: Actor,
    *,
    applicant: Person,
    prop: Property,
    name: str,
    lots: int,
    smallest_lot_acres: Decimal,
    estimated_cost: Decimal,
    description: str = "",
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> SubdivisionSewer:
    """File subdivision sewer plans; what must be provided follows from the area: public sewer
    where it is available (§ 196-23 A), private systems until it is (§ 196-23 B). The fee is
    the parcel's town's; a parcel of a town under a law of its own is refused first."""
    check_may_apply(actor, applicant.pk, prop.owner_id, (CLERK,), "subdivision sewer plans")
    require_article_for(prop, PERMIT)
    if estimated_cost <= 0:
        raise InvalidInput({"estimated_cost": ["The estimated cost must be positive."]})
    on = filed_on or timezone.localdate(at or timezone.now())
    area = prop.service_area
    available = area is not None and area.public_sewer_available(on)
    sub = SubdivisionSewer(
        applicant=applicant,
        property=prop,
        name=name,
        lots=lots,
        smallest_lot_acres=smallest_lot_acres,
        estimated_cost=estimated_cost,
        provision=Provision.PUBLIC_SEWER if available else Provision.PRIVATE_SYSTEMS,
        description=description,
        filed_on=on,
    )
    store_fee(sub)
    citation = "§ 196-23 A" if available else "§ 196-23 B"
    return create_application(sub, actor, citation=citation, files=files, at=at)


def sewer_duty(sub: SubdivisionSewer) -> dict[str, Any]:
    """§ 196-16 G for this subdivision, under the law of its application date: its smallest
    lot (one dwelling unit per lot) against one acre per dwelling unit, and whether the property
    lies in a sewer district, sewer improvement area or other municipal sewer system (any
    service area of the registry). The rules' report as JSON, shown on the page as it is."""
    town = require_article_for(sub, PERMIT)
    in_district = sub.property.service_area_id is not None
    return rules.subdivision_sewer_duty(town, sub.smallest_lot_acres, in_district, sub.filed_on)


def assess_fee(sub: SubdivisionSewer) -> tuple[Decimal | None, ParameterValue]:
    """§ 196-23 C: the fee on the estimated construction cost, by the bracket schedule or else
    the rate in force on the application date (None when neither is configured) — computed by
    the rules; the parameter returned is the one the fee rests on (a schedule has no single
    rate: its ``value`` is None). The rates are the subdivision's town's resolutions."""
    town = require_article_for(sub, PERMIT)
    result = rules.subdivision_fee(town, sub.estimated_cost, sub.filed_on)
    return result.fee, result.basis


def store_fee(sub: SubdivisionSewer) -> None:
    amount, rate = assess_fee(sub)
    sub.fee_amount = amount
    sub.fee_rate = rate.value
    sub.fee_effective = rate.effective
    sub.fee_authority = rate.authority
