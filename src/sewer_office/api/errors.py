"""Turn the services' errors into API responses with the same messages the pages show."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from sewer_office.core.errors import InvalidInput, OfficeError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InvalidInput):
        return Response({"detail": exc.message, "errors": exc.errors}, status=exc.status_code)
    if isinstance(exc, OfficeError):
        return Response({"detail": exc.message}, status=exc.status_code)
    return drf_exception_handler(exc, context)
