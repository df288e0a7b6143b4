"""The database lost in the middle of a request: a clear 503 page, nothing half-written.

Every write of the office runs in one transaction (services, ``core.services.perform``), so a
connection that drops mid-request rolls the whole write back on the server. This middleware
turns the resulting :class:`django.db.OperationalError` / :class:`~django.db.InterfaceError`
into a 503 response — the ``503.html`` page, or a JSON body under ``/api/`` — instead of a
server error, and closes the broken connection so the next request opens a new one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger("sewer_office.database")

MESSAGE = (
    "The office's database is not answering. Nothing of this request was saved; "
    "try again in a minute."
)
RETRY_AFTER = "30"


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error(
            "database unavailable during %s %s: %s", request.method, request.path, exception
        )
        for conn in connections.all(initialized_only=True):
            with contextlib.suppress(Exception):
                conn.close()
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse(
                {"detail": MESSAGE, "errors": {"database": ["unavailable"]}}, status=503
            )
        else:
            # No request context: rendering must not need the database that just failed.
            response = HttpResponse(render_to_string("503.html", {"message": MESSAGE}), status=503)
        response["Retry-After"] = RETRY_AFTER
        return response
