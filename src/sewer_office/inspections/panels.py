"""The inspections app's panels on the facility page and the dashboard (see sewer_office.core.panels).

The facility panel shows staff the scheduled and recent inspections; outside users see only
completed ones (a scheduled inspection is not announced to the facility). The dashboard
panel shows staff the inspections due in the next 14 days and those overdue.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from . import services
from .choices import InspectionState
from .models import Inspection

RECENT_ROWS = 5
UPCOMING_DAYS = 14
DASHBOARD_ROWS = 10


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    base = services.visible_inspections(
        Inspection.objects.filter(establishment=establishment).select_related("inspector"),
        request.user,
    )
    recent = list(
        base.filter(state=InspectionState.COMPLETED).order_by("-ended_at", "-id")[:RECENT_ROWS]
    )
    scheduled: list[Inspection] = []
    if is_staff_member(request.user):
        scheduled = list(
            base.filter(state=InspectionState.SCHEDULED).order_by("scheduled_for", "id")
        )
    return Panel(
        "Inspections",
        "inspections/panel_facility.html",
        {
            "establishment": establishment,
            "recent": recent,
            "scheduled": scheduled,
            "may_perform": services.may_perform(request.user),
        },
        order=60,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return None
    now = timezone.now()
    scheduled = Inspection.objects.filter(state=InspectionState.SCHEDULED).select_related(
        "establishment", "property", "inspector", "establishment__building__property"
    )
    overdue = list(scheduled.filter(scheduled_for__lt=now).order_by("scheduled_for", "id"))
    upcoming = list(
        scheduled.filter(
            scheduled_for__gte=now, scheduled_for__lte=now + timedelta(days=UPCOMING_DAYS)
        ).order_by("scheduled_for", "id")[:DASHBOARD_ROWS]
    )
    return Panel(
        "Inspections",
        "inspections/panel_dashboard.html",
        {"overdue": overdue[:DASHBOARD_ROWS], "overdue_count": len(overdue), "upcoming": upcoming},
        order=60,
    )
