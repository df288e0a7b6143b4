"""Pages of the core: health check, the role dashboard, the search, attachment downloads."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from sewer_office.accounts.access import can_see
from sewer_office.accounts.roles import CLERK, ENGINEER, SUPERINTENDENT

from . import db_roles, filetypes
from .decorators import office_view
from .models import Attachment
from .panels import dashboard_context, dashboard_panels, imports_panels, search_groups

#: A search shorter than this finds too much to be of use.
SEARCH_MIN_CHARS = 2


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on their own (a PDF or a JSON answer links no
    icon): the office's mark, wherever the static files are served from."""
    return redirect(static("office/favicon-32.png"), permanent=True)


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: 200 while the process answers (no database query: a probe that restarts the
    server must not do so because the database is down)."""
    return JsonResponse({"status": "ok"})


@require_GET
@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: 200 when the office can serve — the database answers, every migration is
    applied, the uploads' disk has more free space than ``SEWER_USE_MIN_FREE_BYTES`` — else
    503 with the check that failed (for load balancers and monitors). A database role that
    owns the office's tables, or is a superuser, is a ``warning`` of the database check: still
    200, but the triggers guarding the records of legal weight are its to disable."""
    checks: dict[str, Any] = {}
    ok = True
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = {"ok": True, "vendor": connection.vendor}
        found = db_roles.exposure(connection)
        if found is not None:  # it serves, but could lift the guards of its records
            checks["database"]["warning"] = db_roles.exposure_message(found)
    except Exception as e:
        ok = False
        checks["database"] = {"ok": False, "error": str(e)[:200]}
    if checks["database"]["ok"]:
        try:
            executor = MigrationExecutor(connection)
            pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
            checks["migrations"] = {
                "ok": not pending,
                "pending": [f"{m.app_label}.{m.name}" for m, _ in pending],
            }
            ok = ok and not pending
        except Exception as e:
            ok = False
            checks["migrations"] = {"ok": False, "error": str(e)[:200]}
    media = Path(settings.MEDIA_ROOT)
    probe = media if media.exists() else Path(settings.DATA_DIR)
    free = shutil.disk_usage(probe).free
    minimum = int(settings.SEWER_USE_MIN_FREE_BYTES)
    checks["disk"] = {"ok": free > minimum, "free_bytes": free, "min_free_bytes": minimum}
    ok = ok and free > minimum
    return JsonResponse(
        {"status": "ok" if ok else "unavailable", **checks}, status=200 if ok else 503
    )


@office_view()
def dashboard(request: HttpRequest) -> HttpResponse:
    context = dashboard_context(request)
    context["panels"] = dashboard_panels(request)
    return render(request, "core/dashboard.html", context)


@office_view()
def search(request: HttpRequest) -> HttpResponse:
    """``/search/?q=``: properties, facilities, persons, permits and manholes matching ``q``,
    among what this user may see (an outside user: their own), from every app's hook."""
    q = request.GET.get("q", "").strip()
    groups = search_groups(request, q) if len(q) >= SEARCH_MIN_CHARS else []
    return render(
        request,
        "core/search.html",
        {"q": q, "search_q": q, "groups": groups, "too_short": 0 < len(q) < SEARCH_MIN_CHARS},
    )


@office_view()
def download_attachment(request: HttpRequest, pk: int) -> FileResponse:
    """A file, only to someone who may see the record it belongs to (else 404, as if absent)."""
    att = get_object_or_404(Attachment.objects.select_related("content_type"), pk=pk)
    record: Any = att.record
    if record is None or not can_see(request.user, record):
        raise Http404("No such file.")
    try:
        handle = att.file.open("rb")
    except FileNotFoundError:
        raise Http404("The file is missing from storage.") from None
    return attachment_response(att, handle)


def attachment_response(att: Attachment, handle: Any) -> FileResponse:
    """``att``'s bytes served as the type its content was checked to be — never the type its
    name suggests: a picture a browser shows may be shown in the page, every other kind is a
    download (``Content-Disposition: attachment``), and bytes of no known kind (a file stored
    before types were recorded) are ``application/octet-stream``, a download."""
    filetype = filetypes.by_media_type(att.media_type) or filetypes.sniff_upload(handle)
    return FileResponse(
        handle,
        as_attachment=filetype is None or not filetype.inline,
        filename=filetypes.download_name(att.filename, filetype),
        content_type=filetype.media_type if filetype else filetypes.UNKNOWN,
    )


#: Who brings records in: the office's clerk, its engineer and the Superintendent.
IMPORTERS = (CLERK, ENGINEER, SUPERINTENDENT)


@office_view(*IMPORTERS)
def imports(request: HttpRequest) -> HttpResponse:
    """``/imports/``: where a town's records come in — its parcel roll and districts, its users
    and facilities, its laboratories' files, its records of the past — each app's panel with
    its import page and what waits for the clerk; and how everything goes out again."""
    return render(request, "core/imports.html", {"panels": imports_panels(request)})
