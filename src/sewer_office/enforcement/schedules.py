"""Compliance schedules and their milestones (40 CFR 403.8(f)(1)(iv), 403.12(c)).

A schedule is imposed on a facility by a condition of its industrial approval or by an
administrative order or notice; it lists dated milestones. The services here create and amend
schedules (with their audit events), record a milestone's completion (the effect of the
``complete_milestone`` transition, through :func:`~sewer_office.core.services.perform`), and run
the daily clock of ``sewer-use flag-overdue``:

- a milestone not completed by its date is a MILESTONE_MISSED finding, once (the day after);
- a milestone still not completed when the period of 40 CFR 403.8(f)(2)(viii)(E) ("within 90
  days of the scheduled date", the dated parameter ``snc.milestone_late_days``; day 90 is on
  time) has run out becomes a violation, opened from that finding, once.

:func:`missed_milestones` gives the SNC determination its criterion (E).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor, person_or_none, signed_in
from sewer_office.accounts.roles import has_role
from sewer_office.accounts.towns import primary
from sewer_office.core import audit
from sewer_office.core.errors import Forbidden, InvalidInput
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.services import findings_of, record_finding

from . import letters, rules
from .choices import ImposedBy
from .facts import MilestoneCompletionFacts
from .models import ComplianceSchedule, Milestone, Notice, Violation
from .services import open_violation
from .states import SCHEDULERS

#: The rule a missed milestone breaks, cited on its finding and its violation: the order that
#: imposed the compliance schedule, under the Control Authority's power to require one
#: (40 CFR 403.8(f)(1)(iv)). Only 90 days late does it become significant noncompliance
#: (40 CFR 403.8(f)(2)(viii)(E)), which the violation's description says.
MISSED_CITATION = "40 CFR 403.8(f)(1)(iv)"
SNC_MILESTONE = "40 CFR 403.8(f)(2)(viii)(E)"
LATE_DAYS = "snc.milestone_late_days"


def visible_schedules(
    qs: models.QuerySet[ComplianceSchedule], user: Actor
) -> models.QuerySet[ComplianceSchedule]:
    return visible(qs, user)


def may_schedule(user: Actor) -> bool:
    return has_role(user, *SCHEDULERS)


def late_days(on: date) -> int:
    """Days after its date within which a milestone must be met, in force on ``on``: the
    federal SNC criterion (40 CFR 403.8(f)(2)(viii)(E)), the plant's program's value, read from
    the installation's (its primary town's) values for every member town."""
    return int(rules.params(primary()).value(LATE_DAYS, on))


def _citation(text: str) -> str:
    text = text.strip()
    if text.startswith("40 CFR"):
        return text
    return rules.section(text, "citation")


def _check_imposer(
    establishment: Any, imposed_by: str, approval: Any, notice: Notice | None
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if imposed_by == ImposedBy.APPROVAL_CONDITION:
        if approval is None:
            errors["approval"] = ["Name the industrial approval whose condition imposes it."]
        elif approval.establishment_id != establishment.pk:
            errors["approval"] = [f"{approval.number} is not an approval of {establishment}."]
        elif not approval.approved:
            errors["approval"] = [f"{approval.number} is not approved ({approval.state_label})."]
    elif imposed_by == ImposedBy.ORDER:
        if notice is None:
            errors["notice"] = ["Name the administrative order or notice that imposes it."]
        elif notice.violation.establishment_id != establishment.pk:
            errors["notice"] = [f"{notice.number} was not issued about {establishment}."]
    else:
        errors["imposed_by"] = [f"{imposed_by!r}: choose {', '.join(ImposedBy.values)}"]
    return errors


def _add_milestones(
    schedule: ComplianceSchedule, milestones: Iterable[tuple[date, str]]
) -> list[Milestone]:
    return [
        Milestone.objects.create(schedule=schedule, due_on=due, description=text)
        for due, text in milestones
    ]


def create_schedule(
    actor: Actor,
    *,
    establishment: Any,
    imposed_by: str,
    requirement: str,
    citation: str,
    milestones: list[tuple[date, str]],
    approval: Any = None,
    notice: Notice | None = None,
    at: datetime | None = None,
) -> ComplianceSchedule:
    """Impose a schedule with its milestones (the Superintendent or the engineer)."""
    if not may_schedule(actor):
        raise Forbidden(
            "Imposing a compliance schedule: reserved to the Superintendent and the engineer "
            "(§ 196-19 E(1), 40 CFR 403.8(f)(1)(iv))."
        )
    errors = _check_imposer(establishment, imposed_by, approval, notice)
    cited = ""
    try:
        cited = _citation(citation)
    except InvalidInput as e:
        errors.update(e.errors)
    if not requirement.strip():
        errors["requirement"] = ["State the requirement the schedule brings into compliance."]
    if not milestones:
        errors["milestones"] = ["A schedule has at least one milestone."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        schedule = ComplianceSchedule.objects.create(
            establishment=establishment,
            imposed_by=imposed_by,
            approval=approval if imposed_by == ImposedBy.APPROVAL_CONDITION else None,
            notice=notice if imposed_by == ImposedBy.ORDER else None,
            requirement=requirement.strip(),
            citation=cited,
            created_by=signed_in(actor),
            created_at=at or timezone.now(),
        )
        _add_milestones(schedule, milestones)
        audit.record(
            actor=actor,
            action="impose_schedule",
            obj=schedule,
            after={**audit.snapshot(schedule), "milestones": _listed(schedule)},
            citation="40 CFR 403.8(f)(1)(iv)",
            at=at,
        )
        if schedule.notice is not None and letters.is_order(schedule.notice):
            # the order's terms are complete with its schedule: kept as the document of record
            letters.issue_order(schedule.notice, actor)
    return schedule


def _listed(schedule: ComplianceSchedule) -> list[str]:
    return [f"{m.due_on} {m.description}" for m in schedule.milestones.all()]


def amend_schedule(
    actor: Actor,
    schedule: ComplianceSchedule,
    *,
    reason: str,
    requirement: str,
    citation: str,
    milestones: list[tuple[date, str]] = (),  # type: ignore[assignment]
    at: datetime | None = None,
) -> ComplianceSchedule:
    """Amend a schedule: milestones added, with a reason. The requirement and its citation
    are given again and must be those imposed (fixed since: another requirement is another
    schedule).

    Never silent: a reason is required and written on the audit event with the values before
    and after. Milestones already on the schedule are never changed or removed — a missed one
    stays missed on the record (40 CFR 403.8(f)(2)(viii)(E)); a later date is a new milestone.
    """
    if not may_schedule(actor):
        raise Forbidden(
            "Amending a compliance schedule: reserved to the Superintendent and the engineer "
            "(§ 196-19 E(1))."
        )
    errors: dict[str, list[str]] = {}
    cited = ""
    try:
        cited = _citation(citation)
    except InvalidInput as e:
        errors.update(e.errors)
    if not reason.strip():
        errors["reason"] = ["A reason is required to amend a compliance schedule."]
    if not requirement.strip():
        errors["requirement"] = ["State the requirement the schedule brings into compliance."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        locked = ComplianceSchedule.objects.select_for_update().get(pk=schedule.pk)
        if (locked.requirement, locked.citation) != (requirement.strip(), cited):
            # the milestones are dated against the requirement imposed: the database keeps it
            # as imposed (core.protection); another requirement is another schedule
            raise InvalidInput(
                {
                    "requirement": [
                        "The requirement and its citation are fixed when the schedule is "
                        "imposed: amend by adding milestones, or impose a new schedule for "
                        "another requirement."
                    ]
                }
            )
        before = {**audit.snapshot(locked), "milestones": _listed(locked)}
        locked.save()
        _add_milestones(locked, milestones)
        audit.record(
            actor=actor,
            action="amend_schedule",
            obj=locked,
            before=before,
            after={**audit.snapshot(locked), "milestones": _listed(locked)},
            reason=reason.strip(),
            citation="40 CFR 403.8(f)(1)(iv)",
            at=at,
        )
    return locked


def effect_complete_milestone(
    milestone: Milestone, facts: MilestoneCompletionFacts, actor: Actor, at: datetime
) -> None:
    """Effect of ``complete_milestone``: the day and the report, once (a later day refused)."""
    done = facts["completed_on"]
    if done > timezone.localdate(at):
        raise InvalidInput({"completed_on": ["A milestone cannot be completed in the future."]})
    created = timezone.localdate(milestone.schedule.created_at)
    if done < created:
        raise InvalidInput(
            {"completed_on": [f"Before the schedule was imposed ({created}): not a completion."]}
        )
    milestone.completed_on = done
    milestone.completion_report = facts["completion_report"].strip()
    milestone.recorded_by = person_or_none(actor)


# --- the daily clock ---------------------------------------------------------------------


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time()))


def flag_missed_milestones(today: date | None = None) -> tuple[int, int]:
    """Record MILESTONE_MISSED findings, and open the violations 90 days late; once each.

    A milestone is missed on the day after its date if it is not completed by then; the finding
    is dated that day. When it is still not completed after ``snc.milestone_late_days`` (90),
    a violation of the kind ``missed_milestone`` is opened from the finding by the daily job
    (no actor). Returns (findings recorded, violations opened).
    """
    today = today or timezone.localdate()
    found = opened = 0
    late = Milestone.objects.filter(due_on__lt=today).filter(
        Q(completed_on__isnull=True) | Q(completed_on__gt=models.F("due_on"))
    )
    for m in late.select_related("schedule__establishment__operator"):
        with transaction.atomic():
            locked = Milestone.objects.select_for_update().get(pk=m.pk)
            finding = findings_of(locked).filter(kind=FindingKind.MILESTONE_MISSED).first()
            if finding is None:
                missed_on = locked.due_on + timedelta(days=1)
                finding = record_finding(
                    source=locked,
                    establishment=m.schedule.establishment,
                    kind=FindingKind.MILESTONE_MISSED,
                    status="violation",
                    citation=MISSED_CITATION,
                    message=(
                        f"{m.schedule.number} milestone “{locked.description}” due "
                        f"{locked.due_on}, imposed by {_order(m.schedule)}: not completed by "
                        f"its date ({MISSED_CITATION}; progress reports, 40 CFR 403.12(c); "
                        f"the requirement, {m.schedule.citation})."
                    ),
                    observed_at=_midnight(missed_on),
                    limit=str(locked.due_on),
                )
                found += 1
            days = late_days(locked.due_on)
            overdue = locked.due_on + timedelta(days=days)
            if (
                locked.completed_on is None
                and today > overdue
                and not Violation.objects.filter(finding=finding).exists()
            ):
                _open_late(locked, finding, days, overdue)
                opened += 1
    return found, opened


def _order(schedule: ComplianceSchedule) -> str:
    """The order or notice that imposed ``schedule``, as a letter would name it."""
    if schedule.notice is not None:
        return f"{schedule.notice.number} ({schedule.notice.response_label})"
    return f"compliance schedule {schedule.number}"


def _open_late(milestone: Milestone, finding: Any, days: int, overdue: date) -> Violation:
    """The violation of the order whose milestone is ``days`` late (40 CFR 403.8(f)(1)(iv)),
    significant noncompliance under 40 CFR 403.8(f)(2)(viii)(E)."""
    schedule = milestone.schedule
    return open_violation(
        None,
        by_daily_job=True,
        kind="missed_milestone",
        section=MISSED_CITATION,
        description=(
            f"{schedule.number}: milestone “{milestone.description}” due {milestone.due_on}, "
            f"imposed by {_order(schedule)}, not completed within {days} days of its date (by "
            f"{overdue}): significant noncompliance, {SNC_MILESTONE}."
        ),
        person=schedule.establishment.operator,
        establishment=schedule.establishment,
        observed_on=overdue + timedelta(days=1),
        finding=finding,
        at=_midnight(overdue + timedelta(days=1)),
    )


def missed_milestones(establishment: Any, start: date, end: date) -> list[Milestone]:
    """The milestones of ``establishment`` (None: every facility) missed by more than the
    period of 40 CFR 403.8(f)(2)(viii)(E) at some day of ``start..end``.

    A milestone due on D fails criterion (E) from D + 91 days (day 90 is on time) until the
    day it is completed (that day included). It counts in the window when that span meets the
    window: D + 91 ≤ ``end``, and it is uncompleted or completed on or after both D + 91 and
    ``start``. For the SNC determination of the federal program.
    """
    qs = Milestone.objects.filter(due_on__lte=end).filter(
        Q(completed_on__isnull=True) | Q(completed_on__gte=start)
    )
    if establishment is not None:
        qs = qs.filter(schedule__establishment=establishment)
    out = []
    for m in qs.select_related("schedule__establishment").order_by("due_on", "id"):
        fails = m.due_on + timedelta(days=late_days(m.due_on) + 1)
        if fails > end:
            continue
        if m.completed_on is not None and m.completed_on < fails:
            continue
        out.append(m)
    return out
