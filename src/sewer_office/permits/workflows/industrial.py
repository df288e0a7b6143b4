"""Industrial discharge and cooling water approvals (§ 196-16 D, E, F; § 196-19 E).

::

    submitted ──begin_review (engineer)──▶ under_review
    under_review ──approve (engineer, § 196-16 E)──▶ approved
    under_review ──approve_with_conditions (engineer or Superintendent, § 196-19 E(1))──▶
        approved_with_conditions
    under_review ──reject (engineer or Superintendent, § 196-19 E(1)(a))──▶ rejected
    submitted/under_review ──withdraw──▶ withdrawn

The engineer reviews and approves (§ 196-16 D–F: "the consent of the engineer", "written
approval by the engineer", "specific written approval by the engineer"). Rejecting the wastes
and approving them only on conditions are also the Superintendent's: § 196-19 E(1) says that
where wastes of the kinds of Subsection D are discharged "the Superintendent may: (a) Reject
the wastes; (b) Require pretreatment to an acceptable condition ...; (c) Require control over
the quantities and rates of discharge; and/or (d) Require payment". So both transitions are
open to the engineer and the Superintendent; the plain approval stays the engineer's. The
declared characteristics are
evaluated by the rules when review begins; a discharge with a ``prohibited`` finding
(§ 196-19 C) cannot be approved as it stands: only with pretreatment as a condition, or
rejected. Conditions never waive National Categorical Pretreatment Standards (§ 196-19 J, K).

An approval issued to a Significant Industrial User is its individual control mechanism: both
approving moves are refused while an element of 40 CFR 403.8(f)(1)(iii)(B) is missing
(:mod:`sewer_office.permits.control_mechanism`), the refusal naming each with its citation.
The terms and self-monitoring requirements are recorded before the decision
(:mod:`sewer_office.permits.services.control_terms`); the term is the decision's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypedDict

from django import forms
from django.utils import timezone

from sewer_office.accounts.actors import Actor, person_or_none
from sewer_office.accounts.roles import ENGINEER, SUPERINTENDENT
from sewer_office.core.errors import InvalidInput
from sewer_office.core.significance import is_significant
from sewer_office.core.town_law import require_article_for
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, State, Transition, Workflow
from sewer_office.permits import rules
from sewer_office.permits.control_mechanism import missing_elements, refusal
from sewer_office.permits.letters import issue_approval
from sewer_office.permits.models.industrial import (
    DECISION_CONDITIONS,
    ApprovalCondition,
    IndustrialDischargeApproval,
)
from sewer_office.permits.services.industrial import APPROVAL, evaluate

from .common import withdraw

#: Who may reject the wastes or approve them on conditions: § 196-19 E(1) gives these powers
#: to the Superintendent; the engineer reviewing the approval (§ 196-16 D–F) may too.
E1_ROLES = frozenset({ENGINEER, SUPERINTENDENT})


class TermForm(forms.Form):
    """The term of the approval (40 CFR 403.8(f)(1)(iii): "not to exceed five years")."""

    term_years = forms.IntegerField(
        required=False,
        min_value=1,
        label="Term (years)",
        help_text="blank: the longest term in force (five years, 40 CFR 403.8(f)(1)(iii))",
    )


class ConditionsForm(TermForm):
    """One text per kind of condition; at least one is required."""

    pretreatment = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    flow_equalization = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    control_manhole = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    sampling = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    surcharge = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    special_agreement = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    categorical_standards_unaffected = forms.BooleanField(
        required=False,
        label="The conditions do not circumvent National Categorical Pretreatment Standards",
        help_text="Required with a special agreement (§ 196-19 J, K).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, (label, citation) in DECISION_CONDITIONS.items():
            self.fields[key].label = f"{label} ({citation})"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not any((data.get(k) or "").strip() for k in DECISION_CONDITIONS):
            raise forms.ValidationError("State at least one condition.")
        if (data.get("special_agreement") or "").strip() and not data.get(
            "categorical_standards_unaffected"
        ):
            self.add_error(
                "categorical_standards_unaffected",
                "No special agreement may circumvent National Categorical Pretreatment "
                "Standards (§ 196-19 J): confirm it does not.",
            )
        return data


class Term(TypedDict):
    term_years: int | None


class Conditions(Term):
    """One text per kind of :data:`DECISION_CONDITIONS` ("" when not stated)."""

    pretreatment: str
    flow_equalization: str
    control_manhole: str
    sampling: str
    surcharge: str
    special_agreement: str
    categorical_standards_unaffected: bool


Approval = IndustrialDischargeApproval


def _begin_effect(approval: Approval, facts: NoFacts, actor: Actor, at: datetime) -> None:
    evaluate(approval)


def _control_mechanism_guard(approval: Approval, term_years: int | None) -> str | None:
    """An approval issued to a Significant Industrial User is its individual control mechanism:
    refused while an element of 40 CFR 403.8(f)(1)(iii)(B) is missing. Whether the user is one
    is the pretreatment app's designation, asked through :mod:`sewer_office.core.significance`
    (that app sits above the permits)."""
    if not is_significant(approval.establishment):
        return None
    gaps = missing_elements(approval, term_years=term_years)
    return refusal(approval, gaps) if gaps else None


def _approve_guard(approval: Approval, facts: Term) -> str | None:
    ev = approval.evaluation or {}
    if ev.get("prohibited"):
        return (
            "The declared discharge breaks an absolute prohibition of § 196-19 C: it can be "
            "approved only with pretreatment as a condition (§ 196-19 E(1)(b)), or rejected."
        )
    return _control_mechanism_guard(approval, facts["term_years"])


def _conditions_guard(approval: Approval, facts: Conditions) -> str | None:
    ev = approval.evaluation or {}
    if ev.get("prohibited") and not facts["pretreatment"].strip():
        return (
            "The declared discharge breaks an absolute prohibition of § 196-19 C: the approval "
            "must require pretreatment to an acceptable condition (§ 196-19 E(1)(b))."
        )
    return _control_mechanism_guard(approval, facts["term_years"])


def _decide(approval: Approval, actor: Actor, at: datetime) -> None:
    approval.decided_on = timezone.localdate(at)
    approval.decided_by = person_or_none(actor)


def _reject_effect(approval: Approval, facts: NoFacts, actor: Actor, at: datetime) -> None:
    _decide(approval, actor, at)


def _term_effect(approval: Approval, facts: Term, actor: Actor, at: datetime) -> None:
    """The decision, and the term: the one stated, at most the longest in force in the
    facility's town (refused, nothing written, for a town under a law of its own)."""
    town = require_article_for(approval, APPROVAL)
    _decide(approval, actor, at)
    longest = rules.approval_term(town, timezone.localdate(at))
    most = int(longest.value) if longest.value is not None else None
    years = facts["term_years"] or most
    if years is None:
        raise InvalidInput({"term_years": ["State the term of the approval, in years."]})
    if most is not None and years > most:
        raise InvalidInput(
            {
                "term_years": [
                    f"An approval is issued for a specified time period, not to exceed {most} "
                    f"years ({longest.reference})."
                ]
            }
        )
    approval.term_years = years
    approval.expires_on = rules.approval_expiry(timezone.localdate(at), years)


