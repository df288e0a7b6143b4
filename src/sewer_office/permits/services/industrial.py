"""Industrial discharge and cooling water approvals (§ 196-16 D–F)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import CLERK
from sewer_office.core.errors import InvalidInput
from sewer_office.permits import rules
from sewer_office.permits.choices import DischargeKind
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment, Person

from .common import check_may_apply, create_application


def file_discharge_approval(
    actor: Any,
    *,
    applicant: Person,
    establishment: Establishment,
    discharge_kind: str,
    concentrations: dict[str, str],
    flow_gpd: Decimal | None = None,
    temperature_f: Decimal | None = None,
    categorical_category: str = "",
    description: str = "",
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> IndustrialDischargeApproval:
    """Request the engineer's written approval of a new or changed industrial discharge
    (§ 196-16 E) or of a cooling water discharge (§ 196-16 F)."""
    prop = establishment.building.property
    check_may_apply(actor, applicant.pk, prop.owner_id, (CLERK,), "a discharge approval request")
    if discharge_kind not in DischargeKind.values:
        raise InvalidInput({"discharge_kind": ["Unknown kind of discharge."]})
    approval = IndustrialDischargeApproval(
        applicant=applicant,
        property=prop,
        establishment=establishment,
        discharge_kind=discharge_kind,
        concentrations={k: str(v) for k, v in concentrations.items()},
        flow_gpd=flow_gpd,
        temperature_f=temperature_f,
        categorical_category=categorical_category,
        description=description,
    )
    approval.filed_on = filed_on or timezone.localdate(at or timezone.now())
    result = rules.evaluate_declared_discharge(
        on=approval.filed_on,
        concentrations=approval.concentrations,
        flow_gpd=flow_gpd,
        temperature_f=temperature_f,
        source=declared_source(approval),
    )
    if result["errors"]:
        raise InvalidInput(
            {"concentrations": [f"{e['parameter']}: {e['message']}" for e in result["errors"]]}
        )
    approval.evaluation = result
    return create_application(approval, actor, citation=approval.legal_basis, files=files, at=at)


def evaluate(approval: IndustrialDischargeApproval) -> dict[str, Any]:
    """(Re-)evaluate the declared characteristics under the law of the application date."""
    approval.evaluation = rules.evaluate_declared_discharge(
        on=approval.filed_on,
        concentrations=approval.concentrations,
        flow_gpd=approval.flow_gpd,
        temperature_f=approval.temperature_f,
        source=declared_source(approval),
    )
    evaluation: dict[str, Any] = approval.evaluation
    return evaluation


def declared_source(approval: IndustrialDischargeApproval) -> str:
    """The source of the declared water as § 196-15 COOLING WATER reads it: a cooling system
    for an approval of industrial cooling water (§ 196-16 F), an industrial process otherwise."""
    if approval.discharge_kind == DischargeKind.COOLING_WATER:
        return "cooling_system"
    return "industrial_process"
