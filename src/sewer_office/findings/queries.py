"""Read-side queries of the findings ledger, shared by dashboards, facility pages and the API."""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import QuerySet

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.core.statuses import SEVERITY

from .choices import ReviewState
from .models import Finding, severity_rank

OPEN_REVIEWS = (ReviewState.NEW, ReviewState.ACKNOWLEDGED)


def open_findings(user: Actor) -> QuerySet[Finding]:
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


def _capped_counts(
    qs: QuerySet[Finding], codes: list[Any], cap: int, field: str = "status"
) -> dict[Any, int]:
    """value of ``field`` → the count of ``qs`` with that value, reading at most ``cap`` + 1
    rows of each: every value's LIMIT over the index in one round trip (a UNION ALL of the
    capped counts, each part compiled by the ORM), not one query per value."""
    if not codes:
        return {}
    parts: list[str] = []
    params: list[Any] = []
    for code in codes:
        inner = qs.filter(**{field: code}).order_by().values("id")[: cap + 1]
        sql, inner_params = inner.query.sql_with_params()
        parts.append(f"SELECT %s, (SELECT COUNT(*) FROM ({sql}) capped)")
        params += [code, *inner_params]
    with connections[qs.db].cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        found = {str(code): int(n) for code, n in cursor.fetchall()}
    return {code: found.get(str(code), 0) for code in codes}


def capped_counts_by_facility(
    qs: QuerySet[Finding], establishment_ids: list[int], cap: int
) -> dict[int, int]:
    """establishment id → the count of ``qs`` at it, stopping at ``cap`` + 1 (the outside
    user's home: a few facilities, each counted over its open findings' index, so that a
    facility with a long history costs what a new one does)."""
    return _capped_counts(qs, list(establishment_ids), cap, field="establishment_id")


#: Every status a finding is written with: the rules' own (most severe first), then the
#: advisory notes stored beside a result (``monitoring.services``).
LEDGER_STATUSES: tuple[str, ...] = (*SEVERITY, "advisory")


def capped_status_counts(
    qs: QuerySet[Finding], cap: int
) -> tuple[list[tuple[str, int, str]], bool]:
    """``(status, count, label)`` of ``qs``, the most severe first (statuses absent left out),
    each count stopping at ``cap`` (labelled "``cap``+"), and whether any count stopped.

    The findings list's counts: a GROUP BY over every open finding reads them all (a tenth of
    a second at two million results, and growing with the ledger); these read at most
    ``cap`` + 1 entries of the open findings' (status, time) index per status, in one round
    trip, whatever the size of the ledger.
    """
    capped = _capped_counts(qs, list(LEDGER_STATUSES), cap)
    counts = [
        (code, min(n, cap), f"{cap:,}+" if n > cap else f"{n:,}")
        for code in LEDGER_STATUSES
        if (n := capped.get(code, 0))
    ]
    return counts, any(capped.get(code, 0) > cap for code in LEDGER_STATUSES)
