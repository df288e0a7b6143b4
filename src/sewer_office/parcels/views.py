"""The parcels pages: the imports and the reviews waiting, the import of a roll or of the
districts (upload → preview → apply), a review's decision, and the map of parcels and districts.

Staff read them (the roll is a public record; the pages list every owner); importing and
deciding a review are the clerk's, the engineer's and the Superintendent's. Outside users get
403. Without JavaScript, the map page is a table of the parcels (paged, downloadable).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Min
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from sewer_io.orpts import CODES
from sewer_io.parcels import ParcelFileError, read_districts, read_parcels
from sewer_office.accounts.roles import STAFF_ROLES, has_role
from sewer_office.core import audit
from sewer_office.core.decorators import office_view
from sewer_office.core.errors import OfficeError, shorten, upload_refused
from sewer_office.core.exports import Column, export
from sewer_office.core.forms import add_office_error
from sewer_office.core.held_uploads import HeldUploads
from sewer_office.core.paging import page_of
from sewer_office.registry.models import Property, ServiceArea

from . import districts, reviews, services
from .choices import ImportKind, ReviewState
from .forms import UPLOAD_SUFFIXES, ApplyForm, DecisionForm, RollUploadForm, UploadForm
from .models import ParcelReview, RollImport

IMPORTERS = services.IMPORTERS
PAGE_SIZE = 50
#: The most parcels the map's JSON gives for one view; zoomed out further, the map says how
#: many there are and asks to zoom in (a county has 100,000).
MAP_PARCELS = 2000
#: Rows of the row report shown on the preview page (all of them in the command's JSON).
REPORT_ROWS = 500
#: An uploaded roll or districts file waits here between its preview and its application,
#: held under its kind and SHA-256 and read and classified again when applied.
HELD = HeldUploads("parcels-")

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
PARCEL_COLUMNS = (
    Column("Tax parcel id", "parcel_id"),
    # identifiers written with digits: kept as text, with their separator and label
    Column("Roll key (SWIS/SBL)", lambda p: f"{p.swis}/{p.sbl}"),
    Column("Class", lambda p: f"{p.property_class} {CODES.get(p.property_class, '')}".strip()),
    Column("Address", "address"),
    Column("Owner", "owner.name"),
    Column("Service area", lambda p: p.service_area.name if p.service_area else ""),
    Column("Longitude", "lon"),
    Column("Latitude", "lat"),
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


def _seen(preview: Any) -> str:
    """The figures a preview showed, to find out at application whether anything moved."""
    c = preview.counts
    return ",".join(
        str(x)
        for x in (
            c.get("new", 0),
            c.get("changed", 0),
            c.get("unchanged", 0),
            c.get("review", 0),
            getattr(getattr(preview, "owner_changes", None), "height", 0),
            getattr(getattr(preview, "moves", None), "height", 0),
        )
    )


def _read(kind: str, path: Any, name: str, crs: str) -> Any:
    if kind == ImportKind.ROLL:
        return services.preview(read_parcels(path, name=name, crs=crs or None))
    return districts.preview_districts(read_districts(path, name=name, crs=crs or None))


def _keep(upload: Any, kind: str) -> tuple[Path, str, str]:
    """Hold ``upload`` until it is applied: its path, SHA-256 and suffix.
    :class:`ParcelFileError` for a file refused by its name or size."""
    name = str(getattr(upload, "name", "") or "upload")
    suffix = Path(name).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        raise ParcelFileError(
            f"{shorten(name)}: not a file the import reads (it reads "
            f"{', '.join(UPLOAD_SUFFIXES)}; a Shapefile is uploaded zipped)"
        )
    refusal = upload_refused(name, int(upload.size), "SEWER_USE_MAX_ROLL_UPLOAD_BYTES")
    if refusal:
        raise ParcelFileError(refusal)
    kept = HELD.keep(upload.chunks(), owner=kind, suffix=suffix)
    return kept.path, kept.sha256, suffix


def _import_page(request: HttpRequest, kind: str) -> HttpResponse:
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


def _preview_context(preview: Any, sha: str, suffix: str, crs: str, roll_date: Any) -> Any:
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


def _apply(request: HttpRequest, kind: str, form_class: Any, context: Any) -> HttpResponse:
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
        if kind == ImportKind.ROLL:
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


# --- reviews ------------------------------------------------------------------------------------


class _ReviewStates:
    """A review's states by their labels on the timeline (its moves are the services')."""

    @staticmethod
    def label(value: str) -> str:
        return str(dict(ReviewState.choices).get(value, value))


@office_view(*STAFF_ROLES)
def review_detail(request: HttpRequest, pk: int) -> HttpResponse:
    review = get_object_or_404(
        ParcelReview.objects.select_related("roll_import", "decided_by"), pk=pk
    )
    form = DecisionForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if not has_role(request.user, *IMPORTERS):
            raise PermissionDenied(
                "Deciding a review is for the clerk, the engineer and the Superintendent."
            )
        if form.is_valid():
            decide = (
                reviews.confirm if form.cleaned_data["decision"] == "confirm" else reviews.reject
            )
            try:
                decided = decide(review, request.user, form.cleaned_data["note"])
            except OfficeError as e:
                add_office_error(form, e)
                status = e.status_code
            else:
                messages.success(request, f"{decided}: {decided.get_state_display().lower()}.")
                return redirect("parcels:review", decided.pk)
        else:
            status = 400
    created = Property.objects.filter(pk__in=review.created).order_by("parcel_id")
    return render(
        request,
        "parcels/review.html",
        {
            "review": review,
            "form": form,
            "created": created,
            "may_decide": has_role(request.user, *IMPORTERS)
            and review.state == ReviewState.PENDING,
            "timeline": audit.timeline(review),
            "workflow": _ReviewStates(),
        },
        status=status,
    )


# --- the map ------------------------------------------------------------------------------------


@office_view(*STAFF_ROLES)
def map_page(request: HttpRequest) -> HttpResponse:
    """The map (Leaflet) of parcels and districts; without JavaScript, the parcels' table."""
    qs = (
        Property.objects.exclude(geometry="")
        .select_related("owner", "service_area")
        .order_by("parcel_id")
    )
    if (download := export(request, qs, PARCEL_COLUMNS, "parcels")) is not None:
        return download
    page, query = page_of(request, qs, PAGE_SIZE)
    return render(
        request,
        "parcels/map.html",
        {
            "page": page,
            "query": query,
            "areas": ServiceArea.objects.exclude(boundary="").order_by("code"),
            "tile_url": settings.SEWER_USE_MAP_TILE_URL,
            "tile_attribution": settings.SEWER_USE_MAP_TILE_ATTRIBUTION,
            "cap": MAP_PARCELS,
        },
    )


