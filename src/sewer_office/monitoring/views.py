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

from sewer_io import lab_mapping as layouts
from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import APPLICANT, ENGINEER, SUPERINTENDENT, has_role
from sewer_office.core import audit, reading
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_office_error
from sewer_office.core.paging import page_of
from sewer_office.core.panels import finding_actions
from sewer_office.core.statuses import status_label
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import by_severity, status_counts
from sewer_office.findings.services import acknowledge_findings, review_finding
from sewer_office.findings.words import capitalized, describe
from sewer_office.registry.models import Establishment

from . import forms as mforms
from . import mappings, queries, services
from .choices import ImportSource, ResultState, Sampler
from .filters import OPEN, FindingFilter, LabResultFilter, status_code
from .lab_import import RESULT_OFFICERS, UnusableFile, import_lab_file, read_upload, source_for
from .models import LabImport, LabMapping, LabResult

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
    """Upload a laboratory file: the report lists every failing row and field, or the result.
    A laboratory's own layout is read through the mapping chosen (:mod:`.mappings`)."""
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


# --- laboratory mappings ------------------------------------------------------------------------

MAPPING_COLUMNS = (
    Column("Id", "pk"),
    Column("Name", "name"),
    Column("Laboratory", "laboratory"),
    Column("Date format", lambda m: m.mapping.get("date_format", "")),
    Column("Updated", "updated_at"),
    Column("By", lambda m: m.updated_by.get_username() if m.updated_by else "office"),
)


