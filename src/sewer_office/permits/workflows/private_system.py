"""Private wastewater disposal systems (§ 196-17), from Health Department approval to abandonment.

::

    proposed ──record_health_approval (clerk/building inspector, § 196-17 B)──▶ health_approved
    health_approved ──record_completion (building inspector, § 196-17 C)──▶ in_service
    in_service ──note_certificate_of_occupancy (building inspector, § 196-17 C)──▶ (same)
    in_service ──require_connection (clerk/superintendent, § 196-17 E)──▶ connection_required
    connection_required ──record_abandonment (building inspector/superintendent, § 196-17 E)──▶ abandoned
    proposed/health_approved ──withdraw──▶ withdrawn

Construction may not begin before the Health Department's approval (B); a certificate of
occupancy may be noted only once the installation is complete (C); when the Town records
public sewer available to the area, every system in service there is required to connect
(done for the whole area by :func:`sewer_office.registry.services.declare_public_sewer_available`),
and abandonment (tanks filled with suitable material) is recorded once the property is
connected (E).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from django import forms
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import BUILDING_INSPECTOR, CLERK, SUPERINTENDENT
from sewer_office.core.workflow import NoFacts, State, Transition, Workflow
from sewer_office.permits.models import PrivateDisposalSystem
from sewer_office.registry.choices import WastewaterService
from sewer_office.registry.services import set_wastewater_service

from .common import date_field, day, withdraw


class HealthApprovalForm(forms.Form):
    health_approval_ref = forms.CharField(
        max_length=60, label="Dutchess County Health Department approval no."
    )
    health_approved_on = date_field("Approved on")


class HealthApproval(TypedDict):
    health_approval_ref: str
    health_approved_on: date | None


class CompletionForm(forms.Form):
    completion_ref = forms.CharField(
        max_length=60, label="Health Department completion certificate / reference"
    )
    completed_on = date_field("Completed on")
    forms_filed_on = date_field("Forms filed with the Building Inspector on")


class Completion(TypedDict):
    completion_ref: str
    completed_on: date | None
    forms_filed_on: date | None


class CertificateForm(forms.Form):
    co_number = forms.CharField(max_length=40, label="Certificate of occupancy number")
    co_issued_on = date_field("Issued on")


class Certificate(TypedDict):
    co_number: str
    co_issued_on: date | None


class AbandonmentForm(forms.Form):
    abandoned_on = date_field("Abandoned on")
    filled_with = forms.CharField(max_length=120, label="Filled with (suitable material)")


class Abandonment(TypedDict):
    abandoned_on: date | None
    filled_with: str


System = PrivateDisposalSystem


def _health_effect(system: System, facts: HealthApproval, actor: Actor, at: datetime) -> None:
    system.health_approval_ref = facts["health_approval_ref"]
    system.health_approved_on = day(facts["health_approved_on"], at)


def _completion_effect(system: System, facts: Completion, actor: Actor, at: datetime) -> None:
    completed_on = day(facts["completed_on"], at)
    system.completion_ref = facts["completion_ref"]
    system.completed_on = completed_on
    system.forms_filed_on = day(facts["forms_filed_on"], at)
    set_wastewater_service(
        system.property,
        WastewaterService.PRIVATE_SYSTEM,
        completed_on,
        actor,
        citation="§ 196-17 C",
        reason=f"private system {system.number} completed",
        at=at,
    )


def _co_guard(system: System, facts: Certificate) -> str | None:
    if system.co_number:
        return f"A certificate of occupancy is already noted ({system.co_number})."
    return None


def _co_effect(system: System, facts: Certificate, actor: Actor, at: datetime) -> None:
    system.co_number = facts["co_number"]
    system.co_issued_on = day(facts["co_issued_on"], at)


def _require_guard(system: System, facts: NoFacts) -> str | None:
    area = system.property.service_area
    if area is None or area.public_sewer_available_from is None:
        return (
            "Public sewer is not available to this property's area: a connection can be "
            "required only once the Town records it available (§ 196-17 E)."
        )
    return None


def _require_effect(system: System, facts: NoFacts, actor: Actor, at: datetime) -> None:
    system.connection_required_on = timezone.localdate(at)


def _abandon_guard(system: System, facts: Abandonment) -> str | None:
    if system.property.wastewater_service != WastewaterService.PUBLIC_SEWER:
        return (
            "The property is not yet connected to the public sewer: a direct connection is made "
            "first, then the private system is abandoned and filled (§ 196-17 E)."
        )
    return None


def _abandon_effect(system: System, facts: Abandonment, actor: Actor, at: datetime) -> None:
    system.abandoned_on = day(facts["abandoned_on"], at)
    system.filled_with = facts["filled_with"]


WORKFLOW = Workflow[PrivateDisposalSystem](
    name="private_disposal_system",
    initial="proposed",
    states=[
        State("proposed", "Proposed — awaiting Health Department approval"),
        State("health_approved", "Health Department approved — construction may begin"),
        State("in_service", "In service"),
        State("connection_required", "Public sewer available — connection required"),
        State("abandoned", "Abandoned and filled", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "record_health_approval",
            "Record Health Department approval",
            ("proposed",),
            "health_approved",
            "§ 196-17 B",
            roles=frozenset({CLERK, BUILDING_INSPECTOR}),
            form=HealthApprovalForm,
            facts=HealthApproval,
            effect=_health_effect,
        ),
        Transition(
            "record_completion",
            "Record completion (Health Department satisfied, forms filed)",
            ("health_approved",),
            "in_service",
            "§ 196-17 C",
            roles=frozenset({BUILDING_INSPECTOR}),
            form=CompletionForm,
            facts=Completion,
            effect=_completion_effect,
        ),
        Transition(
            "note_certificate_of_occupancy",
            "Note certificate of occupancy",
            ("in_service",),
            None,
            "§ 196-17 C",
            roles=frozenset({BUILDING_INSPECTOR}),
            form=CertificateForm,
            facts=Certificate,
            guard=_co_guard,
            effect=_co_effect,
            queue=False,
        ),
        Transition(
            "require_connection",
            "Require connection to the public sewer",
            ("in_service",),
            "connection_required",
            "§ 196-17 E",
            roles=frozenset({CLERK, SUPERINTENDENT}),
            guard=_require_guard,
            effect=_require_effect,
            queue=False,
        ),
        Transition(
            "record_abandonment",
            "Record abandonment (tanks filled)",
            ("connection_required",),
            "abandoned",
            "§ 196-17 E",
            roles=frozenset({BUILDING_INSPECTOR, SUPERINTENDENT}),
            form=AbandonmentForm,
            facts=Abandonment,
            guard=_abandon_guard,
            effect=_abandon_effect,
        ),
        withdraw(("proposed", "health_approved"), "§ 196-17 B"),
    ],
)
