"""Pages of the core: health check, the role dashboard, the search, attachment downloads."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from sewer_office.accounts.access import can_see

from .decorators import office_view
from .models import Attachment
from .panels import dashboard_context, dashboard_panels, search_groups

#: A search shorter than this finds too much to be of use.
SEARCH_MIN_CHARS = 2


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 otherwise (for load balancers and monitors)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as e:
        return JsonResponse({"status": "error", "database": str(e)[:200]}, status=503)
    return JsonResponse({"status": "ok", "database": connection.vendor})


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
    return FileResponse(handle, as_attachment=True, filename=att.filename)