def _conditions_effect(approval: Approval, facts: Conditions, actor: Actor, at: datetime) -> None:
    _term_effect(approval, facts, actor, at)
    # the kinds of condition are read from the model's one list, so by name, not by key
    texts: Mapping[str, object] = facts
    for key, (_label, citation) in DECISION_CONDITIONS.items():
        text = str(texts.get(key) or "").strip()
        if text:
            ApprovalCondition.objects.create(
                approval=approval, kind=key, text=text, citation=citation
            )


def _approve_effect(approval: Approval, facts: Term, actor: Actor, at: datetime) -> None:
    """The decision and its written approval, kept as issued (a document of record)."""
    _term_effect(approval, facts, actor, at)
    _issue_letter(approval, actor, at)


def _approve_with_conditions_effect(
    approval: Approval, facts: Conditions, actor: Actor, at: datetime
) -> None:
    _conditions_effect(approval, facts, actor, at)
    _issue_letter(approval, actor, at)


def _issue_letter(approval: Approval, actor: Actor, at: datetime) -> None:
    issue_approval(approval, actor, at)  # issued at the decision's moment


WORKFLOW = Workflow[IndustrialDischargeApproval](
    name="industrial_discharge_approval",
    initial="submitted",
    states=[
        State("submitted", "Submitted"),
        State("under_review", "Under review by the engineer"),
        State("approved", "Approved", terminal=True),
        State("approved_with_conditions", "Approved with conditions", terminal=True),
        State("rejected", "Rejected", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "begin_review",
            "Begin review",
            ("submitted",),
            "under_review",
            "§ 196-16 D",
            roles=frozenset({ENGINEER}),
            effect=_begin_effect,
        ),
        Transition(
            "approve",
            "Approve (written approval)",
            ("under_review",),
            "approved",
            "§ 196-16 E",
            roles=frozenset({ENGINEER}),
            form=TermForm,
            facts=Term,
            guard=_approve_guard,
            effect=_approve_effect,
        ),
        Transition(
            "approve_with_conditions",
            "Approve with conditions",
            ("under_review",),
            "approved_with_conditions",
            "§ 196-19 E(1)",
            roles=E1_ROLES,
            form=ConditionsForm,
            facts=Conditions,
            guard=_conditions_guard,
            effect=_approve_with_conditions_effect,
        ),
        Transition(
            "reject",
            "Reject the wastes",
            ("under_review",),
            "rejected",
            "§ 196-19 E(1)(a)",
            roles=E1_ROLES,
            reason=REASON_REQUIRED,
            effect=_reject_effect,
            danger=True,
        ),
        withdraw(("submitted", "under_review"), "§ 196-16 E"),
    ],
)
