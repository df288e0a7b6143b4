"""Grease traps (§ 196-19 F(2)) and oil and sand interceptors (§ 196-19 F(1)), per establishment.

A grease trap is required of every food preparation service, processing operation and
restaurant (F(2)): sized by the DEC Design Standards and approved by the County Health
Department. An oil and sand interceptor is required where the Superintendent finds it
necessary, never for private living quarters or dwelling units (F(1)), and must be of a type
and capacity the Superintendent approves. Either must be readily accessible for cleaning and
inspection.

::

    required ──record_installation (building inspector/superintendent/applicant)──▶ installed
    installed ──approve (superintendent; County Health approval noted for grease traps)──▶ approved
    installed ──refuse_installation (superintendent)──▶ required
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from django import forms
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import BUILDING_INSPECTOR, CLERK, SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, State, Transition, Workflow
from sewer_office.permits.models import InterceptorRequirement

from .common import date_field, day


class InstallationForm(forms.Form):
    unit_type = forms.CharField(max_length=80, label="Type (e.g. hydromechanical, gravity)")
    capacity = forms.CharField(max_length=40, label="Capacity (e.g. 50 gpm, 1000 gal)")
    location = forms.CharField(max_length=200)
    accessible = forms.BooleanField(
        label="Readily and easily accessible for cleaning and inspection",
        help_text="§ 196-19 F(1), F(2).",
    )
    installed_on = date_field("Installed on")


class Installation(TypedDict):
    unit_type: str
    capacity: str
    location: str
    accessible: bool
    installed_on: date | None


class ApprovalForm(forms.Form):
    health_approval_ref = forms.CharField(
        max_length=60,
        required=False,
        label="County Health Department approval no. (grease traps, § 196-19 F(2))",
    )


class Approval(TypedDict):
    health_approval_ref: str


def _install_effect(
    req: InterceptorRequirement, facts: Installation, actor: Actor, at: datetime
) -> None:
    req.unit_type = facts["unit_type"]
    req.capacity = facts["capacity"]
    req.location = facts["location"]
    req.accessible = True
    req.installed_on = day(facts["installed_on"], at)


def _approve_guard(req: InterceptorRequirement, facts: Approval) -> str | None:
    if req.kind == "grease_trap" and not facts["health_approval_ref"].strip():
        return (
            "A grease trap is approved by the Dutchess County Health Department "
            "(§ 196-19 F(2)): record its approval number."
        )
    return None


def _approve_effect(
    req: InterceptorRequirement, facts: Approval, actor: Actor, at: datetime
) -> None:
    req.health_approval_ref = facts["health_approval_ref"].strip()
    req.approved_on = timezone.localdate(at)


WORKFLOW = Workflow[InterceptorRequirement](
    name="interceptor_requirement",
    initial="required",
    states=[
        State("required", "Required — not yet installed"),
        State("installed", "Installed — awaiting approval"),
        State("approved", "Installed and approved", terminal=True),
    ],
    transitions=[
        Transition(
            "record_installation",
            "Record installation",
            ("required",),
            "installed",
            "§ 196-19 F",
            roles=frozenset({BUILDING_INSPECTOR, SUPERINTENDENT, CLERK}),
            applicant=True,
            form=InstallationForm,
            facts=Installation,
            effect=_install_effect,
        ),
        Transition(
            "approve",
            "Approve installation",
            ("installed",),
            "approved",
            "§ 196-19 F",
            roles=frozenset({SUPERINTENDENT}),
            form=ApprovalForm,
            facts=Approval,
            guard=_approve_guard,
            effect=_approve_effect,
        ),
        Transition(
            "refuse_installation",
            "Refuse installation",
            ("installed",),
            "required",
            "§ 196-19 F",
            roles=frozenset({SUPERINTENDENT}),
            reason=REASON_REQUIRED,
            danger=True,
            queue=False,
        ),
    ],
)
