"""The annual pretreatment report's pages (40 CFR 403.12(i)): the year's report as last
prepared (:mod:`.editions`), preparing it, its PDF and CSV as prepared, and its ICIS-NPDES XML
for EPA. Plant-wide: a staff member of one member town is refused them (403)."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from sewer_office.accounts.roles import STAFF_ROLES
from sewer_office.core.decorators import plant_wide_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.paging import page_of

from . import editions, icis, reports
from .models import AnnualReportEdition
from .services import DECIDERS
from .views import file_response

#: Industrial users listed a page (a county has thousands: the CSV and the PDF list them all).
USERS_SHOWN = 100


@plant_wide_view(*STAFF_ROLES)
def annual_page(request: HttpRequest, year: int) -> HttpResponse:
    """The year's report as last prepared (one stored row), or, before the first edition, a
    draft gathered from the records as they stand."""
    edition = editions.latest(year)
    if edition is not None:
        return _annual(request, year, editions.shown_of(edition), edition)
    return _annual(request, year, editions.shown(reports.annual_report(year)))


def _annual(
    request: HttpRequest,
    year: int,
    shown: editions.Shown,
    edition: AnnualReportEdition | None = None,
    status: int = 200,
) -> HttpResponse:
    """The annual report's page: its figures (``icis_missing``: what keeps its ICIS-NPDES XML
    from being written, listed in place of the link), the edition they come from, and the
    button to prepare it (again)."""
    page, query = page_of(request, shown.rows, USERS_SHOWN)
    return render(
        request,
        "pretreatment/annual.html",
        {
            "year": year,
            "shown": shown,
            "page": page,
            "query": query,
            "edition": edition,
            "changed": edition is not None and editions.changed_since(edition),
            "may_prepare": editions.may_prepare(request.user) and year < timezone.localdate().year,
        },
        status=status,
    )


@require_POST
@plant_wide_view(*DECIDERS)
def annual_prepare(request: HttpRequest, year: int) -> HttpResponse:
    """Gather the year's report and keep it as prepared (40 CFR 403.12(i))."""
    try:
        edition = editions.prepare(year, request.user)
    except OfficeError as e:
        messages.error(request, e.message)
        return redirect("pretreatment:annual", year=year)
    messages.success(
        request,
        f"Annual pretreatment report {year} prepared "
        f"({len(edition.figures['rows'])} industrial users; 40 CFR 403.12(i)).",
    )
    return redirect("pretreatment:annual", year=year)


@plant_wide_view(*STAFF_ROLES)
def annual_pdf(request: HttpRequest, year: int) -> HttpResponse:
    """The latest edition's PDF as prepared, else one rendered from the records now."""
    content = editions.latest_file(year, "pdf") or reports.annual_pdf(year)
    return file_response(content, "application/pdf", f"pretreatment-{year}.pdf", True)


@plant_wide_view(*STAFF_ROLES)
def annual_csv(request: HttpRequest, year: int) -> HttpResponse:
    """The latest edition's CSV as prepared, else one gathered from the records now."""
    content = editions.latest_file(year, "csv") or reports.annual_csv(year)
    return file_response(content, "text/csv; charset=utf-8", f"pretreatment-{year}.csv")


@plant_wide_view(*STAFF_ROLES)
def annual_xml(request: HttpRequest, year: int) -> HttpResponse:
    """The year's report as ICIS-NPDES XML for EPA (40 CFR 403.12(i)); refused, the annual
    page says what is missing (409), never a broken download."""
    name = request.user.get_username()
    try:
        export = icis.build_year(
            year,
            submitter=name if 3 <= len(name) <= 30 else "sewer-use",
            author=request.user.get_full_name() if hasattr(request.user, "get_full_name") else "",
        )
    except icis.ExportRefused as e:
        shown = editions.shown(reports.annual_report(year))
        refused = replace(shown, icis_missing=list(e.problems))
        return _annual(request, year, refused, editions.latest(year), status=409)
    return file_response(export.content, "application/xml", export.filename)
