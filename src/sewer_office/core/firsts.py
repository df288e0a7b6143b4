"""The first rows of several lists in one round trip (a panel's "latest five" per facility).

A panel that shows, for each of a user's facilities, its first few rows in some order would
run one query per facility. :func:`first_ids` runs them as one statement instead —
``SELECT * FROM (part 1) p0 UNION ALL SELECT * FROM (part 2) p1 ...`` — each part the ORM's own
SQL of an ordered, sliced queryset of ids, so that each part still reads only its first rows
from its index (the cost does not grow with the history, as a window function over every row
would); the caller then reads the rows themselves with one ``pk__in`` query, in their order.
Each part is wrapped in a subquery, which SQLite needs for an ORDER BY and a LIMIT inside a
UNION.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import QuerySet


def first_ids(parts: Sequence[QuerySet[Any]]) -> list[Any]:
    """The primary keys of every part (each an ordered, sliced queryset of one database)."""
    if not parts:
        return []
    return ids_of(parts[0].db, statement_of(parts))


def statement_of(parts: Sequence[QuerySet[Any]]) -> tuple[str, tuple[Any, ...]]:
    """The one statement of :func:`first_ids`, compiled: a caller whose parts depend only on
    the user's persons and a few ids keeps it (``accounts.access.compiled_for``) and runs it
    again with :func:`ids_of`, without building the querysets again."""
    pieces: list[str] = []
    params: list[Any] = []
    for i, part in enumerate(p for p in parts if not p.query.is_empty()):
        sql, part_params = part.values_list("pk", flat=True).query.sql_with_params()
        pieces.append(f"SELECT * FROM ({sql}) p{i}")
        params += part_params
    return " UNION ALL ".join(pieces), tuple(params)


def ids_of(db: str, statement: tuple[str, tuple[Any, ...]]) -> list[Any]:
    """The ids a statement of :func:`statement_of` gives (none for an empty statement)."""
    sql, params = statement
    if not sql:
        return []
    with connections[db].cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]
