"""The life of a violation, declared once (see :mod:`sewer_office.core.workflow`).

::

    open ──issue_notice (Superintendent, § 196-22 A)──▶ notice_issued
    notice_issued ──serve (clerk, Superintendent)──▶ served  (the clock starts the day after)
    served ──deadline passes uncorrected (sewer-use flag-overdue, § 196-22 B)──▶ fines_accruing
    served / fines_accruing / referred ──report_correction (the person, or staff)──▶ correction_reported
    correction_reported ──verify (Superintendent, § 196-21 A inspector)──▶ corrected
    correction_reported ──reject_correction──▶ back where it was
    fines_accruing / referred ──escalate (the guide's next step)──▶ notice_issued | referred
    any open state ──refer (§ 196-20, § 196-22 B, D)──▶ referred
    notice_issued / served ──supersede_notice (a reason)──▶ notice_issued
    open / notice_issued ──dismiss (a reason)──▶ dismissed

A violation of § 196-20 is opened directly as ``referred`` (for immediate arrest): it never
has a notice or a clock. The effects live in :mod:`.services`; this module only declares.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sewer_office.accounts.roles import BUILDING_INSPECTOR, CLERK, ENGINEER, SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, State, Transition, Workflow

from . import forms as eforms

ISSUERS = frozenset({SUPERINTENDENT})
SERVERS = frozenset({SUPERINTENDENT, CLERK})
#: "the Superintendent and/or other authorized personnel as cited in § 196-21A" (§ 196-22 B):
#: the Superintendent and the Town's inspectors (the engineer, the Building Inspector).
VERIFIERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR})
#: Staff who record a correction on the person's behalf (a telephone call, a letter).
REPORTERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR, CLERK})
OPENERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR})
COST_RECORDERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})

OPEN_STATES = (
    "open",
    "notice_issued",
    "served",
    "fines_accruing",
    "correction_reported",
    "referred",
)


def _effect(name: str) -> Any:
    """The effect ``services.<name>``, looked up when applied (services import the models)."""

    def run(violation: Any, data: dict[str, Any], actor: Any, at: datetime) -> None:
        from . import services

        getattr(services, name)(violation, data, actor, at)

    run.__name__ = name
    return run


def _schedule_effect(name: str) -> Any:
    """The effect ``schedules.<name>``, looked up when applied (it imports the models)."""

    def run(milestone: Any, data: dict[str, Any], actor: Any, at: datetime) -> None:
        from . import schedules

        getattr(schedules, name)(milestone, data, actor, at)

    run.__name__ = name
    return run


def _guard(name: str) -> Any:
    def check(violation: Any, data: dict[str, Any]) -> str | None:
        from . import services

        result: str | None = getattr(services, name)(violation, data)
        return result

    return check


WORKFLOW = Workflow(
    name="violation",
    initial="open",
    states=[
        State("open", "Open — awaiting the first response"),
        State("notice_issued", "Notice issued — awaiting service"),
        State("served", "Notice served — correction period running"),
        State("fines_accruing", "Deadline passed uncorrected — fines accruing"),
        State("correction_reported", "Correction reported — awaiting verification"),
        State("referred", "Referred"),
        State("corrected", "Correction verified", terminal=True),
        State("dismissed", "Dismissed", terminal=True),
    ],
    transitions=[
        Transition(
            "issue_notice",
            "Issue notice of violation",
            ("open",),
            "notice_issued",
            "§ 196-22 A",
            roles=ISSUERS,
            form=eforms.IssueForm,
            guard=_guard("guard_issue"),
            effect=_effect("effect_issue"),
            help="The response the guide names first for this kind, with its correction period.",
        ),
        Transition(
            "serve",
            "Record service of the notice",
            ("notice_issued",),
            "served",
            "§ 196-22 A",
            roles=SERVERS,
            form=eforms.ServeForm,
            effect=_effect("effect_serve"),
        ),
        Transition(
            "supersede_notice",
            "Supersede the notice",
            ("notice_issued", "served"),
            "notice_issued",
            "§ 196-22 A",
            roles=ISSUERS,
            reason=REASON_REQUIRED,
            form=eforms.SupersedeForm,
            effect=_effect("effect_supersede"),
            queue=False,
            help="An issued notice is never edited: a new notice replaces it, with the reason.",
        ),
        Transition(
            "report_correction",
            "Report the correction",
            ("notice_issued", "served", "fines_accruing", "referred"),
            "correction_reported",
            "§ 196-22 A",
            roles=REPORTERS,
            applicant=True,
            form=eforms.CorrectionForm,
            effect=_effect("effect_report"),
        ),
        Transition(
            "verify",
            "Verify the correction",
            ("correction_reported",),
            "corrected",
            "§ 196-22 B",
            roles=VERIFIERS,
            form=eforms.VerifyForm,
            effect=_effect("effect_verify"),
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
            effect=_effect("effect_reject"),
            danger=True,
        ),
        Transition(
            "deadline_passed",
            "Correction deadline passed uncorrected",
            ("served",),
            "fines_accruing",
            "§ 196-22 B",
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
            guard=_guard("guard_escalate"),
            effect=_effect("effect_escalate"),
        ),
        Transition(
            "refer",
            "Refer",
            ("open", "notice_issued", "served", "fines_accruing", "referred"),
            "referred",
            "§ 196-22",
            roles=ISSUERS,
            form=eforms.ReferForm,
            effect=_effect("effect_refer"),
            queue=False,
        ),
        Transition(
            "dismiss",
            "Dismiss",
            ("open", "notice_issued"),
            "dismissed",
            "§ 196-22 A",
            roles=ISSUERS,
            reason=REASON_REQUIRED,
            queue=False,
            danger=True,
        ),
    ],
)


#: Who records a milestone's completion: the Superintendent, the engineer, the clerk (from the
#: user's report); the facility itself may report it (40 CFR 403.12(c)).
MILESTONE_RECORDERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})
#: Who imposes and edits compliance schedules: the Superintendent and the engineer
#: (§ 196-19 E(1); the approval's conditions are the engineer's, § 196-16 E).
SCHEDULERS = frozenset({SUPERINTENDENT, ENGINEER})

MILESTONE_WORKFLOW = Workflow(
    name="milestone",
    initial="pending",
    states=[
        State("pending", "Pending"),
        State("completed", "Completed", terminal=True),
    ],
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
            effect=_schedule_effect("effect_complete_milestone"),
            help="The day it was completed and the report of completion (40 CFR 403.12(c)).",
        ),
    ],
)
