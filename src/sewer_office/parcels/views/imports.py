"""The imports' pages: the list of imports with the reviews waiting, and the import of a roll
or of the districts (upload → preview → apply).

Staff read the list (the roll is a public record); importing is the clerk's, the engineer's and
the Superintendent's. An uploaded file waits on the server between its preview and its
application, and is read and classified again when applied.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from sewer_io.parcels import ParcelFileError, read_districts, read_parcels
from sewer_office.accounts.roles import STAFF_ROLES, has_role
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError, shorten, upload_refused
from sewer_office.core.exports import Column, export
from sewer_office.core.held_uploads import HeldUploads
from sewer_office.core.paging import page_of
from sewer_office.parcels import districts, services
from sewer_office.parcels.choices import ImportKind, ReviewState
from sewer_office.parcels.districts import DistrictPreview
from sewer_office.parcels.forms import UPLOAD_SUFFIXES, ApplyForm, RollUploadForm, UploadForm
from sewer_office.parcels.models import ParcelReview, RollImport
from sewer_office.parcels.services import RollPreview

IMPORTERS = services.IMPORTERS
PAGE_SIZE = 50
#: Rows of the row report shown on the preview page (all of them in the command's JSON).
REPORT_ROWS = 500
#: An uploaded roll or districts file waits here between its preview and its application,
#: held under its kind and SHA-256 and read and classified again when applied.
HELD = HeldUploads("parcels-")
#: What a file read gives before it is applied: a roll's preview or a districts file's.
Preview = RollPreview | DistrictPreview

IMPORT_COLUMNS = (
    Column("Import", "pk"),
    Column("Kind", "get_kind_display"),
    Column("File", "source_name"),
    Column("SHA-256", "sha256"),
    Column("Coordinates", "crs"),
    Column("Imported", "imported_at"),
    Column("Roll date", "roll_date"),
    Column("By", lambda i: i.imported_by.get_username() if i.imported_by else "office"),
    Column("Rows", "rows"),
    Column("New", "new_count"),
    Column("Changed", "changed_count"),
    Column("Unchanged", "unchanged_count"),
    Column("Held for review", "review_count"),
    Column("Owner changes", "owner_change_count"),
    Column("Service areas assigned", "areas_assigned"),
)


@office_view(*STAFF_ROLES)
def index(request: HttpRequest) -> HttpResponse:
    """The imports, newest first, and the reviews waiting for the clerk."""
    qs = RollImport.objects.select_related("imported_by").order_by("-imported_at", "-id")
    if (download := export(request, qs, IMPORT_COLUMNS, "parcel-imports")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "parcels/index.html",
        {
            "page": page,
            "query": query,
            "pending": ParcelReview.objects.filter(state=ReviewState.PENDING)
            .select_related("roll_import")
            .order_by("id"),
            "decided": ParcelReview.objects.exclude(state=ReviewState.PENDING)
            .select_related("decided_by")
            .order_by("-decided_at", "-id")[:20],
            "may_import": has_role(request.user, *IMPORTERS),
        },
    )


# --- upload, preview, apply ---------------------------------------------------------------------


def _seen(preview: Preview) -> str:
    """The figures a preview showed, to find out at application whether anything moved."""
    c = preview.counts
    return ",".join(
        str(x)
        for x in (
            c.get("new", 0),
            c.get("changed", 0),
            c.get("unchanged", 0),
            c.get("review", 0),
            preview.owner_changes.height if isinstance(preview, RollPreview) else 0,
            preview.moves.height if isinstance(preview, DistrictPreview) else 0,
        )
    )


def _read(kind: str, path: Path, name: str, crs: str) -> Preview:
    if kind == ImportKind.ROLL:
        return services.preview(read_parcels(path, name=name, crs=crs or None))
    return districts.preview_districts(read_districts(path, name=name, crs=crs or None))


def _keep(upload: UploadedFile[bytes], kind: str) -> tuple[Path, str, str]:
    """Hold ``upload`` until it is applied: its path, SHA-256 and suffix.
    :class:`ParcelFileError` for a file refused by its name or size."""
    name = str(getattr(upload, "name", "") or "upload")
    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise ParcelFileError(
            f"{shorten(name)}: not a file the import reads (it reads "
            f"{', '.join(UPLOAD_SUFFIXES)}; a Shapefile is uploaded zipped)"
        )
    refusal = upload_refused(name, int(upload.size or 0), "SEWER_USE_MAX_ROLL_UPLOAD_BYTES")
    if refusal:
        raise ParcelFileError(refusal)
    kept = HELD.keep(upload.chunks(), owner=kind, suffix=suffix)
    return kept.path, kept.sha256, suffix


def _import_page(request: HttpRequest, kind: str) -> HttpResponse:
    """Upload → preview → apply. Written by hand rather than with ``form_action``: a two-step
    preview/confirm whose upload has checks of its own (name, size, the file read)."""
    roll = kind == ImportKind.ROLL
    template = "parcels/import.html"
    form_class = RollUploadForm if roll else UploadForm
    context: dict[str, Any] = {"roll": roll, "kind": kind, "report_rows": REPORT_ROWS}
    if request.method == "POST" and request.POST.get("step") == "apply":
        return _apply(request, kind, form_class, context)
    form = form_class(request.POST or None, request.FILES or None)
    context["form"] = form
    if request.method != "POST":
        return render(request, template, context)
    if not form.is_valid():
        return render(request, template, context, status=400)
    upload = form.cleaned_data["file"]
    crs = form.cleaned_data.get("crs") or ""
    try:
        path, sha, suffix = _keep(upload, kind)
        preview = _read(kind, path, upload.name, crs)
    except ParcelFileError as e:
        form.add_error("file", str(e))
        return render(request, template, context, status=400)
    roll_date = form.cleaned_data.get("roll_date")
    context.update(_preview_context(preview, sha, suffix, crs, roll_date))
    if not preview.ok:
        HELD.discard(sha, owner=kind, suffix=suffix)
    return render(request, template, context, status=200 if preview.ok else 400)


def _preview_context(
    preview: Preview, sha: str, suffix: str, crs: str, roll_date: date | None
) -> dict[str, Any]:
    data = preview.as_dict()
    listed = [r for r in data["rows"] if r["outcome"] != "unchanged"]
    return {
        "preview": preview,
        "data": data,
        "listed": listed[:REPORT_ROWS],
        "more": max(0, len(listed) - REPORT_ROWS),
        "apply_form": ApplyForm(
            initial={
                "sha256": sha,
                "name": preview.source,
                "suffix": suffix,
                "crs": crs,
                "roll_date": roll_date,
                "seen": _seen(preview),
            }
        )
        if preview.ok
        else None,
        "roll_date": roll_date,
    }


def _apply(
    request: HttpRequest, kind: str, form_class: type[UploadForm], context: dict[str, Any]
) -> HttpResponse:
    """The confirm step: the held file read and classified again, then applied. Not
    ``form_action``: the second step of a preview/confirm import, whose refusals (a file gone,
    the register moved: 409) are shown on the preview rather than on a form's fields."""
    template = "parcels/import.html"
    context["form"] = form_class()
    apply_form = ApplyForm(request.POST)
    if not apply_form.is_valid() or (
        kind == ImportKind.ROLL and not apply_form.cleaned_data.get("roll_date")
    ):
        context["error"] = "The preview's form was incomplete: upload the file again."
        return render(request, template, context, status=400)
    d = apply_form.cleaned_data
    path = HELD.find(d["sha256"], owner=kind, suffix=d["suffix"])
    if path is None:
        context["error"] = (
            "The previewed file is no longer on the server (a day passed, or it was "
            "applied): upload it again."
        )
        return render(request, template, context, status=400)
    try:
        preview = _read(kind, path, d["name"], d["crs"])
    except ParcelFileError as e:
        context["error"] = str(e)
        return render(request, template, context, status=400)
    context.update(_preview_context(preview, d["sha256"], d["suffix"], d["crs"], d["roll_date"]))
    if _seen(preview) != d["seen"]:
        context["moved"] = True  # the register changed since: the new figures, applied on request
        return render(request, template, context, status=409)
    try:
        if isinstance(preview, RollPreview):
            imp = services.apply(preview, request.user, d["roll_date"])
        else:
            imp = districts.apply_districts(preview, request.user)
    except OfficeError as e:
        context["error"] = e.message
        return render(request, template, context, status=e.status_code)
    HELD.discard(d["sha256"], owner=kind, suffix=d["suffix"])
    messages.success(
        request,
        f"{imp.source_name}: applied as import #{imp.pk} — {imp.new_count} new, "
        f"{imp.changed_count} changed, {imp.unchanged_count} unchanged"
        + (f", {imp.review_count} held for review" if imp.review_count else "")
        + (f", {imp.owner_change_count} owner changes" if imp.owner_change_count else "")
        + ".",
    )
    return redirect("parcels:index")


@office_view(*IMPORTERS)
def import_roll(request: HttpRequest) -> HttpResponse:
    return _import_page(request, ImportKind.ROLL)


@office_view(*IMPORTERS)
def import_districts(request: HttpRequest) -> HttpResponse:
    return _import_page(request, ImportKind.DISTRICTS)
