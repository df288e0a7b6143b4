"""Pages of the onboarding app: a town's spreadsheet of users and facilities imported in four
steps (upload → column mapping → preview → apply) and the imports made; the review queue of
rows without a parcel is :mod:`.review_views`, the column mappings kept :mod:`.mapping_views`.
Staff who import only (the clerk, the engineer, the Superintendent); every step works without
script."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import Blocked, OfficeError, upload_refused
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_office_error
from sewer_office.core.held_uploads import HeldUploads
from sewer_office.core.paging import page_of

from . import forms as oforms
from . import services
from .choices import ReviewState
from .importing import TARGETS, MappingSpec, Plan
from .models import ColumnMapping, FacilityImport, ReviewItem
from .services import IMPORT_ROLES, ImportRefused, PlanChanged
from .spreadsheet import Sheet, UnusableFile, read_sheet

PAGE_SIZE = 50
#: The uploaded spreadsheet waits here through the steps (upload, mapping, preview, apply),
#: found again by its SHA-256; its file name and the sheet asked for are kept beside it.
HELD = HeldUploads("onboarding-")
DATA_SUFFIX = ".data"
IMPORT_COLUMNS = (
    Column("Id", "pk"),
    Column("File", "source_name"),
    Column("Sheet", "sheet"),
    Column("Mapping", "mapping_name"),
    Column("Imported", "imported_at"),
    Column("By", lambda i: i.imported_by.get_username() if i.imported_by else "office"),
    Column("Rows", "row_count"),
    Column("New", "new_count"),
    Column("Changed", "changed_count"),
    Column("Unchanged", "unchanged_count"),
    Column("To review", "queued_count"),
    Column("New persons", "persons_new_count"),
    Column("SHA-256", "sha256"),
)


@office_view(*IMPORT_ROLES)
def index(request: HttpRequest) -> HttpResponse:
    qs = FacilityImport.objects.select_related("imported_by")
    if (download := export(request, qs, IMPORT_COLUMNS, "facility-imports")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "onboarding/index.html",
        {
            "page": page,
            "query": query,
            "open_items": ReviewItem.objects.filter(state=ReviewState.OPEN).count(),
            "mappings": ColumnMapping.objects.count(),
        },
    )


# --- the import, step by step ------------------------------------------------------------------


@dataclass(frozen=True)
class Held:
    """An upload kept between the steps: its bytes, digest, file name and sheet."""

    data: bytes
    digest: str
    name: str
    sheet: str


def _held(digest: str) -> Held:
    data = HELD.read(digest, suffix=DATA_SUFFIX)
    meta = HELD.meta(digest, suffix=DATA_SUFFIX)
    if data is None or meta is None:
        raise Http404("No upload is kept under that digest (uploads are kept a day).")
    return Held(data, digest, meta.get("name", ""), meta.get("sheet", ""))


def _sheet(request: HttpRequest, held: Held) -> Sheet | None:
    try:
        return read_sheet(held.data, held.name, held.sheet)
    except UnusableFile as e:
        messages.error(request, str(e))
        return None


@office_view(*IMPORT_ROLES)
def upload(request: HttpRequest) -> HttpResponse:
    """Step 1: the file, kept on the server by its SHA-256 for the next steps."""
    form = oforms.UploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            f = form.cleaned_data["file"]
            name = str(f.name or "upload")
            refusal = upload_refused(name, int(f.size))
            if refusal:
                form.add_error("file", refusal)
            else:
                data = f.read()
                sheet_name = form.cleaned_data["sheet"]
                try:
                    read_sheet(data, name, sheet_name)
                except UnusableFile as e:
                    form.add_error("file", str(e))
                else:
                    digest = HELD.keep_bytes(
                        data, suffix=DATA_SUFFIX, meta={"name": name, "sheet": sheet_name}
                    )
                    return redirect("onboarding:mapping-choose", digest)
    return render(request, "onboarding/upload.html", {"form": form}, status=status)


def _mapping_form(
    sheet: Sheet, data: Any, saved: ColumnMapping | None, kind_column: str
) -> oforms.MappingForm:
    words = sheet.values(kind_column) if kind_column else []
    initial = oforms.initial_for(sheet.header, words, saved)
    return oforms.MappingForm(data, header=sheet.header, words=words, initial=initial)


@office_view(*IMPORT_ROLES)
def mapping_choose(request: HttpRequest, digest: str) -> HttpResponse:
    """Step 2: which column holds each field (a saved mapping with the file's header is
    chosen for it), and what the words of the kind column mean. Not through
    ``form_action``: a step of a multi-step import whose form is shown again, unsaved, when
    the kind column changes (its words to be mapped), and whose sheet can be changed too."""
    held = _held(digest)
    if request.method == "POST" and "choose_sheet" in request.POST:
        wanted = request.POST.get("sheet", "")
        try:
            read_sheet(held.data, held.name, wanted)
        except UnusableFile as e:
            messages.error(request, str(e))
        else:
            HELD.set_meta(digest, {"name": held.name, "sheet": wanted}, suffix=DATA_SUFFIX)
        return redirect("onboarding:mapping-choose", digest)
    sheet = _sheet(request, held)
    if sheet is None:
        return redirect("onboarding:upload")
    saved = services.mapping_for_header(sheet.header)
    usable = [
        m
        for m in ColumnMapping.objects.order_by("name")
        if not MappingSpec.of(m).missing_in(sheet.header)
    ]
    status = 200
    if request.method == "POST":
        kind_column = request.POST.get("col_kind", "")
        shown = request.POST.get("shown_kind_column", "")
        form = _mapping_form(sheet, request.POST, saved, shown)
        status = 400
        if kind_column != shown:
            # the kind column changed: its words are shown to be mapped before saving
            form = _mapping_form(sheet, None, saved, kind_column)
            form.initial.update({k: v for k, v in request.POST.items() if k.startswith("col_")})
            form.initial["name"] = request.POST.get("name", "")
            messages.info(
                request, "Say what each word of the kind column means, then save the mapping."
            )
            kind_shown, status = kind_column, 200
        else:
            kind_shown = shown
            if form.is_valid():
                try:
                    mapping = services.save_mapping(
                        request.user,
                        name=form.cleaned_data["name"],
                        header=sheet.header,
                        columns=form.columns(),
                        kind_values=form.kind_values(),
                    )
                except OfficeError as e:
                    add_office_error(form, e, prefix="col_")
                else:
                    messages.success(request, f"Mapping “{mapping.name}” saved.")
                    url = reverse("onboarding:preview", args=[digest])
                    return redirect(f"{url}?mapping={mapping.pk}")
    else:
        kind_shown = (saved.columns.get("kind", "") if saved else "") or str(
            oforms.initial_for(sheet.header, [], None).get("col_kind", "")
        )
        form = _mapping_form(sheet, None, saved, kind_shown)
    return render(
        request,
        "onboarding/mapping.html",
        {
            "held": held,
            "sheet": sheet,
            "form": form,
            "saved": saved,
            "usable": usable,
            "kind_shown": kind_shown,
            "preview_url": reverse("onboarding:preview", args=[digest]),
        },
        status=status,
    )


def _mapping_of(request: HttpRequest, value: str) -> ColumnMapping | None:
    if not value.isdigit():
        return None
    return ColumnMapping.objects.filter(pk=int(value)).first()


def _preview_page(
    request: HttpRequest,
    held: Held,
    sheet: Sheet,
    mapping: ColumnMapping,
    plan: Plan,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "onboarding/preview.html",
        {
            "held": held,
            "sheet": sheet,
            "mapping": mapping,
            "plan": plan,
            "counts": plan.counts,
            "fingerprint": plan.fingerprint(),
            "labels": {t.name: t.label for t in TARGETS},
        },
        status=status,
    )


@office_view(*IMPORT_ROLES)
def preview(request: HttpRequest, digest: str) -> HttpResponse:
    """Step 3: what applying would do, row by row (computed here from the kept file)."""
    held = _held(digest)
    mapping = _mapping_of(request, request.GET.get("mapping", ""))
    if mapping is None:
        messages.error(request, "Choose a column mapping first.")
        return redirect("onboarding:mapping-choose", digest)
    sheet = _sheet(request, held)
    if sheet is None:
        return redirect("onboarding:upload")
    spec = MappingSpec.of(mapping)
    if missing := spec.missing_in(sheet.header):
        messages.error(
            request,
            f"The mapping “{mapping.name}” names columns this file lacks: {', '.join(missing)}.",
        )
        return redirect("onboarding:mapping-choose", digest)
    plan = services.preview(sheet, spec, request.user)
    return _preview_page(request, held, sheet, mapping, plan, 200 if not plan.refused else 400)


@require_POST
@office_view(*IMPORT_ROLES)
def apply(request: HttpRequest, digest: str) -> HttpResponse:
    """Step 4: the kept file applied through the mapping, planned again, all or nothing."""
    held = _held(digest)
    mapping = _mapping_of(request, request.POST.get("mapping", ""))
    if mapping is None:
        messages.error(request, "That column mapping no longer exists: choose one again.")
        return redirect("onboarding:mapping-choose", digest)
    sheet = _sheet(request, held)
    if sheet is None:
        return redirect("onboarding:upload")
    spec = MappingSpec.of(mapping)
    try:
        applied = services.apply_import(
            sheet,
            spec,
            request.user,
            digest=digest,
            expected=request.POST.get("fingerprint", ""),
        )
    except ImportRefused as e:
        messages.error(request, e.message)
        return _preview_page(request, held, sheet, mapping, e.plan, 400)
    except PlanChanged as e:
        messages.warning(request, e.message)
        return _preview_page(request, held, sheet, mapping, e.plan, 409)
    except Blocked as e:
        messages.warning(request, e.message)
        plan = services.preview(sheet, spec, request.user)
        return _preview_page(request, held, sheet, mapping, plan, 409)
    HELD.discard(digest, suffix=DATA_SUFFIX)
    imp = applied.facility_import
    messages.success(
        request,
        f"Imported {held.name}: {imp.new_count} new, {imp.changed_count} changed, "
        f"{imp.unchanged_count} unchanged, {imp.queued_count} to the review queue.",
    )
    return redirect("onboarding:import-detail", imp.pk)


@office_view(*IMPORT_ROLES)
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    imp = get_object_or_404(FacilityImport.objects.select_related("imported_by"), pk=pk)
    return render(
        request,
        "onboarding/import_detail.html",
        {
            "imp": imp,
            "items": imp.review_items.order_by("row"),
            "timeline": audit.timeline(imp),
        },
    )
