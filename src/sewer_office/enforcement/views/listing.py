"""The enforcement list page: violations by stage, the deadlines of this week and the fines
accruing, and the list's download (one row per violation, as ``sewer-use violations``).

The list and its cards read the same visible violations as every other page
(:func:`..services.visible_violations`), so a person sees the same violations here as on each
violation's page."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.jurisdictions import towns_seen
from sewer_office.accounts.towns import installed, keeps_article
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.paging import page_of
from sewer_office.enforcement import grounds, liability, rules, services
from sewer_office.enforcement.filters import ViolationFilter
from sewer_office.enforcement.models import Notice, Violation
from sewer_office.enforcement.queries import violations
from sewer_office.enforcement.states import OPEN_STATES
from sewer_office.enforcement.summary import ViolationSummary, violation_summary
from sewer_office.enforcement.workflow import WORKFLOW

WEEK = 7


def _key(name: str) -> Any:
    return lambda row: row[name]


def _day(iso: str | None) -> date | None:
    """A day of the summary (ISO text, shared with the CLI) as a date, typed in a download."""
    return date.fromisoformat(iso) if iso else None


#: One row per violation (:func:`..summary.violation_summary`), as ``sewer-use violations``.
VIOLATION_COLUMNS = (
    Column("Id", _key("id")),
    Column("Number", _key("number")),
    Column("Facility or property", _key("facility")),
    Column("Person responsible", _key("person")),
    Column("Section", _key("section")),
    Column("Kind", lambda r: rules.kind_label(r["kind"], date.fromisoformat(r["observed_on"]))),
    Column("Stage", _key("stage")),
    Column("Found", lambda r: _day(r["observed_on"])),
    Column("Notice deadline", lambda r: _day(r["notice_deadline"])),
    Column("Days late", _key("days_late")),
    Column(
        "Fines accrued (USD)", lambda r: Decimal(r["fines_accrued"]) if r["fines_accrued"] else None
    ),
    Column("Fines", _key("fines_status")),
    Column("Would now be refused", _key("would_now_be_refused")),
)


def visible_notices(request: HttpRequest) -> Any:
    """The notices whose violation `request.user` may see (the letters are theirs to read)."""
    return visible(Notice.objects.select_related("violation__person"), request.user)


#: Rows of the list page's cards (deadlines this week, fines accruing); the rest are counted
#: and one click away (the list filtered to their state), so the page stays fast.
CARD_ROWS = 25

#: What the fine of each listed violation reads, fetched with the list (no query per row).
FINE_PREFETCH = ("notices__superseded_by", "corrections")


def deadlines_between(request: HttpRequest, first: date, last: date) -> Any:
    """Served notices in force whose deadline falls in ``first..last`` (violation still served)."""
    return (
        visible_notices(request)
        .filter(
            Notice.in_force(),
            deadline__gte=first,
            deadline__lte=last,
            violation__state="served",
        )
        .order_by("deadline", "id")
    )


def _summaries(qs: QuerySet[Violation], today: date) -> Iterator[ViolationSummary]:
    """One row per violation for a download, read only when a download is asked for (a generator
    function: a generator expression would run the query, and its prefetches, at once)."""
    for v in qs.prefetch_related("notices__superseded_by", "corrections"):
        yield violation_summary(v, today)


@office_view()
def violation_list(request: HttpRequest) -> HttpResponse:
    base = services.visible_violations(violations(), request.user)
    fs = ViolationFilter(request.GET or None, queryset=base, request=request)
    qs = fs.qs if fs.is_bound and fs.is_valid() else base
    rows = _summaries(qs, timezone.localdate())
    if (download := export(request, rows, VIOLATION_COLUMNS, "violations")) is not None:
        return download
    page, query = page_of(request, qs)
    # which listed violations the rule of grounds would now refuse (records unchanged)
    listed = [(v, grounds.refusal_of(v)) for v in page]
    counts = dict(
        base.filter(state__in=OPEN_STATES)
        .order_by()
        .values("state")
        .annotate(n=Count("id"))
        .values_list("state", "n")
    )
    stages = [(s, WORKFLOW.label(s), counts.get(s, 0)) for s in OPEN_STATES]
    today = timezone.localdate()
    accruing = list(
        base.filter(state="fines_accruing").prefetch_related(*FINE_PREFETCH)[:CARD_ROWS]
    )
    week = deadlines_between(request, today, today + timedelta(days=WEEK))
    this_week = list(week[: CARD_ROWS + 1])
    return render(
        request,
        "enforcement/list.html",
        {
            "filter": fs,
            "page": page,
            "listed": listed,
            "query": query,
            "stages": stages,
            "this_week": this_week[:CARD_ROWS],
            "this_week_total": week.count() if len(this_week) > CARD_ROWS else len(this_week),
            "accruing": [(v, liability.fines(v, today)) for v in accruing],
            # the article's citations, unless every town the user acts for has a law of its own
            "cites_article": any(keeps_article(t) for t in towns_seen(request.user) or installed()),
            "accruing_total": counts.get("fines_accruing", 0),
            "may_open": services.may_open(request.user),
        },
    )
