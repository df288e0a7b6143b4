"""The enforcement pages run the same number of queries with few or many violations: the
list (its cards of deadlines and fines accruing, the filter's choices, the page of rows), the
dashboards of the Superintendent and the clerk, and an outside user's dashboard (no N+1)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from .enforcement_factories import issued, overdue, reported, served
from .factories import Town

PAGES = (
    ("superintendent", "/enforcement/"),
    ("superintendent", "/enforcement/?state=fines_accruing"),
    ("superintendent", "/"),
    ("clerk", "/"),
    ("owner", "/"),
    ("owner", "/enforcement/"),
)


def _queries(c: Any, url: str) -> int:
    c.get(url)  # warm: sessions, caches of the jurisdiction's parameters and guide
    with CaptureQueriesContext(connection) as ctx:
        assert c.get(url).status_code == 200
    return len(ctx.captured_queries)


def _some(town: Town) -> None:
    for mine in (True, False):
        overdue(town, mine=mine)
        served(town, mine=mine)
        issued(town, mine=mine)
        reported(town, mine=mine)


def test_queries_do_not_grow_with_the_violations(town: Town, login: Any) -> None:
    _some(town)
    few = {f"{who} {url}": _queries(login(who), url) for who, url in PAGES}
    for _ in range(3):
        _some(town)
    many = {f"{who} {url}": _queries(login(who), url) for who, url in PAGES}
    assert many == few


def test_the_list_reads_only_its_page_of_violations(town: Town, login: Any) -> None:
    """The download's rows are built only for a download: the page itself never reads every
    violation (a generator expression over the queryset once did, with its prefetches)."""
    _some(town)
    c = login("superintendent")
    c.get("/enforcement/")
    with CaptureQueriesContext(connection) as ctx:
        assert c.get("/enforcement/").status_code == 200
    unlimited = [
        q["sql"]
        for q in ctx.captured_queries
        if 'FROM "enforcement_violation"' in q["sql"].replace("`", '"')
        and q["sql"].lstrip().upper().startswith("SELECT")
        and "COUNT(" not in q["sql"].upper()
        and " LIMIT " not in q["sql"].upper()
        and " IN (" not in q["sql"].upper()
    ]
    assert unlimited == []
