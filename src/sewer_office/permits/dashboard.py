"""The permits' part of the dashboard: "what needs me today", from the workflows' declarations.

For staff, every record in a state from which one of their roles can move it (their work
queue), oldest first; for an outside user, their open applications and those waiting on them.
Queries: for staff, one UNION ALL of every kind's counts by state (the summary, and each work
queue's count: staff see every record) and the first rows of each queue that is not empty; for
an outside user, one UNION ALL of the counts of what they may see in each kind's open states,
and the first rows of each kind they have. None grows with the number of records.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import CharField, Count, Value

from sewer_office.accounts.access import compiled_for, visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import APPLICANT, is_staff_member, roles_of

from .kinds import KINDS

QUEUE_ROWS = 8


def build(user: Actor) -> dict[str, Any]:
    roles = roles_of(user)
    queues: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    acting = roles - {APPLICANT}
    staff = is_staff_member(user)
    # staff see every record of their towns: the summary's counts by state are their queues'
    # counts too
    counts = _state_counts(user) if acting or staff else {}
    wanted: dict[str, list[str]] = {}
    for slug, kind in KINDS.items():
        wf = kind.model.WORKFLOW
        wanted[slug] = list(wf.open_states) if not acting else sorted(wf.states_for_roles(roles))
    # staff see every record; anyone else, what they may see: every kind's count in one statement
    queue_counts = counts if staff else _visible_counts(user, wanted)
    for slug, kind in KINDS.items():
        count = sum(queue_counts.get(slug, {}).get(s, 0) for s in wanted[slug])
        if count:  # only a queue that is not empty reads its rows
            title = f"My {kind.plural.lower()}" if not acting else kind.plural
            rows = _queue_rows(kind, wanted[slug], user, roles, acting)
            queues.append({"kind": kind, "title": title, "count": count, "rows": rows})
    if acting:
        for slug, kind in KINDS.items():
            of_kind = counts.get(slug, {})
            summary.append(
                {
                    "kind": kind,
                    "states": [
                        (s.value, s.label, of_kind.get(s.value, 0))
                        for s in kind.model.WORKFLOW.states
                    ],
                }
            )
    return {"queues": queues, "summary": summary}


def _queue_rows(
    kind: Any, states: list[str], user: Actor, roles: frozenset[str], acting: frozenset[str]
) -> list[Any]:
    """The first rows of a queue, oldest first, each marked with whether it waits on this user
    and, on an outside user's home, what each waits for."""
    wf = kind.model.WORKFLOW
    qs = visible(kind.list_queryset().filter(state__in=states), user).order_by("filed_on", "id")
    mine = wf.states_for_applicant() if APPLICANT in roles else set()
    rows = list(qs[:QUEUE_ROWS])
    for r in rows:
        r.waiting_on_me = r.state in mine or r.state in wf.states_for_roles(acting)
        if not acting:  # the outside user's home: what each application waits for
            r.waits_for = [
                (t.label, "you" if t.applicant and not t.roles else t.who())
                for t in wf.transitions
                if r.state in t.sources and t.queue
            ]
    return rows


def _visible_counts(user: Actor, wanted: dict[str, list[str]]) -> dict[str, dict[str, int]]:
    """kind → state → count of the records ``user`` may see in the ``wanted`` states of each
    kind, in one query (a UNION ALL of each kind's GROUP BY over what :func:`visible` leaves),
    its text compiled once per process for the same persons and roles (:func:`compiled_for`)."""

    def build() -> tuple[str, tuple[Any, ...]] | None:
        parts = [
            visible(KINDS[slug].list_queryset().filter(state__in=states), user)
            .order_by()
            .values_list("state")
            .annotate(n=Count("id"), kind=Value(slug, output_field=CharField()))
            .values_list("kind", "state", "n")
            for slug, states in wanted.items()
            if states
        ]
        parts = [p for p in parts if not p.query.is_empty()]  # nothing they may see: no part
        if not parts:
            return None
        union = parts[0].union(*parts[1:], all=True)
        sql, params = union.query.sql_with_params()
        return sql, tuple(params)

    key = ("permit counts", tuple((slug, tuple(states)) for slug, states in wanted.items()))
    statement = compiled_for(user, key, build)
    if statement is None:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        return _gathered(cursor.fetchall())


def _gathered(rows: Iterable[tuple[str, str, int]]) -> dict[str, dict[str, int]]:
    """kind → state → count, from rows of (kind, state, count)."""
    counts: dict[str, dict[str, int]] = {}
    for slug, state, n in rows:
        counts.setdefault(slug, {})[state] = n
    return counts


def _state_counts(user: Actor) -> dict[str, dict[str, int]]:
    """kind → state → count of the records a staff member sees (every record of their towns),
    every kind in one query (a UNION ALL of each kind's GROUP BY) rather than one round trip
    per kind. ``COUNT(*)``, not of a column: a town's counts are then read from its
    (town, state) index alone, without visiting the rows (docs/scale.md)."""
    parts = [
        visible(kind.model.objects.all(), user)
        .order_by()
        .values_list("state")
        .annotate(n=Count("*"), kind=Value(slug, output_field=CharField()))
        .values_list("kind", "state", "n")
        for slug, kind in KINDS.items()
    ]
    return _gathered(parts[0].union(*parts[1:], all=True)) if parts else {}
