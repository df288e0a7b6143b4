"""Pages of the core: health check, the role dashboard, and attachment downloads."""

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
from .panels import dashboard_context, dashboard_panels


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
