"""The grease app's panels on the facility page and the dashboard (see sewer_office.core.panels).

The facility panel lists the establishment's interceptors with their cleaning clocks and warns
when a food establishment has none on file (§ 196-19 F(2)); the dashboard panel (staff only)
lists pump-outs overdue and those coming due within the next days.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from . import services
from .choices import InterceptorKind
from .models import GreaseInterceptor


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    today = timezone.localdate()
    traps = services.with_last_pump_out(
        visible(
            GreaseInterceptor.objects.filter(establishment=establishment).select_related(
                "establishment"  # its town's clock
            ),
            request.user,
        ),
        today,
    ).order_by("-active", "id")
    rows = [services.Clocked(t, services.status_of(t, today)) for t in traps]
    has_grease = any(r.trap.active and r.trap.kind in InterceptorKind.grease() for r in rows)
    missing = establishment.is_food and not has_grease
    if not rows and not missing:
        return None
    return Panel(
        "Grease traps and interceptors",
        "grease/facility_panel.html",
        {
            "establishment": establishment,
            "rows": rows,
            "missing": missing,
            "may_register": services.may_register(request.user),
        },
        order=40,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return None
    today = timezone.localdate()
    traps = GreaseInterceptor.objects.all()
    if not traps.filter(active=True).exists():
        return None
    overdue = services.overdue(traps, today)
    due = services.due_soon(traps, today)
    # each town's own interval: the panel says which of the user's towns configure none
    sentence = services.towns_sentence(services.town_clocks(request.user, today))
    if not overdue and not due and not sentence:
        return None
    return Panel(
        "Grease pump-outs",
        "grease/dashboard_panel.html",
        {
            "overdue": overdue,
            "due": due,
            "days": services.DUE_SOON_DAYS,
            "interval_sentence": sentence,
        },
        order=40,
    )
