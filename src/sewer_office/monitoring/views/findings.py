"""The findings' pages of monitoring: the list (by status, with each finding's words and the
acts open on it), and the review of one or many findings by the Superintendent or engineer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core import reading
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.paging import page_of
from sewer_office.core.panels import finding_actions
from sewer_office.core.statuses import status_label
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import SeverityOrdered, by_severity, capped_status_counts
from sewer_office.findings.services import acknowledge_findings, review_finding
from sewer_office.findings.words import capitalized, describe
from sewer_office.monitoring import forms as mforms
from sewer_office.monitoring.filters import OPEN, FindingFilter, status_code
from sewer_office.monitoring.views import OFFICERS, PAGE_SIZE

#: The findings list's count per status stops here (shown "1,000+"; findings.queries).
LIST_COUNT_CAP = 1000


FINDING_COLUMNS = (
    Column("Id", "pk"),
    Column("When", "observed_at"),
    Column("Facility", "establishment.code"),
    Column("Facility name", "establishment.name"),
    Column("Kind", "get_kind_display"),
    Column("Status", lambda f: status_label(f.status)),
    Column("Citation", "citation"),
    Column("Limit", lambda f: reading.number_or_text(f.limit)),
    Column("Unit", "limit_unit"),
    Column("Finding", "message"),
    Column("Review", "get_review_display"),
    Column("Review note", "review_note"),
)


@office_view()
def finding_list(request: HttpRequest) -> HttpResponse:
    base = visible(Finding.objects.select_related("establishment", "result"), request.user)
    review = request.GET.get("review", OPEN)
    data = request.GET.copy()
    data["review"] = review
    fs = FindingFilter(data, queryset=base)
    qs = by_severity(fs.qs)
    if (download := export(request, qs, FINDING_COLUMNS, "findings")) is not None:
        return download
    # The counts per status are of the list as filtered, but for the status itself, so that
    # each count is a link that narrows the list to that status. Each stops at LIST_COUNT_CAP
    # (shown "1,000+"): the page costs the same at any size of the ledger; past the cap the
    # list is narrowed (a facility, a date) rather than paged through.
    unstatused = data.copy()
    unstatused["status"] = ""
    counts, stopped = capped_status_counts(
        FindingFilter(unstatused, queryset=base).qs, LIST_COUNT_CAP
    )
    chosen = status_code(data.get("status", ""))
    shown = [(code, n, label) for code, n, label in counts if not chosen or code == chosen]
    total = sum(n for _code, n, _label in shown)
    page, query = page_of(request, SeverityOrdered(fs.qs, shown), PAGE_SIZE, count=total)
    page.object_list = with_words_and_links(request, list(page.object_list))
    return render(
        request,
        "monitoring/finding_list.html",
        {
            "page": page,
            "query": query,
            "filter": fs.form,
            "review": review,
            "status": data.get("status", ""),
            "counts": [(code, label) for code, _n, label in counts],
            "counts_total": f"{sum(n for _s, n, _label in counts):,}{'+' if stopped else ''}",
            "counts_stopped": f"{LIST_COUNT_CAP:,}" if stopped else "",
            "counts_query": _without(unstatused, "status", "page"),
            "may_review": has_role(request.user, *OFFICERS),
            "review_form": mforms.ReviewForm(),
        },
    )


def with_words_and_links(request: HttpRequest, findings: list[Finding]) -> list[Finding]:
    """``findings``, each with its sentence in plain words (``plain``, what a notice would
    say) and what the apps above offer on it for this user (``actions``: open a violation,
    or the one already open from it)."""
    prefetch_related_objects(findings, "source")
    offered = finding_actions(request, findings)
    for f in findings:
        f.plain = capitalized(describe(f))  # type: ignore[attr-defined]
        f.actions = offered.get(f.pk, [])  # type: ignore[attr-defined]
    return findings


def _without(data: Any, *names: str) -> str:
    """The query string of ``data`` without ``names`` (to add one of them back in a link)."""
    q = data.copy()
    for name in names:
        q.pop(name, None)
    return str(q.urlencode())


@require_POST
@office_view(*OFFICERS)
def finding_acknowledge(request: HttpRequest) -> HttpResponse:
    """Acknowledge the ticked findings at once (one audited change per finding)."""
    ids = [int(i) for i in request.POST.getlist("finding") if i.isdigit()]
    chosen = list(visible(Finding.objects.filter(pk__in=ids), request.user))
    try:
        n = acknowledge_findings(chosen, request.user, request.POST.get("note", ""))
    except OfficeError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, f"Acknowledged {n} finding{'s' if n != 1 else ''}.")
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect("monitoring:findings")


@require_POST
@office_view(*OFFICERS)
def finding_review(request: HttpRequest, pk: int) -> HttpResponse:
    finding = get_object_or_404(visible(Finding.objects.all(), request.user), pk=pk)
    form = mforms.ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose acknowledge or close.")
    else:
        try:
            review_finding(
                finding, request.user, form.cleaned_data["review"], form.cleaned_data["note"]
            )
        except OfficeError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, f"Finding #{finding.pk} {form.cleaned_data['review']}.")
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}):
        return redirect(target)
    return redirect("monitoring:findings")
