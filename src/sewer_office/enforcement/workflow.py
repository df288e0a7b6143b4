"""The life of a violation, declared once (see :mod:`sewer_office.core.workflow`).

::

    open ──issue_notice (Superintendent, § 196-22 A)──▶ notice_issued
    notice_issued ──serve (clerk, Superintendent)──▶ served  (the clock starts the day after)
                                                   └──▶ mailed  (certified mail: no clock yet)
    mailed ──record_delivery (the return receipt's day)──▶ served
    served ──deadline passes uncorrected (sewer-use flag-overdue, § 196-22 B)──▶ fines_accruing
    mailed / served / fines_accruing / referred ──report_correction (the person, or staff)──▶ correction_reported
    correction_reported ──verify (Superintendent, § 196-21 A inspector)──▶ corrected
    correction_reported ──reject_correction──▶ back where it was
    fines_accruing / referred ──escalate (the guide's next step)──▶ notice_issued | referred
    any open state ──refer (§ 196-20, § 196-22 B, D)──▶ referred
    correction_reported / corrected ──refer_fine (late: the days' fine, § 196-22 B)──▶ unchanged
    notice_issued / mailed / served ──supersede_notice (a reason)──▶ notice_issued
    open / notice_issued ──dismiss (a reason)──▶ dismissed

A violation of § 196-20 is opened directly as ``referred`` (for immediate arrest): it never
has a notice or a clock. The effects and guards live in :mod:`.notices`, :mod:`.corrections`
and :mod:`.referrals` (a milestone's in :mod:`.schedules`), the facts each transition records
(its form's cleaned data, typed) in :mod:`.facts`, the states and roles in :mod:`.states`;
this module only declares.
"""

from __future__ import annotations

from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, Transition, Workflow

from . import corrections, notices, notify, referrals, schedules, town_ladder
from . import forms as eforms
from .facts import (
    CorrectionReportFacts,
    DeliveryFacts,
    EscalationFacts,
    FineReferralFacts,
    IssueFacts,
    MilestoneCompletionFacts,
    ReferralFacts,
    RejectionFacts,
    ServiceFacts,
    SupersedeFacts,
    VerificationFacts,
)
from .states import (
    ISSUERS,
    MILESTONE_RECORDERS,
    MILESTONE_STATES,
    REPORTERS,
    SERVERS,
    VERIFIERS,
    VIOLATION_STATES,
)

#: Where a correction may be reported from — and where a rejected report sends it back.
REPORTABLE = ("notice_issued", "mailed", "served", "fines_accruing", "referred")

