"""The laboratory results' pages: the list, one result with its history, a correction (a new
result that supersedes, never an edit in place) and a result typed in by hand."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import has_role
from sewer_office.core import audit, reading
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of
from sewer_office.core.statuses import status_label
from sewer_office.monitoring import forms as mforms
from sewer_office.monitoring import queries, services
from sewer_office.monitoring.choices import ResultState
from sewer_office.monitoring.filters import LabResultFilter
from sewer_office.monitoring.lab_import import ImportReport
from sewer_office.monitoring.models import LabImport, LabResult
from sewer_office.monitoring.views import OFFICERS, PAGE_SIZE, REPORTERS
from sewer_office.monitoring.views.findings import with_words_and_links

RESULT_COLUMNS = (
    Column("Id", "pk"),
    Column("Sampled", "sampled_at"),
    Column("Facility", "establishment.code"),
    Column("Facility name", "establishment.name"),
    Column("Point", "event.sampling_point.code"),
    Column("Sample", "event.sample_id"),
    Column("Sample type", "event.sample_type"),
    Column("Parameter", lambda r: reading.analyte(r.parameter)),
    Column("Value", lambda r: reading.number_or_text(r.value_text)),
    Column("Unit", "unit"),
    Column("Qualifier", "qualifier"),
    Column("Status", lambda r: status_label(r.status)),
    Column("State", "get_state_display"),
)


@office_view()
def result_list(request: HttpRequest) -> HttpResponse:
    base = visible(
        LabResult.objects.select_related("establishment", "event", "event__sampling_point"),
        request.user,
    )
    fs = LabResultFilter(request.GET or None, queryset=base)
    qs = fs.qs.order_by("-sampled_at", "id")
    if (download := export(request, qs, RESULT_COLUMNS, "results")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    page.object_list = queries.with_citations(list(page.object_list))
    return render(
        request,
        "monitoring/result_list.html",
        {
            "page": page,
            "query": query,
            "filter": fs.form,
            "may_report": has_role(request.user, *REPORTERS),
        },
    )


@office_view()
def result_detail(
    request: HttpRequest,
    pk: int,
    correction_form: mforms.CorrectionForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """One result with its findings and history, and the correction form (refused: again
    with its errors, ``status`` 400 or the service's 409)."""
    result = get_object_or_404(
        visible(
            LabResult.objects.select_related(
                "establishment", "event", "event__sampling_point", "lab_import", "supersedes"
            ),
            request.user,
        ),
        pk=pk,
    )
    later = result.superseded_by
    return render(
        request,
        "monitoring/result_detail.html",
        {
            "r": result,
            "findings": with_words_and_links(
                request, list(result.findings.order_by("-current", "id"))
            ),
            "later": later,
            # a link to the import only when this user may open it (an outside user's
            # result may come from the office's import of the laboratory's file)
            "import_visible": result.lab_import_id is not None
            and visible(LabImport.objects.filter(pk=result.lab_import_id), request.user).exists(),
            "may_correct": has_role(request.user, *OFFICERS)
            and result.state != ResultState.SUPERSEDED,
            "form": correction_form
            or mforms.CorrectionForm(initial={"value": result.value_text, "unit": result.unit}),
            "timeline": audit.timeline(result),
        },
        status=status,
    )


@require_POST
@office_view(*OFFICERS)
def result_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a correction: a new result that supersedes this one (a result already
    superseded: 409, the page again with the refusal on the form)."""
    result = get_object_or_404(visible(LabResult.objects.all(), request.user), pk=pk)
    form = mforms.CorrectionForm(request.POST)

    def corrected(new: LabResult) -> HttpResponse:
        messages.success(request, f"Result #{result.pk} corrected by #{new.pk}.")
        return redirect("monitoring:result", new.pk)

    act = form_action(
        request,
        form,
        lambda d: services.correct_result(result, request.user, **d),
        error_status=True,
    )

    def again(status: int) -> HttpResponse:
        if LabResult.objects.filter(pk=pk, state=ResultState.SUPERSEDED).exists():
            for error in form.non_field_errors():  # the page no longer offers the form
                messages.error(request, str(error))
        return result_detail(request, pk, correction_form=form, status=status)

    return act.respond(then=corrected, show=again)


@office_view(*REPORTERS)
def result_create(request: HttpRequest) -> HttpResponse:
    form = mforms.ManualResultForm(request.POST or None)

    def page(status: int, report: ImportReport | None = None) -> HttpResponse:
        context = {"form": form, "report": report}
        return render(request, "monitoring/result_form.html", context, status=status)

    def entered(report: ImportReport) -> HttpResponse:
        if report.stored and report.lab_import is not None:
            result = report.lab_import.results.first()
            messages.success(request, "Result stored and evaluated.")
            return redirect("monitoring:result", result.pk if result else 0)
        for _row, field, message in report.errors:  # the engine's refusal of the row
            form.add_error(field if field in form.fields else None, message)
        return page(400, report)

    act = form_action(request, form, lambda d: services.enter_results(request.user, [d]))
    return act.respond(then=entered, show=page)
