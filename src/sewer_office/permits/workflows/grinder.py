"""Garbage grinder approvals (§ 196-19 D(3)).

A grinder with a motor of 3/4 hp or more is subject to the Superintendent's review and
approval; below that no approval is needed and the record is filed as ``not_required`` (the
rules decide, :func:`sewer_rules...grinders.check_grinder`).

::

    submitted ──approve / reject (superintendent only, § 196-19 D(3))──▶ approved / rejected
    submitted ──withdraw──▶ withdrawn
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import SUPERINTENDENT
from sewer_office.core.workflow import REASON_REQUIRED, NoFacts, State, Transition, Workflow
from sewer_office.permits.models import GrinderApproval

from .common import withdraw


def _decide(grinder: GrinderApproval, facts: NoFacts, actor: Actor, at: datetime) -> None:
    grinder.decided_on = timezone.localdate(at)


WORKFLOW = Workflow[GrinderApproval](
    name="grinder_approval",
    initial="submitted",
    states=[
        State("submitted", "Submitted — Superintendent's review"),
        State("not_required", "No approval required (under 3/4 hp)", terminal=True),
        State("approved", "Approved", terminal=True),
        State("rejected", "Rejected", terminal=True),
        State("withdrawn", "Withdrawn", terminal=True),
    ],
    transitions=[
        Transition(
            "approve",
            "Approve grinder",
            ("submitted",),
            "approved",
            "§ 196-19 D(3)",
            roles=frozenset({SUPERINTENDENT}),
            effect=_decide,
        ),
        Transition(
            "reject",
            "Reject grinder",
            ("submitted",),
            "rejected",
            "§ 196-19 D(3)",
            roles=frozenset({SUPERINTENDENT}),
            reason=REASON_REQUIRED,
            effect=_decide,
            danger=True,
        ),
        withdraw(("submitted",), "§ 196-19 D(3)"),
    ],
)