def _bbox(text: str) -> tuple[float, float, float, float] | None:
    try:
        w, s, e, n = (float(x) for x in text.split(","))
    except ValueError:
        return None
    if not (-180 <= w <= e <= 180 and -90 <= s <= n <= 90):
        return None
    return w, s, e, n


@require_GET
@office_view(*STAFF_ROLES)
def map_data(request: HttpRequest) -> HttpResponse:
    """GeoJSON of the districts and of the parcels whose point lies in ``?bbox=w,s,e,n``
    (at most :data:`MAP_PARCELS`; more in view: none, with their number). Without a bbox:
    the districts, the extent of every parcel, and no parcel."""
    with_points = Property.objects.exclude(geometry="").filter(lon__isnull=False)
    features: list[dict[str, Any]] = []
    for area in ServiceArea.objects.exclude(boundary="").order_by("code"):
        features.append(
            {
                "type": "Feature",
                "geometry": json.loads(area.boundary),
                "properties": {"kind": "district", "code": area.code, "name": area.name},
            }
        )
    extent = with_points.aggregate(w=Min("lon"), s=Min("lat"), e=Max("lon"), n=Max("lat"))
    body: dict[str, Any] = {
        "type": "FeatureCollection",
        "features": features,
        "extent": [extent["w"], extent["s"], extent["e"], extent["n"]]
        if extent["w"] is not None
        else None,
        "cap": MAP_PARCELS,
    }
    raw = request.GET.get("bbox", "")
    if raw:
        box = _bbox(raw)
        if box is None:
            return JsonResponse(
                {"detail": "bbox: four numbers west,south,east,north in degrees"}, status=400
            )
        w, s, e, n = box
        inside = with_points.filter(lon__gte=w, lon__lte=e, lat__gte=s, lat__lte=n)
        total = inside.count()
        body["in_view"] = total
        if total <= MAP_PARCELS:
            for pk, parcel, address, owner, cls, geometry in inside.order_by("id").values_list(
                "id", "parcel_id", "address", "owner__name", "property_class", "geometry"
            ):
                features.append(
                    {
                        "type": "Feature",
                        "geometry": json.loads(geometry),
                        "properties": {
                            "kind": "parcel",
                            "id": pk,
                            "parcel_id": parcel,
                            "address": address,
                            "owner": owner,
                            "class": cls,
                        },
                    }
                )
    return JsonResponse(body)


__all__ = [
    "import_districts",
    "import_roll",
    "index",
    "map_data",
    "map_page",
    "review_detail",
]
