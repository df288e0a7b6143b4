"""Read-side queries of the findings ledger, shared by dashboards, facility pages and the API."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, Count, IntegerField, QuerySet, Value, When

from sewer_office.accounts.access import visible
from sewer_office.core.statuses import SEVERITY

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


def by_severity(qs: QuerySet[Finding]) -> QuerySet[Finding]:
    """The review queue's order: the most severe status first (violations before
    surcharge-level findings), then the oldest, so that what waited longest comes first."""
    rank = Case(
        *[When(status=code, then=Value(r)) for code, r in SEVERITY.items()],
        default=Value(len(SEVERITY)),
        output_field=IntegerField(),
    )
    return qs.annotate(severity=rank).order_by("severity", "observed_at", "id")


def status_counts(qs: QuerySet[Finding]) -> list[tuple[str, int]]:
    """``(status, count)`` of ``qs``, the most severe first (statuses absent are left out)."""
    rows = qs.order_by().values_list("status").annotate(n=Count("id"))
    counts: dict[str, int] = dict(rows)
    known = [(s, counts.pop(s)) for s in SEVERITY if s in counts]
    return known + sorted(counts.items())
