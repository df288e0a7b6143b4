"""The meters app's panels: a facility's meters and recent slugs (with whether each was
reported, § 196-19 D(9)(d)) on the facility page; slugs not reported on the staff dashboard."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from .models import Meter, SlugEvent
from .services import unreported
from .views import slug_rows

RECENT = 5


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    meters = visible(
        Meter.objects.filter(sampling_point__establishment=establishment).select_related(
            "sampling_point"
        ),
        request.user,
    )
    if not meters.exists():
        return None
    slugs = visible(
        SlugEvent.objects.filter(
            meter__sampling_point__establishment=establishment, superseded_by__isnull=True
        )
        .select_related("meter")
        .prefetch_related("reports"),
        request.user,
    )[:RECENT]
    return Panel(
        "Meters",
        "meters/facility_panel.html",
        {"meters": list(meters), "slugs": slug_rows(slugs)},
        order=20,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return None
    qs = unreported(SlugEvent.objects.select_related("meter__sampling_point__establishment"))
    return Panel(
        "Slugs not reported",
        "meters/dashboard_panel.html",
        {"slugs": list(qs[:10]), "total": qs.count()},
        order=20,
    )
