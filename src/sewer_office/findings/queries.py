"""Read-side queries of the findings ledger, shared by dashboards, facility pages and the API."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from sewer_office.accounts.access import visible

from .choices import ReviewState
from .models import Finding

OPEN_REVIEWS = (ReviewState.NEW, ReviewState.ACKNOWLEDGED)


def open_findings(user: Any) -> QuerySet[Finding]:
    """Current findings that need someone's attention, newest first."""
    return visible(
        Finding.objects.filter(current=True, review__in=OPEN_REVIEWS).select_related(
            "establishment", "result"
        ),
        user,
    ).order_by("-observed_at", "-id")
