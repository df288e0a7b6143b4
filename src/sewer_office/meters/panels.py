"""The meters app's panels: a facility's meters and recent slugs (with whether each was
reported, § 196-19 D(9)(d)) on the facility page; slugs not reported on the staff dashboard."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import Panel

from .models import Meter, SlugEvent
from .services import unreported
from .views import slug_rows

RECENT = 5
#: The outside user's home: slugs of the last ``HOME_DAYS`` days, at most ``HOME_ROWS``.
HOME_DAYS = 45
HOME_ROWS = 10


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


def home_panel(user: Actor) -> Panel | None:
    """An outside user's slugs of the last weeks, unreported first, each with its report
    deadline (§ 196-19 D(9)(d)): one query for the slugs, one for their reports."""
    since = timezone.now() - timedelta(days=HOME_DAYS)
    slugs = visible(
        SlugEvent.objects.filter(superseded_by__isnull=True, start__gte=since)
        .select_related("meter__sampling_point__establishment")
        .prefetch_related("reports"),
        user,
    ).order_by("-start", "-id")[:HOME_ROWS]
    rows = slug_rows(slugs)
    if not rows:
        return None
    now = timezone.now()
    for r in rows:
        r["due_soon"] = r["report"] is None and now <= r["due"] <= now + timedelta(hours=24)
    rows.sort(key=lambda r: (r["report"] is not None, r["due"]))
    return Panel(
        "My slugs",
        "meters/home_panel.html",
        {"slugs": rows, "unreported": sum(1 for r in rows if r["report"] is None)},
        order=2,
    )


def dashboard_panel(request: Any) -> Panel | None:
    if not is_staff_member(request.user):
        return home_panel(request.user)
    qs = unreported(SlugEvent.objects.select_related("meter__sampling_point__establishment"))
    return Panel(
        "Slugs not reported",
        "meters/dashboard_panel.html",
        {"slugs": list(qs[:10]), "total": qs.count()},
        order=20,
    )
