"""The enforcement app's panels on the facility page and the dashboard (see core.panels).

The facility panel lists the facility's open violations (outside users: those they may see,
once noticed); the dashboard panel shows staff the open violations by stage.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from . import schedules, services
from .models import ComplianceSchedule, Violation
from .workflow import OPEN_STATES, WORKFLOW


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    open_ = services.visible_violations(
        Violation.objects.filter(establishment=establishment, state__in=OPEN_STATES),
        request.user,
    ).order_by("-observed_on", "-id")
    return Panel(
        "Violations",
        "enforcement/panel_facility.html",
        {
            "establishment": establishment,
            "open": list(open_),
            "schedules": list(
                schedules.visible_schedules(
                    ComplianceSchedule.objects.filter(establishment=establishment),
                    request.user,
                ).prefetch_related("milestones")
            ),
        },
        order=70,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return None
    counts = dict(
        Violation.objects.filter(state__in=OPEN_STATES)
        .order_by()
        .values("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    stages = [(s, WORKFLOW.label(s), counts.get(s, 0)) for s in OPEN_STATES]
    return Panel(
        "Enforcement",
        "enforcement/panel_dashboard.html",
        {"stages": stages, "total": sum(counts.values())},
        order=70,
    )
