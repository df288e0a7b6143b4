"""The portal's dashboard panel (see sewer_office.core.panels): for an outside account not
yet linked to a person, what to do next (it sees no records until then); for the clerk and the
Superintendent, the link requests waiting for their identity check."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.roles import APPLICANT, has_role
from sewer_office.core.panels import Panel

from . import services
from .choices import LinkState
from .models import LinkRequest


def dashboard_panel(request: Any) -> Panel | None:
    user = request.user
    if services.may_link(user):
        waiting = LinkRequest.objects.filter(state=LinkState.PENDING).count()
        if not waiting:
            return None
        return Panel(
            "Accounts waiting for an identity check",
            "portal/dashboard_panel.html",
            {"waiting": waiting, "staff": True},
            order=15,
        )
    if has_role(user, APPLICANT) and not services.is_linked(user):
        pending = LinkRequest.objects.filter(user=user, state=LinkState.PENDING).count()
        return Panel(
            "Your account",
            "portal/dashboard_panel.html",
            {"pending": pending, "staff": False},
            order=1,
        )
    return None
