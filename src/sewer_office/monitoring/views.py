"""Pages of sampling and laboratory results: import, manual entry, results, corrections,
approval, findings and their review, sampling points, and the per-parameter charts."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import APPLICANT, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit, reading
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.paging import page_of
from sewer_office.core.panels import finding_actions
from sewer_office.core.statuses import status_label
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import by_severity, status_counts
from sewer_office.findings.services import acknowledge_findings, review_finding
from sewer_office.findings.words import capitalized, describe
from sewer_office.registry.models import Establishment

from . import forms as mforms
from . import queries, services
from .choices import ResultState
from .filters import OPEN, FindingFilter, LabResultFilter, status_code
from .lab_import import RESULT_OFFICERS, UnusableFile, import_lab_file, read_upload, source_for
from .models import LabImport, LabResult

PAGE_SIZE = 50

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
OFFICERS = RESULT_OFFICERS
REPORTERS = (SUPERINTENDENT, ENGINEER, APPLICANT)


@office_view(*REPORTERS)
def import_file(request: HttpRequest) -> HttpResponse:
    """Upload a laboratory file: the report lists every failing row and field, or the result."""
    form = mforms.LabFileForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            report = import_lab_file(
                read_upload(upload),
                upload.name,
                request.user,
                dry_run=form.cleaned_data["dry_run"],
                source=source_for(request.user),
            )
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
        request, "monitoring/import.html", {"form": form, "report": report}, status=status
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
        {"page": page, "query": query, "may_report": has_role(request.user, *REPORTERS)},
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
def result_detail(request: HttpRequest, pk: int) -> HttpResponse:
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
            "findings": _with_words_and_links(
                request, list(result.findings.order_by("-current", "id"))
            ),
            "later": later,
            # a link to the import only when this user may open it (an outside user's
            # result may come from the office's import of the laboratory's file)
            "import_visible": result.lab_import_id is not None
            and visible(LabImport.objects.filter(pk=result.lab_import_id), request.user).exists(),
            "may_correct": has_role(request.user, *OFFICERS)
            and result.state != ResultState.SUPERSEDED,
            "form": mforms.CorrectionForm(
                initial={"value": result.value_text, "unit": result.unit}
            ),
            "timeline": audit.timeline(result),
        },
    )


@require_POST
@office_view(*OFFICERS)
def result_correct(request: HttpRequest, pk: int) -> HttpResponse:
    result = get_object_or_404(visible(LabResult.objects.all(), request.user), pk=pk)
    form = mforms.CorrectionForm(request.POST)
    if form.is_valid():
        try:
            new = services.correct_result(result, request.user, **form.cleaned_data)
        except OfficeError as e:
            messages.error(request, e.message)
        else:
            messages.success(request, f"Result #{result.pk} corrected by #{new.pk}.")
            return redirect("monitoring:result", new.pk)
    else:
        messages.error(
            request, "; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in form.errors.items())
        )
    return redirect("monitoring:result", result.pk)


@office_view(*REPORTERS)
def result_create(request: HttpRequest) -> HttpResponse:
    form = mforms.ManualResultForm(request.POST or None)
    report = None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                report = services.enter_results(request.user, [form.cleaned_data])
            except OfficeError as e:
                form.add_error(None, e.message)
            else:
                if report.stored and report.lab_import is not None:
                    result = report.lab_import.results.first()
                    messages.success(request, "Result stored and evaluated.")
                    return redirect("monitoring:result", result.pk if result else 0)
                for _row, field, message in report.errors:
                    form.add_error(field if field in form.fields else None, message)
    return render(
        request, "monitoring/result_form.html", {"form": form, "report": report}, status=status
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
    # each count is a link that narrows the list to that status.
    unstatused = data.copy()
    unstatused["status"] = ""
    counts = status_counts(FindingFilter(unstatused, queryset=base).qs)
    chosen = status_code(data.get("status", ""))
    total = sum(n for code, n in counts if not chosen or code == chosen)
    page, query = page_of(request, qs, PAGE_SIZE, count=total)
    page.object_list = _with_words_and_links(request, list(page.object_list))
    return render(
        request,
        "monitoring/finding_list.html",
        {
            "page": page,
            "query": query,
            "filter": fs.form,
            "review": review,
            "status": data.get("status", ""),
            "counts": counts,
            "counts_total": sum(n for _s, n in counts),
            "counts_query": _without(unstatused, "status", "page"),
            "may_review": has_role(request.user, *OFFICERS),
            "review_form": mforms.ReviewForm(),
        },
    )


def _with_words_and_links(request: HttpRequest, findings: list[Finding]) -> list[Finding]:
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


def _facility(request: HttpRequest, pk: int) -> Establishment:
    return get_object_or_404(visible(Establishment.objects.all(), request.user), pk=pk)


@office_view()
def chart(request: HttpRequest, pk: int, parameter: str) -> HttpResponse:
    est = _facility(request, pk)
    if parameter not in queries.parameters_of(est):
        raise Http404("No results of this parameter.")
    response = HttpResponse(queries.chart(est, parameter), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=60"
    return response


def _facility_form(
    request: HttpRequest,
    est: Establishment,
    form: Any,
    save: Any,
    done: str,
    context: dict[str, Any],
) -> HttpResponse:
    """A form that adds something to a facility through a service; back to the facility page."""
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                save(request.user, est, **form.cleaned_data)
            except OfficeError as e:
                form.add_error(None, e.message)
            else:
                messages.success(request, done)
                return redirect("registry:establishment", est.pk)
    return render(
        request, "monitoring/point_form.html", {"form": form, "est": est, **context}, status=status
    )


@office_view(*OFFICERS)
def point_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.SamplingPointForm(request.POST or None),
        services.add_sampling_point,
        "Sampling point added.",
        {"title": f"Sampling point of {est.name}"},
    )


@office_view(*OFFICERS)
def limit_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.DischargeLimitForm(request.POST or None, establishment=est),
        services.add_discharge_limit,
        "Discharge limit recorded.",
        {"title": f"Discharge limit of {est.name}", "limit": True},
    )


@office_view(*services.SAMPLERS)
def event_create(request: HttpRequest, pk: int) -> HttpResponse:
    est = _facility(request, pk)
    return _facility_form(
        request,
        est,
        mforms.SamplingEventForm(request.POST or None, establishment=est),
        services.record_sampling_event,
        "Sample recorded: its results will be attached when the laboratory's file is imported.",
        {"title": f"Record a sample taken at {est.name}", "sample": True},
    )
