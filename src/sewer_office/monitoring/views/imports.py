"""The laboratory imports' pages: a file uploaded (the office's, or a facility's own
self-monitoring results), the list of imports, one import and its approval."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_io import lab_mapping as layouts
from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.paging import page_of
from sewer_office.monitoring import forms as mforms
from sewer_office.monitoring import mappings, queries, services
from sewer_office.monitoring.choices import ImportSource, ResultState, Sampler
from sewer_office.monitoring.lab_files import read_upload
from sewer_office.monitoring.lab_import import (
    UnusableFile,
    import_lab_file,
    source_for,
)
from sewer_office.monitoring.models import LabImport
from sewer_office.monitoring.views import OFFICERS, PAGE_SIZE, REPORTERS

IMPORT_COLUMNS = (
    Column("Id", "pk"),
    Column("File", "source_name"),
    Column("Source", "get_source_display"),
    Column("Imported", "imported_at"),
    Column("By", lambda i: i.imported_by.get_username() if i.imported_by else "office"),
    Column("Results", "result_count"),
    Column("Findings", "finding_count"),
    Column("Parameters", "parameters_version"),
)


@office_view(*REPORTERS)
def import_file(request: HttpRequest) -> HttpResponse:
    """Upload a laboratory file: the report lists every failing row and field, or the result.
    A laboratory's own layout is read through the mapping chosen (:mod:`.mappings`).
    Not through ``form_action``: a dry run answers with the row report, not a redirect, and a
    report with failing rows refuses (400) without the service raising."""
    source = source_for(request.user)
    form = mforms.LabFileForm(
        request.POST or None,
        request.FILES or None,
        mapping_choices=mappings.choices(request.user),
        own_samples=source == ImportSource.SELF_MONITORING,
    )
    report = None
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            mapping, _name = mappings.chosen(form.cleaned_data["mapping"], request.user)
            report = import_lab_file(
                read_upload(upload),
                upload.name,
                request.user,
                dry_run=form.cleaned_data["dry_run"],
                source=source,
                mapping=mapping,
                sampler=form.cleaned_data.get("sampler") or Sampler.UNKNOWN,
            )
        except (mappings.NoSuchMapping, layouts.MappingError) as e:
            form.add_error("mapping", str(e))
        except UnusableFile as e:
            form.add_error("file", str(e))
        except OfficeError as e:
            form.add_error(None, e.message)
        if report is not None and report.stored and report.lab_import is not None:
            messages.success(
                request,
                f"Stored {report.rows} result(s) from {upload.name}: import #{report.lab_import.pk}.",
            )
            return redirect("monitoring:import-detail", report.lab_import.pk)
        status = 200 if report is not None and report.ok else 400
    elif request.method == "POST":
        status = 400
    return render(
        request,
        "monitoring/import.html",
        {"form": form, "report": report, "may_map": has_role(request.user, *services.MAPPERS)},
        status=status,
    )


@office_view()
def import_list(request: HttpRequest) -> HttpResponse:
    qs = visible(LabImport.objects.select_related("imported_by"), request.user)
    if (download := export(request, qs, IMPORT_COLUMNS, "lab-imports")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "monitoring/import_list.html",
        {
            "page": page,
            "query": query,
            "may_report": has_role(request.user, *REPORTERS),
            "may_map": has_role(request.user, *services.MAPPERS),
        },
    )


@office_view()
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    imp = get_object_or_404(visible(LabImport.objects.all(), request.user), pk=pk)
    results = visible(
        imp.results.select_related("establishment", "event").order_by("row"), request.user
    )
    page, query = page_of(request, results, PAGE_SIZE)
    page.object_list = queries.with_citations(list(page.object_list))
    return render(
        request,
        "monitoring/import_detail.html",
        {
            "imp": imp,
            "page": page,
            "query": query,
            "reported": results.filter(state=ResultState.REPORTED).count(),
            "may_approve": has_role(request.user, *OFFICERS),
            "timeline": audit.timeline(imp),
        },
    )


@require_POST
@office_view(*OFFICERS)
def import_approve(request: HttpRequest, pk: int) -> HttpResponse:
    imp = get_object_or_404(visible(LabImport.objects.all(), request.user), pk=pk)
    n = services.approve_results(imp.results.all(), request.user, request.POST.get("note", ""))
    messages.success(request, f"Approved {n} result(s).")
    return redirect("monitoring:import-detail", imp.pk)


# --- laboratory mappings ------------------------------------------------------------------------
