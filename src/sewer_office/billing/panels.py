"""Billing on the dashboard (see core.panels): the overdue invoices — for staff every one,
longest overdue first; for an outside user its own, when it has any. On a facility's page
(staff): its surcharge decisions and agreements (§ 196-19 E(1)(d), J) and the way to record
one."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from .statements import overdue
from .surcharge_basis import records_of

DASHBOARD_ROWS = 8


def dashboard_panel(request: Any) -> Panel | None:
    staff = is_staff_member(request.user)
    found = overdue(timezone.localdate(), request.user)
    if not found and not staff:
        return None
    return Panel(
        "Overdue invoices",
        "billing/panel_overdue.html",
        {
            "title": "Overdue invoices" if staff else "My overdue invoices",
            "rows": found[:DASHBOARD_ROWS],
            "count": len(found),
            "amount": sum((a.outstanding for a in found), Decimal("0.00")),
            "staff": staff,
        },
        order=75 if staff else 25,
    )


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    """Staff see the facility's surcharge records (what a billing run bills it under)."""
    if not is_staff_member(request.user):
        return None
    return Panel(
        "Surcharge",
        "billing/panel_surcharge.html",
        {"records": records_of(establishment), "establishment": establishment},
        order=80,
    )
