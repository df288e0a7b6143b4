"""Required reports (40 CFR 403.12): the requirements the Control Authority sets, the due dates
they make, their receipt, and the daily flag of a late report.

A module of its own beside the designations (:mod:`.services`) because the due dates are a
concept of their own: written ahead (``DUE_HORIZON_DAYS``), received by the clerk, read by the
SNC counts (:mod:`.snc_reading`) and by the reminders."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.core import audit
from sewer_office.core.errors import Blocked, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.findings.choices import FindingKind
from sewer_office.findings.models import Finding
from sewer_office.findings.services import record_finding
from sewer_office.registry.models import Establishment
from sewer_rules.findings import Status

from . import baseline
from .choices import REPORT_CITATIONS
from .models import ReportDue, ReportRequirement
from .services import DECIDERS, DUE_HORIZON_DAYS, RECEIVERS, _require, _today
from .status import awaiting_review


def _add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months (the 31st becomes the month's last day)."""
    year, month0 = divmod(day.year * 12 + day.month - 1 + months, 12)
    nxt = date(year + (month0 == 11), (month0 + 1) % 12 + 1, 1)
    return date(year, month0 + 1, min(day.day, (nxt - timedelta(days=1)).day))


def due_dates(req: ReportRequirement, through: date) -> list[date]:
    """The requirement's due dates up to ``through`` (and its end)."""
    last = min(through, req.ends_on) if req.ends_on else through
    if req.every_months == 0:
        return [req.first_due] if req.first_due <= last else []
    out: list[date] = []
    k = 0
    while True:
        d = _add_months(req.first_due, k * req.every_months)
        if d > last:
            return out
        out.append(d)
        k += 1


def _write_dues(reqs: Iterable[ReportRequirement], through: date) -> int:
    reqs = list(reqs)
    have = set(
        ReportDue.objects.filter(requirement__in=reqs).values_list("requirement_id", "due_on")
    )
    new = [
        ReportDue(requirement=r, establishment_id=r.establishment_id, kind=r.kind, due_on=d)
        for r in reqs
        for d in due_dates(r, through)
        if (r.pk, d) not in have
    ]
    ReportDue.objects.bulk_create(new, batch_size=1000)
    return len(new)


def add_requirement(
    actor: Actor,
    establishment: Establishment,
    *,
    kind: str,
    first_due: date,
    every_months: int = 6,
    ends_on: date | None = None,
    at: datetime | None = None,
) -> ReportRequirement:
    """A report the SIU must send (403.12(b), (d), (e), (h)); its due dates are generated."""
    _require(actor, DECIDERS, "Setting required reports", "40 CFR 403.12")
    errors: dict[str, list[str]] = {}
    if kind not in REPORT_CITATIONS:
        errors["kind"] = [
            f"'{kind}' is not a kind of report (known: {', '.join(REPORT_CITATIONS)})"
        ]
    if every_months not in (0, 1, 3, 6, 12):
        errors["every_months"] = ["Every 0 (once), 1, 3, 6 or 12 months."]
    if ends_on is not None and ends_on < first_due:
        errors["ends_on"] = ["The requirement cannot end before its first due date."]
    if errors:
        raise InvalidInput(errors)
    with transaction.atomic():
        req = audit.create_recorded(
            ReportRequirement,
            {
                "establishment": establishment,
                "kind": kind,
                "every_months": every_months,
                "first_due": first_due,
                "ends_on": ends_on,
                "created_by": actor,
                "created_at": at or timezone.now(),
            },
            actor=actor,
            action="require_report",
            citation=REPORT_CITATIONS[kind],
            at=at,
        )
        _write_dues([req], _today(at) + timedelta(days=DUE_HORIZON_DAYS))
    return req


def extend_due_dates(day: date) -> int:
    """Due dates of every requirement up to ``day`` + the horizon (run daily)."""
    reqs = ReportRequirement.objects.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
    return _write_dues(reqs, day + timedelta(days=DUE_HORIZON_DAYS))


def record_received(
    actor: Actor,
    due: ReportDue,
    received_on: date,
    note: str = "",
    at: datetime | None = None,
    checklist: baseline.Filing | None = None,
) -> ReportDue:
    """The day a required report was received (recorded once); a baseline report's with its
    checklist of 40 CFR 403.12(b), and its finding if incomplete (:mod:`.baseline`)."""
    _require(actor, RECEIVERS, "Recording a received report", "40 CFR 403.12")
    if received_on > _today(at):
        raise InvalidInput({"received_on": ["A report cannot be received in the future."]})
    entries = baseline.read(due, checklist)
    with files_of_transaction(), transaction.atomic():
        locked = ReportDue.objects.select_for_update().get(pk=due.pk)
        if locked.received_on is not None:
            raise Blocked(f"This report was already recorded as received on {locked.received_on}.")
        before = audit.snapshot(locked)
        locked.received_on, locked.received_by, locked.received_note = (
            received_on,
            signed_in(actor),
            note,
        )
        locked.save()
        audit.record(
            actor=actor,
            action="report_received",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            citation=locked.citation,
            state_from="due",
            state_to="received",
            at=at,
        )
        if checklist is not None:
            baseline.write_checklist(actor, locked, entries, checklist, received_on, at)
    return locked


def late_dues(day: date, limit_days: int = 0) -> QuerySet[ReportDue]:
    """Reports not received more than ``limit_days`` after their due date, as of ``day``;
    a report signed and waiting for the office's review is submitted, not late."""
    late = ReportDue.objects.filter(
        received_on__isnull=True, due_on__lt=day - timedelta(days=limit_days)
    )
    return late.exclude(pk__in=awaiting_review(late).values("pk")).select_related("establishment")


def flag_late_reports(day: date) -> int:
    """A REPORT_LATE finding for each required report not received by its due date, as of
    ``day`` (once per due date: the finding's source is the due date). Run daily by
    ``sewer-use flag-overdue``; 45 days after the due date the report is also SNC (F)."""
    extend_due_dates(day)
    late = list(late_dues(day))
    if not late:
        return 0
    ct = ContentType.objects.get_for_model(ReportDue)
    done = set(
        Finding.objects.filter(
            kind=FindingKind.REPORT_LATE,
            source_type=ct,
            source_id__in=[str(d.pk) for d in late],
        ).values_list("source_id", flat=True)
    )
    count = 0
    with transaction.atomic():
        for due in late:
            if str(due.pk) in done:
                continue
            record_finding(
                source=due,
                establishment=due.establishment,
                kind=FindingKind.REPORT_LATE,
                status=Status.REVIEW,
                citation=due.citation,
                message=(
                    f"{due.get_kind_display()} ({due.citation}) due {due.due_on:%Y-%m-%d} not "
                    f"received on {day:%Y-%m-%d}; more than 45 days after its due date it is "
                    "significant noncompliance, 40 CFR 403.8(f)(2)(viii)(F)."
                ),
                observed_at=timezone.make_aware(
                    datetime.combine(due.due_on + timedelta(days=1), time())
                ),
            )
            count += 1
    return count