WORKFLOW = Workflow(
    name="violation",
    initial="open",
    states=list(VIOLATION_STATES),
    transitions=[
        Transition(
            "issue_notice",
            "Issue notice of violation",
            ("open",),
            "notice_issued",
            "§ 196-22 A",
            roles=ISSUERS,
            form=eforms.IssueForm,
            facts=IssueFacts,
            guard=notices.guard_issue,
            effect=notices.effect_issue,
            help="The response the guide names first for this kind, with its correction period.",
        ),
        Transition(
            "serve",
            "Record service of the notice",
            ("notice_issued",),
            None,  # served, or mailed (certified mail) until its delivery is recorded
            "§ 196-22 A",
            roles=SERVERS,
            form=eforms.ServeForm,
            facts=ServiceFacts,
            effect=notices.effect_serve,
            outcomes=("served", "mailed"),
            help="Personal service or e-mail (with the person's written agreement): the day "
            "delivered or sent. Certified mail: the day mailed; record the delivery when the "
            "return receipt comes back — the period runs from delivery.",
        ),
        Transition(
            "record_delivery",
            "Record delivery of the mailed notice",
            ("mailed",),
            "served",
            "§ 196-22 A",
            roles=SERVERS,
            form=eforms.DeliveryForm,
            facts=DeliveryFacts,
            effect=notices.effect_deliver,
            help="The day of delivery shown by the return receipt (or the carrier's record): "
            "service is complete that day and the correction period runs from the day after.",
        ),
        Transition(
            "supersede_notice",
            "Supersede the notice",
            ("notice_issued", "mailed", "served"),
            "notice_issued",
            "§ 196-22 A",
            roles=ISSUERS,
            reason=REASON_REQUIRED,
            form=eforms.SupersedeForm,
            facts=SupersedeFacts,
            effect=notices.effect_supersede,
            queue=False,
            help="An issued notice is never edited: a new notice replaces it, with the reason.",
        ),
        Transition(
            "report_correction",
            "Report the correction",
            REPORTABLE,
            "correction_reported",
            "§ 196-22 A",
            roles=REPORTERS,
            applicant=True,
            form=eforms.CorrectionForm,
            facts=CorrectionReportFacts,
            effect=corrections.effect_report,
        ),
        Transition(
            "verify",
            "Verify the correction",
            ("correction_reported",),
            "corrected",
            "§ 196-22 B",
            roles=VERIFIERS,
            form=eforms.VerifyForm,
            facts=VerificationFacts,
            effect=corrections.effect_verify,
        ),
        Transition(
            "reject_correction",
            "Reject the reported correction",
            ("correction_reported",),
            None,
            "§ 196-22 B",
            roles=VERIFIERS,
            reason=REASON_REQUIRED,
            form=eforms.RejectForm,
            facts=RejectionFacts,
            effect=corrections.effect_reject,
            outcomes=REPORTABLE,  # back where it was before the report
            danger=True,
        ),
        Transition(
            "deadline_passed",
            "Correction deadline passed uncorrected",
            ("served",),
            "fines_accruing",
            "§ 196-22 B",
            facts=NoFacts,
            queue=False,
            help="Recorded by the daily run (sewer-use flag-overdue), never by hand.",
        ),
        Transition(
            "escalate",
            "Escalate (the guide's next step)",
            ("fines_accruing", "referred"),
            None,
            "§ 196-22",
            roles=ISSUERS,
            form=eforms.EscalateForm,
            facts=EscalationFacts,
            guard=referrals.guard_escalate,
            effect=referrals.effect_escalate,
            outcomes=("notice_issued", "referred"),
        ),
        Transition(
            "refer",
            "Refer",
            ("open", "notice_issued", "mailed", "served", "fines_accruing", "referred"),
            "referred",
            "§ 196-22",
            roles=ISSUERS,
            form=eforms.ReferForm,
            facts=ReferralFacts,
            effect=referrals.effect_refer,
            queue=False,
        ),
        Transition(
            "refer_fine",
            "Refer the fine for the days late",
            ("correction_reported", "corrected"),
            None,
            "§ 196-22 B",
            roles=ISSUERS,
            form=eforms.ReferFineForm,
            facts=FineReferralFacts,
            guard=referrals.guard_refer_fine,
            effect=referrals.effect_refer_fine,
            queue=False,
            help=(
                "Corrected after its deadline: the fine for the days it continued is for the "
                "court (§ 196-22 B). The violation stays as it is."
            ),
        ),
        Transition(
            "dismiss",
            "Dismiss",
            ("open", "notice_issued"),
            "dismissed",
            "§ 196-22 A",
            roles=ISSUERS,
            reason=REASON_REQUIRED,
            facts=NoFacts,
            queue=False,
            danger=True,
        ),
    ],
    # a notice served and a correction verified are told by e-mail as they happen
    announce=notify.announce,
    cites=town_ladder.cites,
    names=town_ladder.step_name,
    state_names=town_ladder.state_name,
)


MILESTONE_WORKFLOW = Workflow(
    name="milestone",
    initial="pending",
    states=list(MILESTONE_STATES),
    transitions=[
        Transition(
            "complete_milestone",
            "Record the milestone's completion",
            ("pending",),
            "completed",
            "40 CFR 403.12(c)",
            roles=MILESTONE_RECORDERS,
            applicant=True,
            form=eforms.MilestoneCompletionForm,
            facts=MilestoneCompletionFacts,
            effect=schedules.effect_complete_milestone,
            help="The day it was completed and the report of completion (40 CFR 403.12(c)).",
        ),
    ],
)
