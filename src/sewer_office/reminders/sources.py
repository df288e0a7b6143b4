"""What the office owes people a message about on a day: one function per topic.

Each source returns :class:`Due` items: the topic, a **key** that names the event and the
stage of the reminder (``report_due:12:2027-01-28:30``), what it is about, the persons it
goes to (their representatives get it, § 196-15 PERSON), and its text. The key is what makes
a reminder go out once: :func:`sewer_office.mail.services.send_message` sends nothing for a
key already sent, so any number of runs — twice a day, or after days without one — sends
each reminder once.

Reminders ahead of a date (a report due in 30 and 7 days, sampling due, a pump-out due, a
deadline in 3 days) are due from their first day until the date itself: a run missed on the
first day still sends them the next day; once the date has passed, they are no longer sent
(what is late is the office's business, through its findings). Of the stages of one date,
only the latest reached is sent (a report whose 30-day reminder was missed until 7 days
before gets the 7-day one, not both). Events (a notice served, a correction verified, an
invoice issued, an application's state changed) are told at once by the service where they
happen (:mod:`sewer_office.registry.notify`, after the commit); the daily run sends, under the
same keys, what that could not (the SMTP server was down, a billing run's invoices, a record
back-dated), within :data:`EVENT_DAYS` of the event (older events are not announced when the
office starts sending mail). The messages of events are composed by the apps that own them
(``enforcement.notify``, ``billing.notify``, ``permits.notify``), so both ways send the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Max
from django.utils import timezone

from sewer_office.billing.choices import InvoiceKind, InvoiceState
from sewer_office.billing.models import Invoice
from sewer_office.billing.notify import invoice_issued
from sewer_office.billing.payments import outstanding_of
from sewer_office.core.models import AuditEvent
from sewer_office.enforcement.models import Notice, Violation
from sewer_office.enforcement.notify import correction_verified, notice_served
from sewer_office.grease.models import GreaseInterceptor
from sewer_office.grease.services import clocks
from sewer_office.mail.choices import Topic
from sewer_office.monitoring.models import SamplingPoint
from sewer_office.permits.kinds import KINDS
from sewer_office.permits.notify import application_changed
from sewer_office.pretreatment.models import ReportDue
from sewer_office.registry.models import Establishment
from sewer_office.registry.notify import Due, recipients

__all__ = ["SOURCES", "Due", "recipients", "stage"]

#: Days before a compliance report's due date its reminders start (40 CFR 403.12(e), (h)).
REPORT_LEADS = (30, 7)
#: Days before the next sampling of a programme its reminder starts.
SAMPLING_LEAD = 7
#: Days before a pump-out is due its reminder starts (§ 196-19 F(3): kept in good order).
PUMPOUT_LEAD = 14
#: Days before a notice's correction deadline its reminder starts (§ 196-22 A).
DEADLINE_LEAD = 3
#: How far back an event is still announced by the next run.
EVENT_DAYS = 7


def stage(day: date, on: date, leads: Iterable[int]) -> int | None:
    """The latest reminder stage reached on ``on`` for a date ``day`` (the smallest lead
    whose first day has come), or None before the first stage and after the date."""
    if on > day:
        return None
    reached = [lead for lead in leads if on >= day - timedelta(days=lead)]
    return min(reached) if reached else None


def _facility_persons(est: Establishment) -> tuple[int, ...]:
    owner = est.building.property.owner_id
    return tuple(sorted({est.operator_id, owner} - {None}))


def sampling_due(on: date) -> Iterator[Due]:
    """A sampling programme's next sampling (§ 196-19 D(7)): from 7 days before."""
    points = (
        SamplingPoint.objects.filter(active=True, sampling_interval_days__isnull=False)
        .select_related("establishment__building__property")
        .annotate(last_sampled=Max("events__collected_at"))
    )
    for sp in points:
        if sp.last_sampled is None:
            continue  # a programme not yet begun: the office schedules the first sampling
        due = timezone.localtime(sp.last_sampled).date() + timedelta(
            days=sp.sampling_interval_days or 0
        )
        if stage(due, on, (SAMPLING_LEAD,)) is None:
            continue
        est = sp.establishment
        yield Due(
            Topic.SAMPLING_DUE,
            f"sampling_due:{sp.pk}:{due.isoformat()}",
            sp,
            _facility_persons(est),
            f"Sampling due by {due:%Y-%m-%d} at {est.name} ({sp.code})",
            f"The sampling programme of {est.name}, sampling point {sp.code}, calls for a "
            f"sample every {sp.sampling_interval_days} days; the last was taken on "
            f"{timezone.localtime(sp.last_sampled):%Y-%m-%d}, so the next is due by "
            f"{due:%Y-%m-%d} (§ 196-19 D(7)).",
        )


def reports_due(on: date) -> Iterator[Due]:
    """A required report not yet received: 30 and 7 days before its due date."""
    dues = ReportDue.objects.filter(
        received_on__isnull=True, due_on__gte=on, due_on__lte=on + timedelta(days=max(REPORT_LEADS))
    ).select_related("establishment__building__property", "requirement")
    for due in dues:
        lead = stage(due.due_on, on, REPORT_LEADS)
        if lead is None:
            continue
        est = due.establishment
        label = due.get_kind_display()
        yield Due(
            Topic.REPORT_DUE,
            f"report_due:{due.pk}:{due.due_on.isoformat()}:{lead}",
            due,
            _facility_persons(est),
            f"{label} of {est.name} due on {due.due_on:%Y-%m-%d}",
            f"The {label.lower()} of {est.name} is due on {due.due_on:%Y-%m-%d}, in "
            f"{(due.due_on - on).days} day(s) ({due.requirement.citation}). A report not received "
            "45 days after its due date is significant noncompliance (40 CFR "
            "403.8(f)(2)(viii)(F)).",
        )


