"""Turn the services' errors into API responses with the same messages the pages show, and
declare those answers in the OpenAPI schema.

Every refusal has one shape: ``{"detail": "<the first message>", "errors": <by field or by
row>}`` (``errors`` present when there is more than one thing to say). DRF's own validation
answers (a serializer's or a filterset's ``{"field": ["message"]}``) are put in that shape
here, so a client reads ``detail`` everywhere. :func:`document_errors` (a drf-spectacular
post-processing hook) adds the answers every operation can give — 400, 401, 403, 404, and 409
for a change — with that ``Error`` schema, so the schema names every status the API returns.
"""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from sewer_office.core.errors import InvalidInput, OfficeError, shorten


def _first_message(data: Any) -> str:
    if isinstance(data, dict):
        for key, value in data.items():
            text = _first_message(value)
            if text:
                return text if key in ("detail", "non_field_errors") else f"{key}: {text}"
        return ""
    if isinstance(data, list):
        return next((t for t in (_first_message(v) for v in data) if t), "")
    return shorten(str(data))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InvalidInput):
        return Response({"detail": exc.message, "errors": exc.errors}, status=exc.status_code)
    if isinstance(exc, OfficeError):
        return Response({"detail": exc.message}, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is not None and response.status_code == 400:
        data = response.data
        if not (isinstance(data, dict) and "detail" in data):
            response.data = {"detail": _first_message(data) or "invalid input", "errors": data}
    return response


#: The answers every operation may give, beyond its own: why, in a word.
_COMMON = {
    "400": "refused: the request is invalid (the message names the field, file or row)",
    "401": "not signed in (send a token: Authorization: Token <key>)",
    "403": "signed in without the role this needs, or the law reserves it to another",
    "404": "no such record among those you may see (or no such page of the list)",
}
_CHANGE = {"409": "not now: the record's state or a precondition of the law refuses it"}
_ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "what is wrong, in one sentence"},
        "errors": {
            "description": "by field (an object of lists of messages) or by row (a list)",
        },
    },
    "required": ["detail"],
}


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every operation declares the error answers."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = _ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            extra = _COMMON if method == "get" else {**_COMMON, **_CHANGE}
            for code, description in extra.items():
                declared = responses.get(code)
                if declared is None:
                    responses[code] = {
                        "description": description,
                        "content": {"application/json": {"schema": ref}},
                    }
                elif "content" not in declared:
                    declared["content"] = {"application/json": {"schema": ref}}
    return result
