"""The laboratories' column mappings: the list, one mapping, its editor (a sample of the
laboratory's file read and checked before it is saved) and its removal."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_io import lab_mapping as layouts
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_office_error
from sewer_office.core.paging import page_of
from sewer_office.monitoring import forms as mforms
from sewer_office.monitoring import mappings, services
from sewer_office.monitoring.lab_files import read_upload
from sewer_office.monitoring.lab_import import (
    UnusableFile,
)
from sewer_office.monitoring.models import LabMapping
from sewer_office.monitoring.views import PAGE_SIZE

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
    stores it (audited). Not through ``form_action``: one form in three steps, of which only
    *Save* calls a service, and *Check* refuses on the sample's rows, not on the form."""
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
