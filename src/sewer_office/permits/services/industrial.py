"""Industrial discharge and cooling water approvals (§ 196-16 D–F)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK
from sewer_office.core.errors import InvalidInput
from sewer_office.core.town_law import require_article_for
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of, record_finding
from sewer_office.permits import rules
from sewer_office.permits.choices import DischargeKind
from sewer_office.permits.models.industrial import IndustrialDischargeApproval
from sewer_office.registry.models import Establishment, Person

from .common import check_may_apply, create_application

#: What the article's determination here is, as a refusal for a town of another law names it.
APPROVAL = "A discharge approval (§ 196-16 D–F; § 196-19)"


def file_discharge_approval(
    actor: Actor,
    *,
    applicant: Person,
    establishment: Establishment,
    discharge_kind: str,
    concentrations: dict[str, str],
    flow_gpd: Decimal | None = None,
    process_flow_gpd: Decimal | None = None,
    temperature_f: Decimal | None = None,
    categorical_category: str = "",
    description: str = "",
    renews: IndustrialDischargeApproval | None = None,
    files: list[Any] | None = None,
    filed_on: date | None = None,
    at: datetime | None = None,
) -> IndustrialDischargeApproval:
    """Request the engineer's written approval of a new or changed industrial discharge
    (§ 196-16 E) or of a cooling water discharge (§ 196-16 F).

    ``renews`` names the approval this application renews (an approval has a term, 40 CFR
    403.8(f)(1)(iii)): it must be a granted approval of the same establishment.
    ``process_flow_gpd`` is the part of ``flow_gpd`` that is process wastewater (what 40 CFR
    403.3(v)(1)(ii) counts), never more than the flow. The declared discharge is evaluated
    under the facility's town's limits and values; a facility of a town under a law of its
    own is refused before anything is evaluated or written.
    """
    prop = establishment.building.property
    check_may_apply(actor, applicant.pk, prop.owner_id, (CLERK,), "a discharge approval request")
    town = require_article_for(prop, APPROVAL)  # the parcel's, as the approval's own
    if discharge_kind not in DischargeKind.values:
        raise InvalidInput({"discharge_kind": ["Unknown kind of discharge."]})
    if renews is not None and (renews.establishment_id != establishment.pk or not renews.approved):
        raise InvalidInput(
            {"renews": [f"{renews.number} is not a granted approval of {establishment.name}."]}
        )
    if process_flow_gpd is not None:
        if process_flow_gpd < 0:
            raise InvalidInput({"process_flow_gpd": ["A flow cannot be negative."]})
        if flow_gpd is None:
            raise InvalidInput(
                {"process_flow_gpd": ["State the flow too: the process flow is part of it."]}
            )
        if process_flow_gpd > flow_gpd:
            raise InvalidInput(
                {
                    "process_flow_gpd": [
                        f"The process wastewater flow ({process_flow_gpd} gpd) cannot exceed "
                        f"the flow ({flow_gpd} gpd)."
                    ]
                }
            )
    approval = IndustrialDischargeApproval(
        applicant=applicant,
        property=prop,
        establishment=establishment,
        discharge_kind=discharge_kind,
        concentrations={k: str(v) for k, v in concentrations.items()},
        flow_gpd=flow_gpd,
        process_flow_gpd=process_flow_gpd,
        temperature_f=temperature_f,
        categorical_category=categorical_category,
        description=description,
        renews=renews,
    )
    approval.filed_on = filed_on or timezone.localdate(at or timezone.now())
    result = rules.evaluate_declared_discharge(
        town=town,
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
    """(Re-)evaluate the declared characteristics under the law of the application date.

    The evaluation is JSON kept on the approval as it was made (shown on its page, read by the
    guards): the rules' open report, hence a ``dict[str, Any]``. Under the facility's town's
    values; refused for a town under a law of its own."""
    town = require_article_for(approval, APPROVAL)
    approval.evaluation = rules.evaluate_declared_discharge(
        town=town,
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


# --- expiry (40 CFR 403.8(f)(1)(iii)) ------------------------------------------------------

EXPIRED_CITATION = "40 CFR 403.8(f)(1)(iii)"


def in_force_on(approvals: list[IndustrialDischargeApproval], day: date) -> bool:
    """Whether one of ``approvals`` (granted) was in force on ``day``."""
    return any(
        a.approved
        and a.decided_on is not None
        and a.decided_on <= day
        and (a.expires_on is None or a.expires_on >= day)
        for a in approvals
    )


def flag_expired_approvals(today: date | None = None) -> int:
    """Record an APPROVAL_EXPIRED finding for each granted approval whose term ran out with
    no other approval of the facility in force the next day; once per approval.

    The registry records no end of a facility's discharge: a facility with an approval is taken
    to be discharging until staff close the finding with a note that it stopped. The finding
    is dated the first day after the expiry. Returns how many were recorded.
    """
    today = today or timezone.localdate()
    expired = IndustrialDischargeApproval.objects.filter(
        state__in=("approved", "approved_with_conditions"), expires_on__lt=today
    ).select_related("establishment")
    count = 0
    for a in expired:
        if a.expires_on is None:
            continue
        day_after = a.expires_on + timedelta(days=1)
        others = list(
            IndustrialDischargeApproval.objects.filter(establishment=a.establishment).exclude(
                pk=a.pk
            )
        )
        if in_force_on(others, day_after):
            continue
        with transaction.atomic():
            locked = IndustrialDischargeApproval.objects.select_for_update().get(pk=a.pk)
            if findings_of(locked).filter(kind=FindingKind.APPROVAL_EXPIRED).exists():
                continue
            renewal = locked.renewals.order_by("-filed_on", "-id").first()
            pending = (
                f" A renewal, {renewal.number}, was applied for on {renewal.filed_on} "
                f"({renewal.state_label.lower()})."
                if renewal is not None
                else " No renewal was applied for."
            )
            record_finding(
                source=locked,
                establishment=locked.establishment,
                kind=FindingKind.APPROVAL_EXPIRED,
                status="violation",
                citation=EXPIRED_CITATION,
                message=(
                    f"{locked.number} expired on {locked.expires_on} (term "
                    f"{locked.term_years} year(s)); {locked.establishment.name} has no "
                    f"approval in force from {day_after} and is taken to be still "
                    f"discharging (§ 196-16 E).{pending}"
                ),
                observed_at=timezone.make_aware(datetime.combine(day_after, time())),
                limit=str(locked.expires_on),
            )
            count += 1
    return count
