"""The building sewer permit (§ 196-18), from application to connection.

::

    submitted ──record_fee_payment (billing: fee invoice paid, § 196-18 B)──▶ plan_review
    submitted ──waive_fee (Superintendent or clerk records the waiver decision)──▶ plan_review
    plan_review ──approve_plans (engineer, § 196-18 D, F, G, H)──▶ plans_approved
    plans_approved ──record_road_opening_permit (highway, § 196-18 K)──▶ road_opening_permitted
    road_opening_permitted ──notify_ready (applicant/clerk, § 196-18 J)──▶ ready_for_inspection
    ready_for_inspection ──complete_connection (superintendent, § 196-18 J)──▶ completed
    ready_for_inspection ──require_corrections (superintendent)──▶ corrections_required
    corrections_required ──notify_ready──▶ ready_for_inspection
    submitted/plan_review ──reject (engineer)──▶ rejected
    any open ──withdraw (applicant/clerk)──▶ withdrawn
    submitted/plan_review ──examine_old_sewer (superintendent, § 196-18 E)──▶ (same state)

§ 196-18 B wants the fee "paid to the Town at the time the application is filed": an
application is a draft "awaiting the filing fee" (the state ``submitted``, so records kept
before this reading keep their state) until the fee is paid or waived; the payment or the
waiver files it. The fee step is not made on the permit: the clerk issues the fee invoice from
the billing pages (``/billing/permit-fees/``) and records the payment there; the payment that
settles the invoice makes ``record_fee_payment`` with its date and receipt number. A waiver is
a recorded decision: who decided it (the authority, e.g. the Town Board's resolution), when,
and why (the transition's reason), audited like every transition.

Guards: payment needs the fee in force on the application date to be configured; plan approval
needs no failed design check and, when an old building sewer is reused, the Superintendent's
examination finding that it meets the article; the road opening permit must name insurance
and bonds (K). Completion marks the property connected to the public sewer.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal, TypedDict

from django import forms

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import CLERK, ENGINEER, HIGHWAY, SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, State, Transition, Workflow
from sewer_office.permits.models import BuildingSewerPermit
from sewer_office.permits.services.building_sewer import (
    assess_fee,
    fee_not_configured_message,
    plan_checks,
    store_fee,
)
from sewer_office.registry.choices import WastewaterService
from sewer_office.registry.services import set_wastewater_service

from .common import FEE_PAID_BY_BILLING, date_field, day, withdraw

FEE_CITATION = "§ 196-18 B"
PLAN_CITATION = "§ 196-18 D; § 196-18 F; § 196-18 G; § 196-18 H"


class FeePaymentForm(forms.Form):
    paid_on = date_field("Paid on")
    receipt_number = forms.CharField(max_length=40, label="Receipt number")


class FeePayment(TypedDict):
    paid_on: date | None
    receipt_number: str


class FeeWaiverForm(forms.Form):
    waived_on = date_field("Waived on")
    authority = forms.CharField(
        max_length=200,
        label="Decided by",
        help_text="Who waived the fee and by what act (e.g. Town Board resolution 2026-14).",
    )


class FeeWaiver(TypedDict):
    waived_on: date | None
    authority: str


class OldSewerExaminationForm(forms.Form):
    result = forms.ChoiceField(
        choices=[
            ("meets", "Meets all requirements of the article"),
            ("fails", "Does not meet them"),
        ],
        widget=forms.RadioSelect,
    )
    examined_on = date_field("Examined on")


class OldSewerExamination(TypedDict):
    result: Literal["meets", "fails"]
    examined_on: date | None


class RoadOpeningForm(forms.Form):
    road_opening_number = forms.CharField(max_length=40, label="Road opening permit number")
    issued_on = date_field("Issued on")
    insurance_confirmed = forms.BooleanField(
        label="Insurance provided", help_text="§ 196-18 K: road opening permits require insurance."
    )
    bond_confirmed = forms.BooleanField(
        label="Bond posted", help_text="§ 196-18 K: road opening permits require bonds."
    )


class RoadOpening(TypedDict):
    road_opening_number: str
    issued_on: date | None
    insurance_confirmed: bool
    bond_confirmed: bool


class ReadyForm(forms.Form):
    ready_on = date_field("Ready on")


class Ready(TypedDict):
    ready_on: date | None


class ConnectionForm(forms.Form):
    inspected_on = date_field("Inspected on")
    connected_on = date_field("Connected on")
    supervised_by = forms.CharField(
        max_length=120,
        label="Connection supervised by",
        help_text="The Superintendent or his representative (§ 196-18 J).",
    )


class Connection(TypedDict):
    inspected_on: date | None
    connected_on: date | None
    supervised_by: str


def _fee_guard(permit: BuildingSewerPermit, facts: FeePayment) -> str | None:
    fee = assess_fee(permit)
    return fee_not_configured_message(permit, fee) if fee.value is None else None


def _fee_effect(permit: BuildingSewerPermit, facts: FeePayment, actor: Actor, at: datetime) -> None:
    store_fee(permit)
    permit.fee_paid_on = day(facts["paid_on"], at)
    permit.fee_receipt = facts["receipt_number"]


def _waiver_guard(permit: BuildingSewerPermit, facts: FeeWaiver) -> str | None:
    if permit.fee_paid_on is not None:
        return f"The fee is already paid ({permit.fee_paid_on:%Y-%m-%d}, {permit.fee_receipt})."
    return None


def _waiver_effect(
    permit: BuildingSewerPermit, facts: FeeWaiver, actor: Actor, at: datetime
) -> None:
    store_fee(permit)
    permit.fee_waived_on = day(facts["waived_on"], at)
    permit.fee_waiver_authority = facts["authority"].strip()


def _old_sewer_guard(permit: BuildingSewerPermit, facts: OldSewerExamination) -> str | None:
    if not permit.reuses_old_sewer:
        return "This application does not reuse an old building sewer (§ 196-18 E)."
    # recorded once; a sewer found failing is examined again only to record that it now meets
    # the article (the database keeps an examination as recorded, core.protection)
    if permit.old_sewer_result == "meets":
        return (
            f"The old building sewer was examined on {permit.old_sewer_examined_on:%Y-%m-%d} "
            "and found to meet all requirements of the article (§ 196-18 E)."
        )
    if permit.old_sewer_result == "fails" and facts["result"] != "meets":
        return (
            f"The old building sewer was examined on {permit.old_sewer_examined_on:%Y-%m-%d} "
            "and found not to meet the article: a new examination is recorded when it finds "
            "that it meets all requirements (§ 196-18 E)."
        )
    return None


def _old_sewer_effect(
    permit: BuildingSewerPermit, facts: OldSewerExamination, actor: Actor, at: datetime
) -> None:
    permit.old_sewer_result = facts["result"]
    permit.old_sewer_examined_on = day(facts["examined_on"], at)


def _plans_guard(permit: BuildingSewerPermit, facts: NoFacts) -> str | None:
    if permit.reuses_old_sewer and permit.old_sewer_result != "meets":
        return (
            "An old building sewer may be used with a new building only when the Superintendent "
            "has examined it and found it to meet all requirements of the article (§ 196-18 E)."
        )
    result = plan_checks(permit)
    if result["error"]:
        return f"The design cannot be checked: {result['error']}"
    failed = [c["message"] for c in result["checks"] if c["passed"] is False]
    if failed:
        return "The plans cannot be approved: " + "; ".join(failed)
    return None


def _plans_effect(permit: BuildingSewerPermit, facts: NoFacts, actor: Actor, at: datetime) -> None:
    result = plan_checks(permit)
    permit.plan_checks = result["checks"]
    permit.plan_checks_version = result["parameters_version"]
    permit.plans_approved_on = day(None, at)


def _road_effect(
    permit: BuildingSewerPermit, facts: RoadOpening, actor: Actor, at: datetime
) -> None:
    permit.road_opening_number = facts["road_opening_number"]
    permit.road_opening_issued_on = day(facts["issued_on"], at)


def _ready_effect(permit: BuildingSewerPermit, facts: Ready, actor: Actor, at: datetime) -> None:
    permit.ready_on = day(facts["ready_on"], at)


def _connection_effect(
    permit: BuildingSewerPermit, facts: Connection, actor: Actor, at: datetime
) -> None:
    inspected_on = day(facts["inspected_on"], at)
    connected_on = day(facts["connected_on"], at)
    permit.inspected_on = inspected_on
    permit.connected_on = connected_on
    permit.supervised_by = facts["supervised_by"]
    set_wastewater_service(
        permit.property,
        WastewaterService.PUBLIC_SEWER,
        connected_on,
        actor,
        citation="§ 196-18 J",
        reason=f"building sewer permit {permit.number} completed",
        at=at,
    )


OPEN = (
    "submitted",
    "plan_review",
    "plans_approved",
    "road_opening_permitted",
    "ready_for_inspection",
    "corrections_required",
)

WORKFLOW = Workflow[BuildingSewerPermit](
    name="building_sewer_permit",
    initial="submitted",
    states=[
        State("submitted", "Awaiting the filing fee — not yet filed"),
        State("plan_review", "Plan review"),
        State("plans_approved", "Plans approved"),
        State("road_opening_permitted", "Road opening permit issued"),
        State("ready_for_inspection", "Ready for inspection"),
        State("corrections_required", "Corrections required"),
        State("completed", "Completed — connected", terminal=True),
        State("rejected", "Rejected", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "record_fee_payment",
            "Record fee payment",
            ("submitted",),
            "plan_review",
            FEE_CITATION,
            roles=frozenset({CLERK}),
            automatic=FEE_PAID_BY_BILLING,
            form=FeePaymentForm,
            facts=FeePayment,
            guard=_fee_guard,
            effect=_fee_effect,
            help="The permit and inspection fee in force on the application date.",
        ),
        Transition(
            "waive_fee",
            "Record a waiver of the fee",
            ("submitted",),
            "plan_review",
            FEE_CITATION,
            roles=frozenset({SUPERINTENDENT, CLERK}),
            form=FeeWaiverForm,
            facts=FeeWaiver,
            reason=REASON_REQUIRED,
            guard=_waiver_guard,
            effect=_waiver_effect,
            help="Files the application without payment, on the recorded decision of who may "
            "waive the Town Board's fee.",
        ),
        Transition(
            "examine_old_sewer",
            "Record examination of the old building sewer",
            ("submitted", "plan_review"),
            None,
            "§ 196-18 E",
            roles=frozenset({SUPERINTENDENT}),
            form=OldSewerExaminationForm,
            facts=OldSewerExamination,
            guard=_old_sewer_guard,
            effect=_old_sewer_effect,
            queue=False,
        ),
        Transition(
            "approve_plans",
            "Approve plans",
            ("plan_review",),
            "plans_approved",
            PLAN_CITATION,
            roles=frozenset({ENGINEER}),
            guard=_plans_guard,
            effect=_plans_effect,
        ),
        Transition(
            "reject",
            "Reject application",
            ("submitted", "plan_review"),
            "rejected",
            "§ 196-18 B",
            roles=frozenset({ENGINEER}),
            reason=REASON_REQUIRED,
            danger=True,
            queue=False,
        ),
        Transition(
            "record_road_opening_permit",
            "Record road opening permit",
            ("plans_approved",),
            "road_opening_permitted",
            "§ 196-18 K",
            roles=frozenset({HIGHWAY}),
            form=RoadOpeningForm,
            facts=RoadOpening,
            effect=_road_effect,
            help="Required before any excavation for the building sewer.",
        ),
        Transition(
            "notify_ready",
            "Notify: ready for inspection",
            ("road_opening_permitted", "corrections_required"),
            "ready_for_inspection",
            "§ 196-18 J",
            roles=frozenset({CLERK}),
            applicant=True,
            form=ReadyForm,
            facts=Ready,
            effect=_ready_effect,
        ),
        Transition(
            "require_corrections",
            "Require corrections",
            ("ready_for_inspection",),
            "corrections_required",
            "§ 196-18 J",
            roles=frozenset({SUPERINTENDENT}),
            reason=REASON_REQUIRED,
            danger=True,
        ),
        Transition(
            "complete_connection",
            "Record inspection and supervised connection",
            ("ready_for_inspection",),
            "completed",
            "§ 196-18 J",
            roles=frozenset({SUPERINTENDENT}),
            form=ConnectionForm,
            facts=Connection,
            effect=_connection_effect,
        ),
        withdraw(OPEN, "§ 196-18 B"),
    ],
)
