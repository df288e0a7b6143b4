"""Request ids and logs as JSON lines.

:class:`RequestIdMiddleware` gives each request an id — the ``X-Request-ID`` header the
reverse proxy sent (nginx's ``$request_id``, when it is a plausible id), or a new one — puts
it in every log record written while the request runs, echoes it in the response's
``X-Request-ID`` header, and writes one access line per request (logger
``sewer_office.request``: method, path, status, duration, user id).

:class:`JsonFormatter` writes each log record as one JSON object per line (time in UTC,
level, logger, message, request id, and the exception's traceback if any), which log
collectors (journald, Loki, CloudWatch...) read without a pattern.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
_ACCEPTED = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
request_id: ContextVar[str] = ContextVar("sewer_use_request_id", default="")
access_log = logging.getLogger("sewer_office.request")


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        rid = given if _ACCEPTED.match(given) else uuid.uuid4().hex
        request.request_id = rid  # type: ignore[attr-defined]
        token = request_id.set(rid)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[HEADER] = rid
            user = getattr(request, "user", None)
            access_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "user_id": user.pk if user is not None and user.is_authenticated else None,
                },
            )
            return response
        finally:
            request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` (empty outside a request) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


#: Attributes every LogRecord has: what is not among them was passed as ``extra``.
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "") or request_id.get(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)
