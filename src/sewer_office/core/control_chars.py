"""Control characters in a request: a clear 400 naming the field, before any view runs.

A NUL byte in a form field reached PostgreSQL (which cannot store it in text) and answered a
server error — before sign-in, from the user name. No record of the office may hold a control
character, so :class:`ControlCharacterMiddleware` refuses a request that sends one anywhere a
view could read text from: the address, a query parameter, a form field (its name and value),
an uploaded file's name, a JSON body's strings and keys at any depth, a cookie, the
``Authorization`` header. The answer is 400 with a message naming the field — in the API's
error shape (``{"detail": ...}``, naming the field; :mod:`sewer_office.api.errors`)
under ``/api/``, a plain page elsewhere — and nothing is read from the database first.

Which characters: the rule of the lowest layer (:data:`sewer_rules.hostile.CONTROL_PATTERN`,
which the file importers apply to every cell): NUL and the other C0 controls, but tab, line
feed and carriage return, which a text area legitimately sends. DEL (U+007F) and the C1 range
(U+0080–U+009F) are accepted: every database and page of the office holds and shows them
harmlessly, and they appear in text pasted from old Windows documents, which a refusal would
make the clerk retype; one rule for forms and files keeps a value accepted on a page accepted
in an import.

Not checked here: an uploaded file's content (binary; each reader checks its own, e.g.
:func:`sewer_rules.hostile.control_character` for a laboratory file's cells), a JSON body
larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (left to the API's parser and serializers, whose
text fields refuse NUL), and multipart bodies of methods other than POST (Django does not parse
them; DRF's text fields refuse NUL).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string

from sewer_rules.hostile import CONTROL_PATTERN, JSONRefused, control_character, loads_json

from .errors import shorten
from .uploads import discard_interrupted

_CONTROLS = re.compile(CONTROL_PATTERN)
#: The bodies read as JSON: ``application/json`` and any ``+json`` type (GeoJSON).
_JSON = re.compile(r"^application/([\w.-]+\+)?json$")
_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def printable(text: str) -> str:
    """``text`` with its control characters written as ``\\xNN`` (to quote it in a message)."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class Found:
    """The first control character of a request: where, which, and the message."""

    def __init__(self, field: str, character: str, where: str = "Field") -> None:
        self.field = field
        self.character = character
        self.message = (
            f"{where} '{shorten(field)}' contains a control character ({character}), which the "
            "office does not accept in any text: remove it and send again."
        )


def _in_pairs(pairs: Iterator[tuple[str, list[Any]]], where: str) -> Found | None:
    for key, values in pairs:
        found = control_character(key)
        if found:
            return Found(printable(key), found, f"The name of {where.lower()}")
        for value in values:
            text = value if isinstance(value, str) else str(getattr(value, "name", "") or "")
            found = control_character(text)
            if found:
                what = where if isinstance(value, str) else "The name of the file sent in field"
                return Found(key, found, what)
    return None


def in_json(data: Any) -> Found | None:
    """The first string or key holding a control character in decoded JSON (iteratively:
    the nesting is already bounded)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            found = control_character(item)
            if found:
                return Found(path or "(the body)", found)
        elif isinstance(item, dict):
            for key, value in item.items():
                child = f"{path}.{key}" if path else str(key)
                found = control_character(str(key))
                if found:
                    return Found(printable(child), found, "The name of field")
                stack.append((value, child))
        elif isinstance(item, list):
            stack.extend((value, f"{path}[{i}]") for i, value in enumerate(item))
    return None


def _json_body(request: HttpRequest) -> Found | None:
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if length == 0 or (limit is not None and length > limit):
        return None
    body = request.body
    # A control character in a JSON string is written \u00XX (raw, it is not JSON at all,
    # and the API's parser refuses it): no "\u", nothing to look for.
    if b"\\u" not in body:
        return None
    try:
        data = loads_json(body)
    except (JSONRefused, UnicodeDecodeError):
        return None  # not JSON the office reads: the API's parser says why
    return in_json(data)


def find(request: HttpRequest) -> Found | None:
    """The first control character the request sends where a view may read text, or None."""
    found = control_character(request.path_info)
    if found:
        return Found(printable(request.path_info), found, "The address")
    result = _in_pairs(iter(request.GET.lists()), "Query parameter")
    if result:
        return result
    media_type = (request.content_type or "").lower()
    if request.method == "POST" and media_type in _FORMS:
        try:
            result = _in_pairs(iter(request.POST.lists()), "Field") or _in_pairs(
                iter(request.FILES.lists()), "Field"
            )
        except BaseException:
            discard_interrupted(request)
            raise
        if result:
            return result
    elif _JSON.match(media_type):
        result = _json_body(request)
        if result:
            return result
    for name, value in request.COOKIES.items():
        found = control_character(name) or control_character(value)
        if found:
            return Found(printable(name), found, "Cookie")
    found = control_character(request.META.get("HTTP_AUTHORIZATION", ""))
    if found:
        return Found("Authorization", found, "Header")
    return None


def refusal(request: HttpRequest, message: str, field: str) -> HttpResponse:
    """The 400 answer: the API's error shape under ``/api/``, a page elsewhere (rendered
    without the request: nothing of the session or the database is touched)."""
    if request.path.startswith("/api/"):
        # "detail" alone: the one member every operation's declared 400 shares (some declare
        # "errors" as a list of rows, others as fields); the message names the field
        return JsonResponse({"detail": message}, status=400)
    page = render_to_string("core/refused_input.html", {"message": message})
    return HttpResponse(page, status=400)


class ControlCharacterMiddleware:
    """Refuse a request with a control character (see the module); placed early in
    ``MIDDLEWARE``, before the session and the user are looked up."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            found = find(request)
        except MultiPartParserError as e:
            return refusal(request, f"The form could not be read: {shorten(str(e))}.", "form")
        if found is not None:
            return refusal(request, found.message, found.field)
        return self.get_response(request)