@office_view(*services.MAPPERS)
def mapping_list(request: HttpRequest) -> HttpResponse:
    """The office's laboratory mappings, and the presets shipped with the project."""
    qs = LabMapping.objects.select_related("updated_by").order_by("name")
    if (download := export(request, qs, MAPPING_COLUMNS, "lab-mappings")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    presets = [layouts.preset(name) for name in layouts.preset_names()]
    return render(
        request,
        "monitoring/mapping_list.html",
        {"page": page, "query": query, "presets": presets},
    )


@office_view(*services.MAPPERS)
def mapping_detail(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(LabMapping.objects.select_related("updated_by"), pk=pk)
    problem = ""
    try:
        text = mappings.as_layout(record).to_yaml()
    except layouts.MappingError as e:  # stored by an older version, no longer valid
        problem, text = str(e), ""
    if request.GET.get("download") == "yaml" and text:
        response = HttpResponse(text, content_type="application/yaml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{record.pk}-mapping.yaml"'
        return response
    return render(
        request,
        "monitoring/mapping_detail.html",
        {"m": record, "yaml": text, "problem": problem, "timeline": audit.timeline(record)},
    )


@office_view(*services.MAPPERS)
def mapping_edit(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Write a mapping from a laboratory's sample file, without script, in steps of one form:
    *Read the sample* shows each column of the file and what the office reads in it, with a
    first draft of the mapping (nothing ambiguous chosen); *Check* reads the sample through
    the mapping and shows its first rows as the project reads them and every refusal; *Save*
    stores it (audited)."""
    record = get_object_or_404(LabMapping, pk=pk) if pk is not None else None
    action = request.POST.get("action", "") if request.method == "POST" else ""
    text = request.POST.get("sample_text", "") if request.method == "POST" else ""
    upload = request.FILES.get("sample") if request.method == "POST" else None
    sample_problem = ""
    if upload is not None:
        try:
            text = mappings.sample_text(read_upload(upload), upload.name or "sample.csv")
        except UnusableFile as e:
            sample_problem, text = str(e), ""
    frame = mappings.sample_frame(text)
    stored: dict[str, Any] = dict(record.mapping) if record is not None else {}
    suggestion = layouts.suggest(frame, request.POST.get("name", "")) if frame is not None else None
    # the form's initial values: the stored mapping, else the sample's draft
    draft = stored or (suggestion.draft if suggestion is not None else {})
    qualifier_header = request.POST.get("col_qualifier", "") if action in ("check", "save") else ""
    qualifier_header = qualifier_header or _header_of(draft.get("columns", {}).get("qualifier"))
    stored_qualifiers = stored.get("qualifiers")
    stored_codes = list(stored_qualifiers) if isinstance(stored_qualifiers, dict) else []
    codes = sorted(set(mappings.qualifier_codes(frame, qualifier_header)) | set(stored_codes))
    headers = list(frame.columns) if frame is not None else []
    for value in draft.get("columns", {}).values():
        for header in value if isinstance(value, list) else [value]:
            if header not in headers:
                headers.append(header)
    check = None
    status = 200
    if action in ("check", "save"):
        data = request.POST.copy()
        data["sample_text"] = text  # a new upload's sample rides along with the next step
        form = mforms.LabMappingForm(data, headers=headers, codes=codes)
        if form.is_valid() and form.mapping is not None:
            if frame is not None:
                check = mappings.check_sample(form.mapping, frame, "the sample")
            if action == "save" and not (check and check.unusable):
                try:
                    saved = services.save_lab_mapping(request.user, form.mapping, record)
                except OfficeError as e:
                    add_office_error(form, e)
                else:
                    messages.success(request, f"Mapping {saved.name} saved.")
                    return redirect("monitoring:mapping", saved.pk)
        if not form.is_valid() or (check and check.unusable) or action == "save":
            status = 400
    else:
        initial = _initial(draft, codes)
        initial["sample_text"] = text
        if request.method == "POST":  # what was typed before the sample was read is kept
            for key in ("name", "laboratory", "description"):
                initial[key] = request.POST.get(key, "") or initial.get(key, "")
        form = mforms.LabMappingForm(initial=initial, headers=headers, codes=codes)
        if sample_problem:
            status = 400
    return render(
        request,
        "monitoring/mapping_form.html",
        {
            "form": form,
            "record": record,
            "sample_problem": sample_problem,
            "readings": suggestion.readings if suggestion is not None else [],
            "questions": suggestion.questions if suggestion is not None and not stored else [],
            "rows": _column_rows(form),
            "code_rows": [(code, form[mforms.code_field(code)]) for code in codes],
            "check": check,
            "has_sample": frame is not None,
        },
        status=status,
    )


def _header_of(value: Any) -> str:
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return str(value or "")


def _initial(draft: dict[str, Any], codes: list[str]) -> dict[str, Any]:
    """The form's initial values from a mapping's dictionary (stored, or a sample's draft)."""
    initial: dict[str, Any] = {
        "name": draft.get("name", ""),
        "laboratory": draft.get("laboratory", ""),
        "description": draft.get("description", ""),
        "date_format": draft.get("date_format", ""),
        "timezone": draft.get("timezone", layouts.DEFAULT_TIMEZONE),
        "optional": list(draft.get("optional") or []),
    }
    for target, value in (draft.get("columns") or {}).items():
        headers = value if isinstance(value, list) else [value]
        initial[f"col_{target}"] = headers[0]
        if len(headers) > 1:
            initial[f"time_{target}"] = headers[1]
    for target, value in (draft.get("constants") or {}).items():
        initial[f"const_{target}"] = value
    qualifiers = draft.get("qualifiers")
    if isinstance(qualifiers, dict):
        for code in codes:
            if code in qualifiers:
                initial[mforms.code_field(code)] = qualifiers[code]
    analytes = draft.get("analytes") or {}
    initial["analytes"] = "\n".join(f"{k} = {v}" for k, v in analytes.items())
    return initial


def _column_rows(form: mforms.LabMappingForm) -> list[dict[str, Any]]:
    """One row of the mapping page per project column: its select, time select, constant."""
    rows = []
    for target in layouts.TARGETS:
        rows.append(
            {
                "target": target,
                "help": mforms.COLUMN_HELP.get(target, ""),
                "column": form[f"col_{target}"],
                "time": form[f"time_{target}"] if f"time_{target}" in form.fields else None,
                "constant": form[f"const_{target}"] if f"const_{target}" in form.fields else None,
            }
        )
    return rows


@office_view(*services.MAPPERS)
def mapping_delete(request: HttpRequest, pk: int) -> HttpResponse:
    record = get_object_or_404(LabMapping, pk=pk)
    if request.method == "POST":
        try:
            services.delete_lab_mapping(request.user, record)
        except OfficeError as e:
            messages.error(request, e.message)
            return redirect("monitoring:mapping", pk)
        messages.success(request, f"Mapping {record.name} deleted.")
        return redirect("monitoring:mappings")
    return render(request, "monitoring/mapping_delete.html", {"m": record})
