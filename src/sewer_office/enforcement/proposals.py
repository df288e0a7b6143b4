"""What the office proposes to do about a violation, naming the plan it follows.

Every page that proposes a response says which plan proposes it and whether the Town adopted
it: "Enforcement response plan adopted 2026-03-02 by Town Board resolution 2026-41: result
exceedance, recurring → administrative order within 30 days, the Superintendent". Before an
adoption is recorded the same sentence says plainly that the plan is not adopted. The response
proposed is the one the action would issue (:func:`.services.effect_issue`,
:func:`.services.effect_escalate`): the same rules, read once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from django.utils import timezone

from sewer_office.core.errors import InvalidInput
from sewer_rules.enforcement_guide import GuideError, GuideVersion, Response
from sewer_rules.enforcement_plan import PlanStep, SeverityDecision, escalation_step, first_step

from . import notices, plan, referrals, rules
from .models import PlanAdoption, Violation


@dataclass(frozen=True)
class Proposal:
    """The response proposed, the plan's step it is (None without a plan), and the adoption."""

    response: Response
    step: PlanStep | None
    version: GuideVersion
    adoption: PlanAdoption | None

    @property
    def adopted(self) -> bool:
        return self.adoption is not None

    @property
    def source(self) -> str:
        """Which plan proposes it, and whether it is adopted, in words."""
        return plan_words(self.version, self.adoption)

    @property
    def text(self) -> str:
        what = self.step.text if self.step is not None else _label(self.response)
        return f"{self.source}: {what}"


def _label(response: Response) -> str:
    return response.label[:1].lower() + response.label[1:]


def plan_words(version: GuideVersion, adoption: PlanAdoption | None) -> str:
    """``Enforcement response plan adopted 2026-03-02 by Town Board resolution 2026-41``, or
    what the version is when it is not adopted."""
    if adoption is not None:
        return f"Enforcement response plan {adoption.reference}"
    if version.is_plan:
        return (
            f"Enforcement response plan effective {version.effective:%Y-%m-%d}, not adopted: "
            "no adoption by the Town is recorded (the software's default until it is)"
        )
    return (
        f"Enforcement response guide effective {version.effective:%Y-%m-%d}, not adopted "
        "(no plan: no time frames or officials)"
    )


def first_proposal(violation: Violation, day: date | None = None) -> Proposal | None:
    """The first response (a violation still ``open``), as :func:`.services.effect_issue`
    would issue it on ``day``; the time frame from the day the violation was opened."""
    day = day or timezone.localdate()
    try:
        version = plan.version_on(day)
        decision = plan.severity(violation, day)
        response = rules.first(violation.kind, violation.section, day, decision.severity)
    except (GuideError, InvalidInput):
        return None
    step = first_step(version, violation.kind, decision, plan.opened_day(violation))
    if step is not None and step.response != response:  # § 196-20 by its section
        step = replace(step, response=response)
    return Proposal(response, step, version, plan.adoption_of(version, day))


def next_proposal(
    violation: Violation, day: date | None = None, decision: SeverityDecision | None = None
) -> Proposal | None:
    """The next step of the escalation if the deadline passes (or passed) uncorrected; its
    time frame runs from the day after the current notice's deadline."""
    day = day or timezone.localdate()
    response = referrals.next_step(violation, day)
    if response is None:
        return None
    version = plan.version_on(day)
    decision = decision or plan.severity(violation, day)
    notice = notices.current_notice(violation)
    step = None
    if notice is not None:
        step = escalation_step(
            version, violation.kind, decision, response, notice.deadline, notice.number
        )
    return Proposal(response, step, version, plan.adoption_of(version, day))


def proposal_for(violation: Violation, day: date | None = None) -> Proposal | None:
    """What the violation's page proposes now: the first response while it is ``open``, the
    next step of the escalation while a notice runs or its deadline has passed."""
    if not violation.is_open or violation.state == "correction_reported":
        return None
    if violation.state == "open":
        return first_proposal(violation, day)
    return next_proposal(violation, day)
