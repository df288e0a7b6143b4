"""The states of a violation and of a milestone, and who may take each step.

Declared apart from :mod:`.workflow` so that the models, services, filters and schedules can
read them without importing the workflow, whose effects and guards are the services: the
workflow imports the services, never the other way round. A model finds its workflow as
``Violation.WORKFLOW`` / ``Milestone.WORKFLOW``, bound when the app is ready
(:meth:`.apps.EnforcementConfig.ready`), as the permits do.
"""

from __future__ import annotations

from sewer_office.accounts.roles import (
    BUILDING_INSPECTOR,
    CLERK,
    COORDINATOR,
    ENGINEER,
    SUPERINTENDENT,
)
from sewer_office.core.workflow import State

ISSUERS = frozenset({SUPERINTENDENT})
SERVERS = frozenset({SUPERINTENDENT, CLERK})
#: "the Superintendent and/or other authorized personnel as cited in § 196-21A" (§ 196-22 B):
#: the Superintendent and the Town's inspectors (the engineer, the Building Inspector).
VERIFIERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR})
#: Staff who record a correction on the person's behalf (a telephone call, a letter).
REPORTERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR, CLERK})
#: Who opens a violation: the Town's officials (§ 196-22 A), and the plant's pretreatment
#: coordinator, whose determination of significant noncompliance opens one for each user in it
#: (40 CFR 403.8(f)(2)(viii)).
OPENERS = frozenset({SUPERINTENDENT, ENGINEER, BUILDING_INSPECTOR, COORDINATOR})
COST_RECORDERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})

#: Who records a milestone's completion: the Superintendent, the engineer, the clerk (from the
#: user's report); the facility itself may report it (40 CFR 403.12(c)).
MILESTONE_RECORDERS = frozenset({SUPERINTENDENT, ENGINEER, CLERK})
#: Who imposes and edits compliance schedules: the Superintendent and the engineer
#: (§ 196-19 E(1); the approval's conditions are the engineer's, § 196-16 E).
SCHEDULERS = frozenset({SUPERINTENDENT, ENGINEER})

VIOLATION_STATES = (
    State("open", "Open — awaiting the first response"),
    State("notice_issued", "Notice issued — awaiting service"),
    State("mailed", "Notice mailed by certified mail — not yet delivered"),
    State("served", "Notice served — correction period running"),
    State("fines_accruing", "Deadline passed uncorrected — fines accruing"),
    State("correction_reported", "Correction reported — awaiting verification"),
    State("referred", "Referred"),
    State("corrected", "Correction verified", terminal=True),
    State("dismissed", "Dismissed", terminal=True),
)
#: The state filter's choices (the same as ``Violation.WORKFLOW.choices``).
VIOLATION_STATE_CHOICES = [(s.value, s.label) for s in VIOLATION_STATES]

OPEN_STATES = tuple(s.value for s in VIOLATION_STATES if not s.terminal)

MILESTONE_STATES = (
    State("pending", "Pending"),
    State("completed", "Completed", terminal=True),
)
