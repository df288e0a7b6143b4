"""Subdivision sewer construction (§ 196-16 G; § 196-23).

::

    submitted ──record_fee_payment (billing: fee invoice paid, § 196-23 C)──▶ fee_paid
    fee_paid ──record_health_approval (clerk, § 196-16 G)──▶ health_approved
    health_approved ──approve_plans (engineer, § 196-16 G)──▶ plans_approved
    plans_approved ──record_filing (clerk, § 196-16 G)──▶ filed
    submitted/fee_paid/health_approved ──reject (engineer)──▶ rejected
    open ──withdraw──▶ withdrawn

What the subdivision must provide follows from its area on the application date: Phases I/II
(public sewer available) provide public sewer (§ 196-23 A); Phase III provides private systems
complying with § 196-17 until public sewer is available (§ 196-23 B). The fee is a share of
the estimated construction cost (§ 196-23 C), a dated parameter: not configured blocks payment.
The fee step is made by billing when a payment settles the fee invoice (``/billing/permit-fees/``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from django import forms
from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, ENGINEER
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, State, Transition, Workflow
from sewer_office.permits.models import SubdivisionSewer
from sewer_office.permits.services.subdivision import assess_fee, store_fee

from .common import FEE_PAID_BY_BILLING, date_field, day, withdraw


class FeePaymentForm(forms.Form):
    paid_on = date_field("Paid on")
    receipt_number = forms.CharField(max_length=40)


class FeePayment(TypedDict):
    paid_on: date | None
    receipt_number: str


class HealthApprovalForm(forms.Form):
    health_approval_ref = forms.CharField(
        max_length=60, label="Dutchess County Health Department approval no."
    )
    health_approved_on = date_field("Approved on")


class HealthApproval(TypedDict):
    health_approval_ref: str
    health_approved_on: date | None


class FilingForm(forms.Form):
    filed_with_planning_board_on = date_field("Filed with the Planning Board on")


class Filing(TypedDict):
    filed_with_planning_board_on: date | None


def _fee_guard(sub: SubdivisionSewer, facts: FeePayment) -> str | None:
    amount, rate = assess_fee(sub)
    if amount is None:
        return (
            f"The subdivision sewer fee rate ({rate.name}, {rate.reference}) is not configured "
            f"for the application date {sub.filed_on:%Y-%m-%d}: the Town Board sets it; record it "
            "in the parameter file before taking payment."
        )
    return None


def _fee_effect(sub: SubdivisionSewer, facts: FeePayment, actor: Actor, at: datetime) -> None:
    store_fee(sub)
    sub.fee_paid_on = day(facts["paid_on"], at)
    sub.fee_receipt = facts["receipt_number"]


def _health_effect(
    sub: SubdivisionSewer, facts: HealthApproval, actor: Actor, at: datetime
) -> None:
    sub.health_approval_ref = facts["health_approval_ref"]
    sub.health_approved_on = day(facts["health_approved_on"], at)


def _plans_effect(sub: SubdivisionSewer, facts: NoFacts, actor: Actor, at: datetime) -> None:
    sub.plans_approved_on = timezone.localdate(at)


def _filing_effect(sub: SubdivisionSewer, facts: Filing, actor: Actor, at: datetime) -> None:
    sub.filed_with_planning_board_on = day(facts["filed_with_planning_board_on"], at)


WORKFLOW = Workflow[SubdivisionSewer](
    name="subdivision_sewer",
    initial="submitted",
    states=[
        State("submitted", "Submitted — fee due"),
        State("fee_paid", "Fee paid — awaiting Health Department approval"),
        State("health_approved", "Health Department approved — engineer's review"),
        State("plans_approved", "Plans approved by the engineer"),
        State("filed", "Filed with the Planning Board", terminal=True),
        State("rejected", "Rejected", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "record_fee_payment",
            "Record fee payment",
            ("submitted",),
            "fee_paid",
            "§ 196-23 C",
            roles=frozenset({CLERK}),
            automatic=FEE_PAID_BY_BILLING,
            form=FeePaymentForm,
            facts=FeePayment,
            guard=_fee_guard,
            effect=_fee_effect,
        ),
        Transition(
            "record_health_approval",
            "Record Health Department approval",
            ("fee_paid",),
            "health_approved",
            "§ 196-16 G",
            roles=frozenset({CLERK}),
            form=HealthApprovalForm,
            facts=HealthApproval,
            effect=_health_effect,
        ),
        Transition(
            "approve_plans",
            "Approve plans, profiles and drawings",
            ("health_approved",),
            "plans_approved",
            "§ 196-16 G",
            roles=frozenset({ENGINEER}),
            effect=_plans_effect,
        ),
        Transition(
            "record_filing",
            "Record filing with the Planning Board",
            ("plans_approved",),
            "filed",
            "§ 196-16 G",
            roles=frozenset({CLERK}),
            form=FilingForm,
            facts=Filing,
            effect=_filing_effect,
        ),
        Transition(
            "reject",
            "Reject plans",
            ("submitted", "fee_paid", "health_approved"),
            "rejected",
            "§ 196-16 G",
            roles=frozenset({ENGINEER}),
            reason=REASON_REQUIRED,
            danger=True,
            queue=False,
        ),
        withdraw(("submitted", "fee_paid", "health_approved", "plans_approved"), "§ 196-16 G"),
    ],
)
