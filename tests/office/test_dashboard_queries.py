"""The dashboard's reads, made fewer for the load target, say what they said before.

- An outside user's records are found through each first hop's ``IN`` subquery
  (``accounts.access._reaching``): the same records as the join of every path, for every model
  that declares ``ACCESS_PATHS`` and every outside user of the demo town.
- A staff member's permit queues count from the one summary query, not a COUNT per kind; an
  outside user's from one UNION ALL of what they may see, equal to a COUNT per kind.
- An outside user's menu asks which of its records exist in one statement, and shows what a
  query per model would show.
- The findings queue's capped counts come in one query and cap as before.
- The outside user's home reads its facilities' counts and citations once for all of them, and
  their latest results and worst findings in two queries each (``core.firsts.first_ids``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from sewer_office.accounts.access import compiled_for, person_ids, visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.context import MENU, menu_of
from sewer_office.core.firsts import first_ids
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import open_findings, severity_queue
from sewer_office.permits import dashboard
from sewer_office.permits.kinds import KINDS
from sewer_office.registry.choices import EstablishmentKind
from sewer_office.registry.models import Establishment

from .enforcement_factories import finding
from .factories import Town, new_record


def _joined(model: Any, user: Any) -> set[int]:
    """The records a join of every access path reaches (the earlier reading of ``visible``)."""
    ids = person_ids(user)
    cond = Q()
    for path in model.ACCESS_PATHS:
        cond |= Q(**{f"{path}__in": ids})
    qs = model._base_manager.filter(cond)
    outside_only = getattr(model, "OUTSIDE_FILTER", None)
    if outside_only is not None:
        qs = qs.filter(outside_only)
    return set(qs.values_list("pk", flat=True))


def test_the_first_hop_subqueries_reach_what_the_joins_reach(demo_town: Any) -> None:
    demo_town(seed=4, anchor=date(2026, 12, 1))
    outside = [
        u for u in get_user_model().objects.all() if person_ids(u) and not is_staff_member(u)
    ]
    assert len(outside) >= 2
    models = [
        m
        for m in apps.get_models()
        if getattr(m, "ACCESS_PATHS", ()) and not getattr(m, "PUBLIC_TO_OFFICE_USERS", False)
    ]
    assert len(models) >= 20
    reached = 0
    for user in outside:
        for model in models:
            expected = _joined(model, user)
            assert set(visible(model._base_manager.all(), user).values_list("pk", flat=True)) == (
                expected
            ), f"{model.__name__} for {user.username}"
            reached += len(expected)
    assert reached > 50  # the demo's outside users do own records of many kinds


def test_staff_queues_count_from_the_summary_query(town: Town) -> None:
    new_record("building-sewer", town)
    new_record("building-sewer", town, mine=False)
    clerk = town.u("clerk")
    with CaptureQueriesContext(connection) as ctx:
        built = dashboard.build(clerk)
    counts = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT COUNT(*)")]
    assert counts == []
    assert built["queues"]
    for queue in built["queues"]:
        wf = queue["kind"].model.WORKFLOW
        states = wf.states_for_roles({"clerk"})
        assert (
            queue["count"]
            == KINDS[queue["kind"].slug].model.objects.filter(state__in=states).count()
        )


def test_outside_queues_count_in_one_query_what_each_kind_counts(demo_town: Any) -> None:
    demo_town(seed=4, anchor=date(2026, 12, 1))
    outside = [
        u for u in get_user_model().objects.all() if person_ids(u) and not is_staff_member(u)
    ]
    seen = 0
    for user in outside:
        with CaptureQueriesContext(connection) as ctx:
            built = dashboard.build(user)
        counts = [q["sql"] for q in ctx.captured_queries if "COUNT(" in q["sql"]]
        assert len(counts) <= 1, user.username
        for slug, kind in KINDS.items():
            states = kind.model.WORKFLOW.open_states
            each = visible(kind.list_queryset().filter(state__in=states), user).count()
            shown = [q["count"] for q in built["queues"] if q["kind"].slug == slug]
            assert shown == ([each] if each else []), f"{slug} for {user.username}"
            seen += each
    assert seen > 0  # the demo's outside users have open applications


def test_outside_menu_asks_once_and_shows_what_each_model_would(demo_town: Any) -> None:
    demo_town(seed=4, anchor=date(2026, 12, 1))
    outside = [
        u for u in get_user_model().objects.all() if person_ids(u) and not is_staff_member(u)
    ]
    shown_any = set()
    for user in outside:
        with CaptureQueriesContext(connection) as ctx:
            labels = [label for label, _url in menu_of(user)]
        exists = [q for q in ctx.captured_queries if "EXISTS" in q["sql"].upper()]
        assert len(exists) <= 1, user.username
        for item in MENU:
            if not isinstance(item.outside, str):
                continue
            model = apps.get_model(item.outside)
            theirs = visible(model._default_manager.all(), user).exists()
            assert (item.label in labels) == theirs, f"{item.label} for {user.username}"
            if theirs:
                shown_any.add(item.label)
    assert len(shown_any) >= 3  # the demo's outside users own records of several kinds


def test_the_capped_counts_cap_as_before(town: Town) -> None:
    for day, status in enumerate(("prohibited", "prohibited", "prohibited", "review"), start=2):
        finding(town, day=f"2026-01-0{day}", status=status)
    rows, counts = severity_queue(open_findings(town.u("superintendent")), 2, 2)
    assert counts == [("prohibited", 2, "2+"), ("review", 1, "1")]
    assert [f.status for f in rows] == ["prohibited", "prohibited"]
    assert Finding.objects.count() == 4


def _home_queries(c: Any) -> list[str]:
    c.get("/")
    with CaptureQueriesContext(connection) as ctx:
        assert c.get("/").status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


def _mark(town: Town, est: Any, status: str, day: str) -> Finding:
    return finding(town, est=est, status=status, day=day, message=f"{est.name}: {status} on {day}")


def test_the_outside_home_reads_its_facilities_at_once(town: Town, login: Any) -> None:
    """Counts and citations: one query each for all the owner's facilities; the worst findings
    of every facility with open findings: two queries (their ids, then the rows), whatever the
    number of facilities; none when no facility has an open finding."""
    c = login("owner")
    sqls = _home_queries(c)
    assert not [q for q in sqls if 'FROM "monitoring_finding"' in q and "COUNT(" not in q]
    more = [
        Establishment.objects.create(
            name=f"Olive's Diner {n + 2}",
            operator=town.owner_person,
            building=town.owner_shop_building,
            kind=EstablishmentKind.RESTAURANT,
        )
        for n in range(3)
    ]
    finding(town, status="prohibited")
    _mark(town, more[0], "exceeds", "2026-01-03")
    _mark(town, more[0], "prohibited", "2026-01-04")
    _mark(town, more[2], "exceeds", "2026-01-05")
    sqls = _home_queries(c)
    findings = [q for q in sqls if 'FROM "monitoring_finding"' in q]
    counts = [q for q in findings if "COUNT(" in q]
    citations = [q for q in findings if '"monitoring_finding"."result_id" AS "result_id"' in q]
    rows = [q for q in findings if q not in counts and q not in citations]
    assert len(counts) == 1
    assert len(citations) <= 1  # none when no facility has results
    assert len(rows) == 2  # the ids of every facility's worst, then those rows
    (panel,) = [p for p in c.get("/").context["panels"] if p.template.endswith("_home_panel.html")]
    shown = {row.est.pk: [f.message for f in row.findings] for row in panel.context["facilities"]}
    assert shown[more[0].pk] == [  # the worst first, then the oldest
        f"{more[0].name}: prohibited on 2026-01-04",
        f"{more[0].name}: exceeds on 2026-01-03",
    ]
    assert shown[more[1].pk] == []
    assert shown[more[2].pk] == [f"{more[2].name}: exceeds on 2026-01-05"]
    assert len(shown[town.owner_restaurant.pk]) == 1


def test_first_ids_keeps_each_parts_order_and_limit(town: Town) -> None:
    """One statement for several ordered, sliced lists: each part's first rows, none of the
    rest; on SQLite too (each part in a subquery)."""
    ests = [town.owner_restaurant, town.other_plant]
    marks = {e.pk: [_mark(town, e, "exceeds", f"2026-01-0{d}") for d in (1, 2, 3)] for e in ests}
    parts = [
        Finding.objects.filter(establishment=e).order_by("-observed_at", "-id")[:2] for e in ests
    ]
    with CaptureQueriesContext(connection) as ctx:
        ids = first_ids(parts)
    assert len(ctx.captured_queries) == 1
    assert sorted(ids) == sorted(
        f.pk for e in ests for f in sorted(marks[e.pk], key=lambda f: f.observed_at)[1:]
    )
    assert first_ids([]) == []


def test_a_superuser_without_roles_counts_every_open_record(town: Town) -> None:
    """Staff by being a superuser, with no role: their queues are every open record of each
    kind, counted from the summary as any staff member's are."""
    new_record("building-sewer", town)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    built = dashboard.build(admin)
    assert built["queues"]
    for queue in built["queues"]:
        open_states = queue["kind"].model.WORKFLOW.open_states
        assert queue["count"] == queue["kind"].model.objects.filter(state__in=open_states).count()


