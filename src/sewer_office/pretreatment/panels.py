"""The pretreatment app's panels: on an outside user's home, the required reports it must send
next (40 CFR 403.12), the earliest first, each with where it stands (a signed report is
"submitted, in review" until the office decides: :mod:`.status`); on a facility's page, its
hazardous-waste notifications (40 CFR 403.12(p)) — for an industrial user, or any facility that
sent one."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role, is_staff_member
from sewer_office.core.panels import Panel
from sewer_office.registry.choices import EstablishmentKind

from . import hazardous
from .models import ReportDue
from .status import attach_status, with_status

HOME_ROWS = 5


def dashboard_panel(request: Any) -> Panel | None:
    user = request.user
    if is_staff_member(user):
        return None
    today = timezone.localdate()
    dues = attach_status(
        with_status(
            visible(
                ReportDue.objects.filter(received_on__isnull=True).select_related("establishment"),
                user,
            ).order_by("due_on", "id")
        )[:HOME_ROWS],
        today,
    )
    if not dues:
        return None
    return Panel(
        "Reports to send next",
        "pretreatment/home_panel.html",
        {"dues": dues, "today": today},
        order=3,
    )


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    notices = list(
        visible(hazardous.notifications_of(establishment), request.user).select_related(
            "establishment"
        )
    )
    if not notices and establishment.kind != EstablishmentKind.INDUSTRIAL:
        return None
    return Panel(
        "Hazardous-waste notifications",
        "pretreatment/hazardous_panel.html",
        {
            "establishment": establishment,
            "notices": notices,
            "may_record": hazardous.may_record(request.user, establishment),
            "paper": has_role(request.user, *hazardous.RECORDERS),
        },
        order=60,
    )
