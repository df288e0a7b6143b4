"""A response not issued within the adopted plan's time frame is a finding (40 CFR 403.8(f)(5)).

Run daily by ``sewer-use flag-overdue``. For each open violation, under the plan in force on
the day it was opened *and adopted by then* (no adopted plan, no time frame, no finding):

- its first response — any notice, order or referral — not issued within the plan's days from
  the day the violation was opened (issued later, or not yet and the last day has passed);
- while its deadline has passed uncorrected (``fines_accruing``), the next step of the
  escalation not issued within the plan's days from the day after the deadline.

Each is a RESPONSE_LATE finding, once per violation and step, naming the official
responsible. It is the Town's own lateness, never the user's violation: the finding has no
facility (an outside user never reads it, and a violation still ``open`` is the office's own
matter), and the rule of grounds refuses to open a violation from it (:mod:`.grounds`).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.utils import timezone

from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of, record_finding
from sewer_rules.enforcement_guide import GuideError
from sewer_rules.enforcement_plan import (
    TIME_FRAMES,
    PlanStep,
    escalation_step,
    first_step,
    late,
)

from . import notices, plan, referrals
from .models import PlanAdoption, Violation
from .states import OPEN_STATES

#: The finding's status: for the Superintendent's review, like every duty of the office.
STATUS = "review"


def _first_issued(violation: Violation) -> date | None:
    days = [n.issued_on for n in violation.notices.all()]
    days += [r.referred_on for r in violation.referrals.all()]
    return min(days) if days else None


def _steps(violation: Violation, today: date) -> list[tuple[PlanStep, date | None]]:
    """The plan's steps due for ``violation`` and when each was issued (None: not yet)."""
    opened = plan.opened_day(violation)
    version = plan.version_on(opened)
    decision = plan.severity(violation, opened)
    out: list[tuple[PlanStep, date | None]] = []
    first = first_step(version, violation.kind, decision, opened)
    if first is not None:
        out.append((first, _first_issued(violation)))
    notice = notices.current_notice(violation)
    if violation.state == "fines_accruing" and notice is not None and notice.deadline:
        response = referrals.next_step(violation, opened)
        if response is not None:
            step = escalation_step(
                version, violation.kind, decision, response, notice.deadline, notice.number
            )
            if step is not None:
                out.append((step, None))  # fines accruing: nothing issued since the deadline
    return out


def _message(
    violation: Violation, step: PlanStep, issued: date | None, adoption: PlanAdoption
) -> str:
    when = (
        f"the violation was opened on {step.starts}"
        if step.is_first
        else f"the deadline of {step.step.removeprefix('after ')} passed on {step.starts}"
    )
    done = f"it was issued on {issued:%Y-%m-%d}" if issued else "none was issued by then"
    return (
        f"{violation.number} ({violation.subject or violation.person.name}): the enforcement "
        f"response plan {adoption.reference} calls for {step.text} — {when}, so by "
        f"{step.due}; {done}. Responsible: the {step.official} ({TIME_FRAMES}). The "
        "Town's own time frame: no violation of the user."
    )


def _record(
    violation: Violation, step: PlanStep, issued: date | None, adoption: PlanAdoption
) -> bool:
    key = f"enforcement plan step {step.step}"
    with transaction.atomic():
        locked = Violation.objects.select_for_update().get(pk=violation.pk)
        if findings_of(locked).filter(kind=FindingKind.RESPONSE_LATE, parameter=key).exists():
            return False
        assert step.due is not None  # late() is never true without it
        first_late_day = step.due + timedelta(days=1)
        record_finding(
            source=locked,
            establishment=None,
            kind=FindingKind.RESPONSE_LATE,
            status=STATUS,
            citation=TIME_FRAMES,
            message=_message(locked, step, issued, adoption),
            observed_at=timezone.make_aware(datetime.combine(first_late_day, time())),
            parameter=key,
            effective=adoption.plan_effective,
            parameters_version=adoption.reference[:80],
        )
    return True


def flag_late_responses(today: date | None = None) -> int:
    """Record a RESPONSE_LATE finding for each step of an open violation not issued within the
    adopted plan's time frame, as of ``today``; each once. Returns how many were recorded."""
    today = today or timezone.localdate()
    count = 0
    candidates = (
        Violation.objects.filter(state__in=OPEN_STATES)
        .select_related("person", "establishment", "property", "finding")
        .prefetch_related("notices", "referrals")
        .order_by("id")
    )
    for violation in candidates:
        opened = plan.opened_day(violation)
        try:
            adoption = plan.adoption_of(plan.version_on(opened), opened)
        except GuideError:
            continue
        if adoption is None:
            continue
        for step, issued in _steps(violation, today):
            if late(step, issued, today) and _record(violation, step, issued, adoption):
                count += 1
    return count
