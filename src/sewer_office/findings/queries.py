"""Read-side queries of the findings ledger, shared by dashboards, facility pages and the API."""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import Count, QuerySet

from sewer_office.accounts.access import visible
from sewer_office.core.statuses import SEVERITY

from .choices import ReviewState
from .models import Finding, severity_rank

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
    return qs.annotate(severity=severity_rank()).order_by("severity", "observed_at", "id")


def severity_queue(
    qs: QuerySet[Finding], rows: int, cap: int
) -> tuple[list[Finding], list[tuple[str, int, str]]]:
    """The first ``rows`` of :func:`by_severity` and the count of each status, capped at
    ``cap`` (shown "``cap``+"), at a cost that does not grow with the ledger.

    One status at a time, most severe first: each count stops at ``cap`` + 1 rows and each
    page of rows is a LIMIT over the open findings' (status, time) index, so a dashboard costs
    the same with 2,000 or 2,000,000 findings stored (the plain GROUP BY and CASE ordering of
    :func:`status_counts` and :func:`by_severity` read every open finding).
    """
    capped = _capped_counts(qs, list(SEVERITY), cap)
    found: list[Finding] = []
    counts: list[tuple[str, int, str]] = []
    for code in SEVERITY:
        n = capped.get(code, 0)
        if not n:
            continue
        counts.append((code, min(n, cap), f"{cap:,}+" if n > cap else f"{n:,}"))
        if len(found) < rows:
            of_status = qs.filter(status=code).order_by("observed_at", "id")
            found.extend(of_status[: rows - len(found)])
    return found, counts


def _capped_counts(qs: QuerySet[Finding], codes: list[str], cap: int) -> dict[str, int]:
    """status → the count of ``qs`` in that status, reading at most ``cap`` + 1 rows of each:
    every status's LIMIT over the index in one round trip (a UNION ALL of the capped counts,
    each part compiled by the ORM), not one query per status."""
    parts: list[str] = []
    params: list[Any] = []
    for code in codes:
        inner = qs.filter(status=code).order_by().values("id")[: cap + 1]
        sql, inner_params = inner.query.sql_with_params()
        parts.append(f"SELECT %s, (SELECT COUNT(*) FROM ({sql}) capped)")
        params += [code, *inner_params]
    with connections[qs.db].cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        return {code: int(n) for code, n in cursor.fetchall()}


def status_counts(qs: QuerySet[Finding]) -> list[tuple[str, int]]:
    """``(status, count)`` of ``qs``, the most severe first (statuses absent are left out)."""
    rows = qs.order_by().values_list("status").annotate(n=Count("id"))
    counts: dict[str, int] = dict(rows)
    known = [(s, counts.pop(s)) for s in SEVERITY if s in counts]
    return known + sorted(counts.items())