def _served_notices() -> models.QuerySet[Notice]:
    return Notice.objects.filter(served_on__isnull=False).select_related("violation")


def notices_served(on: date) -> Iterator[Due]:
    """A notice of violation or an order served (§ 196-22 A): a legal notice, always sent."""
    for n in _served_notices().filter(served_on__gte=on - timedelta(days=EVENT_DAYS)):
        yield notice_served(n)


#: Violation states in which a notice's correction deadline still runs.
OPEN_CORRECTION = ("served", "notice_issued")


def deadlines(on: date) -> Iterator[Due]:
    """A served notice's correction deadline in 3 days, the correction not yet reported."""
    notices = _served_notices().filter(
        deadline__gte=on,
        deadline__lte=on + timedelta(days=DEADLINE_LEAD),
        violation__state__in=OPEN_CORRECTION,
        superseded_by__isnull=True,
    )
    for n in notices:
        if n.deadline is None or stage(n.deadline, on, (DEADLINE_LEAD,)) is None:
            continue
        yield Due(
            Topic.DEADLINE,
            f"deadline:{n.pk}:{n.deadline.isoformat()}",
            n,
            (n.violation.person_id,),
            f"{n.number}: correction due by {n.deadline:%Y-%m-%d}",
            f"The correction required by {n.number} ({n.section}) is due by "
            f"{n.deadline:%Y-%m-%d}. After that day the fines of § 196-22 B may accrue for "
            "each day the violation continues.",
            legal=True,
        )


def _events(model: type[models.Model], on: date, **filters: Any) -> models.QuerySet[AuditEvent]:
    since = timezone.make_aware(datetime.combine(on - timedelta(days=EVENT_DAYS), time.min))
    return AuditEvent.objects.filter(
        content_type=ContentType.objects.get_for_model(model), at__gte=since, **filters
    ).order_by("id")


def corrections_verified(on: date) -> Iterator[Due]:
    """A reported correction verified by the Superintendent (the violation corrected)."""
    events = list(_events(Violation, on, action="verify"))
    found = Violation.objects.in_bulk([int(e.object_id) for e in events])
    for e in events:
        v = found.get(int(e.object_id))
        if v is not None:
            yield correction_verified(v, e)


def invoices_issued(on: date) -> Iterator[Due]:
    """An invoice (or credit note) issued by the clerk."""
    since = on - timedelta(days=EVENT_DAYS)
    for inv in Invoice.objects.filter(issued_on__gte=since, issued_on__lte=on):
        yield invoice_issued(inv)


def invoices_overdue(on: date) -> Iterator[Due]:
    """An issued invoice still owed after its due date (one message per invoice)."""
    rows = list(
        Invoice.objects.filter(
            state=InvoiceState.ISSUED, kind=InvoiceKind.INVOICE, due_on__lt=on
        ).order_by("id")
    )
    owed = outstanding_of(rows)
    for inv in rows:
        if owed.get(inv.pk, 0) <= 0 or inv.due_on is None:
            continue
        yield Due(
            Topic.INVOICE_OVERDUE,
            f"invoice_overdue:{inv.pk}",
            inv,
            (inv.person_id,),
            f"Invoice {inv.number} is overdue: USD {owed[inv.pk]} owed",
            f"Invoice {inv.number}, due on {inv.due_on:%Y-%m-%d}, still has USD {owed[inv.pk]} "
            "owed. Please pay the Town Clerk.",
        )


def pumpouts_due(on: date) -> Iterator[Due]:
    """A grease interceptor's next pump-out, from 14 days before it is due."""
    for c in clocks(GreaseInterceptor.objects.all(), on):
        due = c.status.next_due
        if due is None or c.status.status != "due" or stage(due, on, (PUMPOUT_LEAD,)) is None:
            continue
        est = c.trap.establishment
        yield Due(
            Topic.PUMPOUT_DUE,
            f"pumpout_due:{c.trap.pk}:{due.isoformat()}",
            c.trap,
            _facility_persons(est),
            f"Pump-out due by {due:%Y-%m-%d}: {c.trap}",
            f"The {c.trap} at {est.name} is due to be pumped out by {due:%Y-%m-%d}. Record the "
            "hauler's manifest with the Town once it is done.",
        )


def applications_changed(on: date) -> Iterator[Due]:
    """An application's state changed (any permit or approval kind)."""
    for kind in KINDS.values():
        events = list(_events(kind.model, on).exclude(state_to="").exclude(action="file"))
        found = kind.model.objects.in_bulk([int(e.object_id) for e in events])
        for e in events:
            app = found.get(int(e.object_id))
            due = None if app is None else application_changed(app, e, kind.label)
            if due is not None:
                yield due


#: Every source, in the order a run reports them.
SOURCES: dict[str, Callable[[date], Iterator[Due]]] = {
    Topic.SAMPLING_DUE: sampling_due,
    Topic.REPORT_DUE: reports_due,
    Topic.NOTICE_SERVED: notices_served,
    Topic.DEADLINE: deadlines,
    Topic.CORRECTION_VERIFIED: corrections_verified,
    Topic.INVOICE_ISSUED: invoices_issued,
    Topic.INVOICE_OVERDUE: invoices_overdue,
    Topic.PUMPOUT_DUE: pumpouts_due,
    Topic.APPLICATION: applications_changed,
}
