"""A facility's sampling programme, as the office records it: its sampling points (with the
interval of their sampling), its discharge limits (a permit's, dated), and the samples taken —
by the Town or by the facility itself (§ 196-19 D(7), § 196-19 I).

Who may record each is checked here; the roles are the app's (:mod:`.services`). Results of a
sample arrive by the laboratory's file (:mod:`.lab_import`) or by hand (:mod:`.services`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import (
    has_role,
    is_staff_member,
)
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.core.town_law import require_acting_for
from sewer_office.registry.models import Establishment
from sewer_rules.evaluation.permit_limits import PermitLimitError, PermitLimits
from sewer_rules.ordinance.s196_19_use_of_public_sewers.sampling import SAMPLE_TYPES

from .choices import Sampler, SamplingBasis
from .models import DischargeLimit, SamplingEvent, SamplingPoint
from .services import SAMPLERS, require_officer


def add_sampling_point(
    actor: Actor,
    establishment: Establishment,
    *,
    code: str,
    manhole: str,
    basis: str,
    description: str = "",
    sampling_interval_days: int | None = None,
) -> SamplingPoint:
    """Register where a facility is sampled (Superintendent or engineer), audited."""
    require_officer(actor, "Designating a sampling point")
    require_acting_for(actor, establishment, "Designating a sampling point")
    code = code.strip().upper()
    if not code:
        raise InvalidInput({"code": ["required"]})
    if basis not in SamplingBasis.values:
        raise InvalidInput(
            {"basis": [f"'{basis}' is not one of {', '.join(SamplingBasis.values)}"]}
        )
    if SamplingPoint.objects.filter(establishment=establishment, code=code).exists():
        raise InvalidInput({"code": [f"{code} is already a sampling point of the facility"]})
    return audit.create_recorded(
        SamplingPoint,
        {
            "establishment": establishment,
            "code": code,
            "manhole": manhole.strip(),
            "basis": basis,
            "description": description.strip(),
            "sampling_interval_days": sampling_interval_days,
        },
        actor=actor,
        action="add_sampling_point",
        citation="§ 196-19 I" if basis != SamplingBasis.CONTROL_MANHOLE else "§ 196-19 H",
    )


def add_discharge_limit(
    actor: Actor,
    establishment: Establishment,
    *,
    parameter: str,
    limit_type: str,
    value: str,
    unit: str,
    effective_from: Any,
    effective_to: Any = None,
    approval: Any = None,
    citation: str = "§ 196-16 E",
) -> Any:
    """A numeric condition of a facility's discharge approval, checked as the engine reads
    limits (analyte, unit of its dimension, no overlap with a limit of the same kind); audited."""

    require_officer(actor, "Setting a discharge limit")
    require_acting_for(actor, establishment, "Setting a discharge limit")
    if approval is not None and approval.establishment_id != establishment.pk:
        raise InvalidInput({"approval": ["the approval is of another establishment"]})
    if not establishment.code:
        raise InvalidInput({"facility": ["give the establishment a facility code first"]})
    candidate = DischargeLimit(
        establishment=establishment,
        approval=approval,
        parameter=parameter.strip(),
        limit_type=limit_type,
        value=str(value).strip(),
        unit=unit.strip(),
        effective_from=effective_from,
        effective_to=effective_to,
        citation=citation,
    )
    record = candidate.as_record()
    existing = [
        lim.as_record()
        for lim in DischargeLimit.objects.filter(establishment=establishment).select_related(
            "establishment", "approval"
        )
    ]
    try:
        PermitLimits.from_records([record])
        PermitLimits.from_records([*existing, record])
    except PermitLimitError as e:
        message = str(e).split(": ", 2)[-1]
        raise InvalidInput({"limit": [message]}) from None
    fields = {
        f.attname: getattr(candidate, f.attname) for f in DischargeLimit._meta.concrete_fields
    }
    fields.pop("id")
    return audit.create_recorded(
        DischargeLimit, fields, actor=actor, action="set_discharge_limit", citation=citation
    )


def check_sampler(actor: Actor) -> None:
    """Forbidden unless ``actor`` may record samples (checked before any input is validated)."""
    if not has_role(actor, *SAMPLERS):
        raise Forbidden("Recording a sample is for the office's samplers or the facility itself.")


def record_sampling_event(
    actor: Actor,
    establishment: Establishment,
    *,
    sample_id: str,
    sampling_point: SamplingPoint | None = None,
    sample_type: str,
    collected_at: datetime,
    collected_by: str = "",
    relinquished_at: datetime | None = None,
    relinquished_by: str = "",
    received_at: datetime | None = None,
    received_by: str = "",
    laboratory: str = "",
    sampler: str | None = None,
) -> SamplingEvent:
    """A sample taken, recorded when it is taken (its results come later with the laboratory's
    file, which must then give the same time); the chain of custody in order; audited.

    ``sampler``, who took it: a facility's own record is always the user's (the Town's is
    refused); the office's is the Town's unless it names another (40 CFR 403.8(f)(2)(v))."""
    check_sampler(actor)
    if not visible(Establishment.objects.filter(pk=establishment.pk), actor).exists():
        raise InvalidInput({"establishment": ["not a facility you report for"]})
    errors: dict[str, list[str]] = {}
    sample_id = sample_id.strip()
    if not sample_id:
        errors["sample_id"] = ["required"]
    elif SamplingEvent.objects.filter(establishment=establishment, sample_id=sample_id).exists():
        errors["sample_id"] = [f"sample {sample_id} of this facility is already recorded"]
    if sample_type not in SAMPLE_TYPES:
        errors["sample_type"] = [f"'{sample_type}' is not one of {', '.join(sorted(SAMPLE_TYPES))}"]
    if sampling_point is not None and sampling_point.establishment_id != establishment.pk:
        errors["sampling_point"] = ["not a sampling point of this facility"]
    if collected_at > timezone.now():
        errors["collected_at"] = ["in the future"]
    if relinquished_at and relinquished_at < collected_at:
        errors["relinquished_at"] = ["before the sample was collected"]
    if received_at and received_at < (relinquished_at or collected_at):
        errors["received_at"] = ["before the sample was relinquished"]
    if not is_staff_member(actor):
        if sampler == Sampler.CONTROL_AUTHORITY:
            errors["sampler"] = ["a facility records its own samples: the Town's are the office's"]
        sampler = Sampler.INDUSTRIAL_USER
    elif not sampler:
        sampler = Sampler.CONTROL_AUTHORITY
    elif sampler not in Sampler.values:
        errors["sampler"] = [f"'{sampler}' is not one of {', '.join(Sampler.values)}"]
    if errors:
        raise InvalidInput(errors)
    return audit.create_recorded(
        SamplingEvent,
        {
            "establishment": establishment,
            "sampling_point": sampling_point,
            "sample_id": sample_id,
            "sample_type": sample_type,
            "collected_at": collected_at,
            "collected_by": collected_by.strip(),
            "relinquished_at": relinquished_at,
            "relinquished_by": relinquished_by.strip(),
            "received_at": received_at,
            "received_by": received_by.strip(),
            "laboratory": laboratory.strip(),
            "sampler": sampler,
        },
        actor=actor,
        action="record_sample",
        citation="§ 196-19 I",
    )
