"""The permits' part of the dashboard: "what needs me today", from the workflows' declarations.

For staff, every record in a state from which one of their roles can move it (their work
queue), oldest first; for an outside user, their open applications and those waiting on them.
Queries: for staff, one UNION ALL of every kind's counts by state (the summary, and each work
queue's count: staff see every record) and the first rows of each queue that is not empty; for
an outside user, a count and the first rows per kind. None grows with the number of records.
"""

from __future__ import annotations

from typing import Any

from django.db.models import CharField, Count, Value

from sewer_office.accounts.access import visible
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
    # staff see every record: the summary's counts by state are their queues' counts too
    counts = _state_counts() if acting or staff else {}
    for slug, kind in KINDS.items():
        wf = kind.model.WORKFLOW
        if not acting:
            states = wf.open_states
            title = f"My {kind.plural.lower()}"
        else:
            states = sorted(wf.states_for_roles(roles))
            title = kind.plural
        if states:
            qs = visible(kind.list_queryset().filter(state__in=states), user).order_by(
                "filed_on", "id"
            )
            of_kind = counts.get(slug, {})
            count = sum(of_kind.get(s, 0) for s in states) if staff else qs.count()
            if count:
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


def _state_counts() -> dict[str, dict[str, int]]:
    """kind → state → count of records, every kind in one query (a UNION ALL of each kind's
    GROUP BY) rather than one round trip per kind."""
    parts = [
        kind.model.objects.order_by()
        .values_list("state")
        .annotate(n=Count("id"), kind=Value(slug, output_field=CharField()))
        .values_list("kind", "state", "n")
        for slug, kind in KINDS.items()
    ]
    counts: dict[str, dict[str, int]] = {}
    for slug, state, n in parts[0].union(*parts[1:], all=True):
        counts.setdefault(slug, {})[state] = n
    return counts
