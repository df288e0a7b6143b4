"""The findings list pages through the review queue's order — the most severe status first,
then the oldest — read status by status, and agrees with the plain ordering of the ledger."""

from __future__ import annotations

from typing import Any

from sewer_office.core.statuses import SEVERITY
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import SeverityOrdered, by_severity, capped_status_counts

from .enforcement_factories import finding
from .factories import Town


def _ledger(town: Town) -> None:
    statuses = list(SEVERITY)
    for i in range(130):  # more than two pages of fifty, every status, days out of order
        status = statuses[(i * 7) % len(statuses)]
        finding(town, mine=i % 2 == 0, day=f"2026-01-{1 + (i * 11) % 28:02d}", status=status)


def test_the_pages_follow_the_queue_order_of_the_whole_ledger(town: Town, login: Any) -> None:
    _ledger(town)
    expected = list(by_severity(Finding.objects.filter(current=True)).values_list("pk", flat=True))
    client = login("superintendent")
    shown: list[int] = []
    for number in (1, 2, 3):
        page = client.get("/monitoring/findings/", {"review": "", "page": number})
        assert page.status_code == 200
        shown += [f.pk for f in page.context["page"]]
    assert shown == expected


def test_a_chosen_status_pages_through_that_status_alone(town: Town, login: Any) -> None:
    _ledger(town)
    status = next(iter(SEVERITY))
    expected = list(
        Finding.objects.filter(current=True, status=status)
        .order_by("observed_at", "id")
        .values_list("pk", flat=True)
    )
    page = login("superintendent").get("/monitoring/findings/", {"review": "", "status": status})
    assert [f.pk for f in page.context["page"]] == expected[:50]


def test_a_capped_status_is_read_to_its_cap_then_the_next_status(town: Town) -> None:
    _ledger(town)
    qs = Finding.objects.filter(current=True)
    counts, stopped = capped_status_counts(qs, 5)
    assert stopped
    rows = SeverityOrdered(qs, counts)
    firsts = [
        list(qs.filter(status=code).order_by("observed_at", "id").values_list("pk", flat=True))[:5]
        for code, _n, _label in counts
    ]
    assert [f.pk for f in rows[0 : len(rows)]] == [pk for part in firsts for pk in part]
    assert [f.pk for f in rows[3:12]] == [pk for part in firsts for pk in part][3:12]
