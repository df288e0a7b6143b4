"""Read-side queries of the findings ledger, shared by dashboards, facility pages and the API."""

from __future__ import annotations

import re
from collections.abc import Iterable
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
    the same with 2,000 or 2,000,000 findings stored (a GROUP BY over the statuses and the
    CASE ordering of :func:`by_severity` read every open finding).
    """
    counts, _stopped = _labelled(_capped_counts(qs, list(SEVERITY), cap), SEVERITY, cap)
    return SeverityOrdered(qs, counts)[0:rows], counts


class SeverityOrdered:
    """The rows of ``qs`` in the review queue's order (:func:`by_severity`), as a sequence a
    paginator slices: each slice is read status by status, most severe first, as a LIMIT over
    the open findings' (status, time) index — where ordering every open finding by a severity
    computed from its status read and sorted the whole ledger for a page of fifty.

    ``counts`` are the rows of each status, most severe first (``(status, count, label)``,
    as :func:`capped_status_counts` gives them, capped): the list pages through the first
    ``cap`` rows of each status, the same figures its counts show.
    """

    def __init__(self, qs: QuerySet[Finding], counts: list[tuple[str, int, str]]) -> None:
        self.qs = qs
        self.segments = [(code, n) for code, n, _label in counts if n]

    def __len__(self) -> int:
        return sum(n for _code, n in self.segments)

    def count(self) -> int:
        return len(self)

    def __getitem__(self, window: slice) -> list[Finding]:
        start, stop = window.start or 0, window.stop if window.stop is not None else len(self)
        rows: list[Finding] = []
        first = 0
        for code, n in self.segments:
            a, b = max(start - first, 0), min(stop - first, n)
            if a < b:
                of_status = self.qs.filter(status=code).order_by("observed_at", "id")
                rows.extend(of_status[a:b])
            first += n
            if first >= stop:
                break
        return rows


def _capped_counts(
    qs: QuerySet[Finding], codes: list[Any], cap: int, field: str = "status"
) -> dict[Any, int]:
    """value of ``field`` → the count of ``qs`` with that value, reading at most ``cap`` + 1
    rows of each: every value's LIMIT over the index in one round trip (a UNION ALL of the
    capped counts, each part compiled by the ORM), not one query per value."""
    if not codes:
        return {}
    return counted(qs.db, capped_statement(qs, codes, cap, field), codes)


def capped_statement(
    qs: QuerySet[Finding], codes: list[Any], cap: int, field: str = "status"
) -> tuple[str, tuple[Any, ...]]:
    """The one statement of :func:`_capped_counts`, compiled (a caller whose ``qs`` depends
    only on the user's persons keeps it: ``accounts.access.compiled_for``)."""
    parts: list[str] = []
    params: list[Any] = []
    if qs.query.is_empty():  # nothing the user may see: every count 0, no statement
        return "", ()
    for code in codes:
        inner = qs.filter(**{field: code}).order_by().values("id")[: cap + 1]
        sql, inner_params = _with_literal_last(*inner.query.sql_with_params(), code)
        parts.append(f"SELECT %s, (SELECT COUNT(*) FROM ({sql}) capped)")
        params += [code, *inner_params]
    return " UNION ALL ".join(parts), tuple(params)


def counted(db: str, statement: tuple[str, tuple[Any, ...]], codes: list[Any]) -> dict[Any, int]:
    """code → count, from a statement of :func:`capped_statement` over ``codes``."""
    if not statement[0]:
        return dict.fromkeys(codes, 0)
    with connections[db].cursor() as cursor:
        cursor.execute(*statement)
        found = {str(code): int(n) for code, n in cursor.fetchall()}
    return {code: found.get(str(code), 0) for code in codes}


def _with_literal_last(sql: str, params: tuple[Any, ...], value: Any) -> tuple[str, list[Any]]:
    """``sql`` with its last parameter — the value a capped count is of, which the ORM puts
    last in the WHERE — written in the text as a literal, when it is one of the office's own
    codes or ids.

    PostgreSQL plans a prepared statement for its parameters' values five times, then keeps a
    generic plan: for ``status = $1`` that plan cannot tell a status of ten thousand open
    findings from one of none, and a LIMIT over a sequential scan read the whole ledger for
    the empty ones (120 ms where the plan for the value takes 5 ms). With the value written
    in, every plan knows it. Anything but a plain code or an integer stays a parameter.
    """
    rest = list(params)
    if not rest or rest[-1] != value or sql.count("%s") != len(rest):
        return sql, rest
    if isinstance(value, int) and not isinstance(value, bool):
        literal = str(value)
    elif isinstance(value, str) and _CODE.fullmatch(value):
        literal = f"'{value}'"
    else:
        return sql, rest
    head, _sep, tail = sql.rpartition("%s")
    return f"{head}{literal}{tail}", rest[:-1]


_CODE = re.compile(r"[a-z][a-z0-9_]*")


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
    return _labelled(_capped_counts(qs, list(LEDGER_STATUSES), cap), LEDGER_STATUSES, cap)


def capped_label(count: int, cap: int) -> str:
    """A count as a page shows it: "``cap``+" once it passed ``cap`` (a count read only to
    ``cap`` + 1), else the count itself."""
    return f"{cap:,}+" if count > cap else f"{count:,}"


def _labelled(
    capped: dict[Any, int], codes: Iterable[str], cap: int
) -> tuple[list[tuple[str, int, str]], bool]:
    """``(status, count, label)`` of each of ``codes`` present, in their order, the count at
    most ``cap`` and labelled "``cap``+" past it; and whether any count stopped."""
    counts = [
        (code, min(n, cap), capped_label(n, cap)) for code in codes if (n := capped.get(code, 0))
    ]
    return counts, any(n > cap for _code, n in capped.items())