def test_a_compiled_statement_is_built_once_and_reads_what_is_written_after_it(
    town: Town,
) -> None:
    """``compiled_for`` keeps the text of a statement, never its rows: a facility added after
    the statement was compiled is counted by the next run of the same text; another user (other
    persons) gets a statement of their own."""
    built: list[str] = []

    def statement(user: Any) -> tuple[str, tuple[Any, ...]]:
        def build() -> tuple[str, tuple[Any, ...]]:
            built.append(user.username)
            qs = visible(Establishment.objects.all(), user).order_by().values("pk")
            sql, params = qs.query.sql_with_params()
            return sql, tuple(params)

        return compiled_for(user, ("test: facilities", town.owner_person.pk), build)

    def count(user: Any) -> int:
        with connection.cursor() as cursor:
            cursor.execute(*statement(user))
            return len(cursor.fetchall())

    owner = town.u("owner")
    before = count(owner)
    Establishment.objects.create(
        name="Olive's Second Diner",
        operator=town.owner_person,
        building=town.owner_shop_building,
        kind=EstablishmentKind.RESTAURANT,
    )
    assert count(owner) == before + 1
    assert built == ["owner"]  # compiled once, run twice
    other = [
        u
        for u in get_user_model().objects.all()
        if person_ids(u) and person_ids(u) != person_ids(owner)
    ]
    if other:
        count(other[0])
        assert built[-1] == other[0].username
