"""The pretreatment program's reminders (registered from ``apps.py``; see
:mod:`sewer_office.registry.reminders`): a required report not yet received."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta

from sewer_office.mail.choices import Topic
from sewer_office.registry.notify import Due
from sewer_office.registry.reminders import Source, facility_persons, stage

from .models import ReportDue

#: Days before a compliance report's due date its reminders start (40 CFR 403.12(e), (h)).
REPORT_LEADS = (30, 7)


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
            facility_persons(est),
            f"{label} of {est.name} due on {due.due_on:%Y-%m-%d}",
            f"The {label.lower()} of {est.name} is due on {due.due_on:%Y-%m-%d}, in "
            f"{(due.due_on - on).days} day(s) ({due.requirement.citation}). A report not received "
            "45 days after its due date is significant noncompliance (40 CFR "
            "403.8(f)(2)(viii)(F)).",
        )


SOURCES: Mapping[str, Source] = {Topic.REPORT_DUE: reports_due}
