"""The pretreatment app's panels: on an outside user's home, the required reports it must send
next (40 CFR 403.12), the earliest first."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from .models import ReportDue

HOME_ROWS = 5


def dashboard_panel(request: Any) -> Panel | None:
    user = request.user
    if is_staff_member(user):
        return None
    dues = list(
        visible(
            ReportDue.objects.filter(received_on__isnull=True).select_related("establishment"),
            user,
        ).order_by("due_on", "id")[:HOME_ROWS]
    )
    if not dues:
        return None
    return Panel(
        "Reports to send next",
        "pretreatment/home_panel.html",
        {"dues": dues, "today": timezone.localdate()},
        order=3,
    )
