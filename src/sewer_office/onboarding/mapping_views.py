"""The column mappings kept for the town's spreadsheets: the list, one mapping's editor (which
column holds each field, what the words of the kind column mean) and its removal."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.exports import Column, export
from sewer_office.core.form_actions import form_action
from sewer_office.core.paging import page_of
from sewer_office.registry.choices import EstablishmentKind

from . import forms as oforms
from . import services
from .models import ColumnMapping
from .services import IMPORT_ROLES
from .views import PAGE_SIZE

#: Blank pairs of "another word → kind" offered on a mapping's page.
EXTRA_WORDS = 3


def _kind_label(kind: str) -> str:
    return str(EstablishmentKind(kind).label) if kind in EstablishmentKind.values else kind


MAPPING_COLUMNS = (
    Column("Id", "pk"),
    Column("Name", "name"),
    Column("Columns", lambda m: len(m.columns)),
    Column(
        "Kind words",
        lambda m: ", ".join(f"{w} = {_kind_label(k)}" for w, k in m.kind_values.items()),
    ),
    Column("Created", "created_at"),
    Column("Changed", "updated_at"),
    Column("By", lambda m: m.created_by.get_username() if m.created_by else ""),
)


@office_view(*IMPORT_ROLES)
def mapping_list(request: HttpRequest) -> HttpResponse:
    qs = ColumnMapping.objects.select_related("created_by").order_by("name")
    if (download := export(request, qs, MAPPING_COLUMNS, "column-mappings")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(request, "onboarding/mapping_list.html", {"page": page, "query": query})


@office_view(*IMPORT_ROLES)
def mapping_edit(request: HttpRequest, pk: int) -> HttpResponse:
    mapping = get_object_or_404(ColumnMapping, pk=pk)
    words = list(mapping.kind_values)
    initial = oforms.initial_for(mapping.header, words, mapping)
    form = oforms.MappingForm(
        request.POST or None,
        header=list(mapping.header),
        words=words,
        extra_words=EXTRA_WORDS,
        initial=initial,
    )

    def save(d: dict[str, Any]) -> ColumnMapping:
        return services.save_mapping(
            request.user,
            name=d["name"],
            header=list(mapping.header),
            columns=form.columns(),
            kind_values=form.kind_values(),
            mapping=mapping,
        )

    def saved(_: ColumnMapping) -> HttpResponse:
        messages.success(request, f"Mapping “{form.cleaned_data['name']}” saved.")
        return redirect("onboarding:mappings")

    return form_action(request, form, save, prefix="col_").respond(
        then=saved,
        show=lambda status: render(
            request,
            "onboarding/mapping_edit.html",
            {"mapping": mapping, "form": form, "timeline": audit.timeline(mapping)},
            status=status,
        ),
    )


@office_view(*IMPORT_ROLES)
def mapping_delete(request: HttpRequest, pk: int) -> HttpResponse:
    mapping = get_object_or_404(ColumnMapping, pk=pk)
    if request.method == "POST":
        services.delete_mapping(request.user, mapping)
        messages.success(request, f"Mapping “{mapping.name}” deleted.")
        return redirect("onboarding:mappings")
    return render(request, "onboarding/mapping_delete.html", {"mapping": mapping})
