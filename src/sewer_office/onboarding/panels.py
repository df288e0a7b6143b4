"""What the onboarding app contributes to the pages of the apps below it (see core.panels):
on the imports page, its import of users and facilities, the last one made and the rows
waiting in the review queue."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.roles import has_role
from sewer_office.core.panels import Panel

from .choices import ReviewState
from .models import ColumnMapping, FacilityImport, ReviewItem
from .services import IMPORT_ROLES


def imports_panel(request: Any) -> Panel | None:
    if not has_role(request.user, *IMPORT_ROLES):
        return None
    return Panel(
        title="Users and facilities",
        template="onboarding/_imports_panel.html",
        context={
            "last": FacilityImport.objects.order_by("-imported_at", "-id").first(),
            "open_items": ReviewItem.objects.filter(state=ReviewState.OPEN).count(),
            "mappings": ColumnMapping.objects.count(),
        },
        order=20,
    )
