"""Token issue and the API's documentation page.

``/api/docs/`` renders the OpenAPI schema (drf-spectacular) as a plain server-side HTML page
with a table of contents; ``/api/docs/redoc/`` is the same schema in Redoc (its navigation
pane, search and examples), whose JavaScript ships in our static files
(drf-spectacular-sidecar), so nothing is fetched from a CDN.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from drf_spectacular.views import SpectacularRedocView
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import PermissionDenied, Throttled, ValidationError
from rest_framework.response import Response

from sewer_office.accounts import second_factor, throttle
from sewer_office.core.decorators import office_view

from .permissions import NOT_ENROLLED


class TokenView(ObtainAuthToken):
    """``POST /api/token/`` with ``username``, ``password`` and, where the account has an
    authenticator (or its role requires one), ``otp`` → ``{"token": "..."}``.

    The same rules as the sign-in page (:mod:`sewer_office.accounts.throttle`): 429 with
    ``Retry-After`` while the name is paused at this address, the address is paused, or the
    name is slowed after failures from many addresses — a right ``otp`` lets an attempt through
    the slow-down. (The page's known-device cookie is a browser's: API clients give ``otp``.)
    A wrong code fails like a wrong password."""

    @extend_schema(
        tags=["Authentication"],
        summary="Obtain an API token",
        request=inline_serializer(
            "TokenRequest",
            {
                "username": serializers.CharField(),
                "password": serializers.CharField(),
                "otp": serializers.CharField(
                    required=False,
                    help_text="the code of the account's authenticator app, or a recovery code",
                ),
            },
        ),
        responses={
            200: inline_serializer("TokenResponse", {"token": serializers.CharField()}),
            429: OpenApiResponse(
                description="sign-in paused or slowed after repeated failures (Retry-After "
                "says how long)"
            ),
        },
    )
    def post(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        data = request.data if hasattr(request.data, "get") else {}
        fields = {name: data.get(name) for name in ("username", "password", "otp")}
        errors = {
            name: ["This field is required."]
            for name in ("username", "password")
            if not fields[name]
        }
        errors.update(
            {
                name: ["Not a valid string."]
                for name, value in fields.items()
                if value is not None and not isinstance(value, str)
            }
        )
        if errors:
            raise ValidationError(errors)
        username, password, otp = str(fields["username"]), str(fields["password"]), fields["otp"]
        user = authenticate(
            request._request, username=username, password=password, otp_token=otp or None
        )
        if user is None:
            pause = throttle.refused(request._request)
            if pause is not None:
                raise Throttled(wait=pause.seconds_left(), detail=pause.message(username))
            raise ValidationError(
                {"non_field_errors": ["Unable to log in with provided credentials."]}
            )
        if second_factor.normalise(otp) == "":
            if second_factor.has_device(user):
                raise ValidationError(
                    {"otp": ["This account signs in with the code of its authenticator app."]}
                )
            if second_factor.required_for(user):
                raise PermissionDenied(NOT_ENROLLED)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


_METHODS = ("get", "post", "put", "patch", "delete")


def _schema_ref(obj: Any) -> str:
    if not isinstance(obj, dict):
        return ""
    if "$ref" in obj:
        return str(obj["$ref"]).rsplit("/", 1)[-1]
    if obj.get("type") == "array":
        return f"list of {_schema_ref(obj.get('items', {}))}"
    return str(obj.get("type", ""))


def _response_ref(response: dict[str, Any]) -> str:
    media: dict[str, Any] = next(iter(response.get("content", {}).values()), {})
    return _schema_ref(media.get("schema", {}))


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    ops = []
    for path, item in schema.get("paths", {}).items():
        for method in _METHODS:
            op = item.get(method)
            if not op:
                continue
            body = op.get("requestBody", {}).get("content", {})
            body_ref = next((_schema_ref(c.get("schema", {})) for c in body.values()), "")
            ops.append(
                {
                    "path": path,
                    "method": method.upper(),
                    "summary": op.get("summary") or op.get("operationId", ""),
                    "description": op.get("description", ""),
                    "tag": (op.get("tags") or ["other"])[0],
                    "parameters": op.get("parameters", []),
                    "body": body_ref,
                    "responses": {
                        code: _response_ref(r) for code, r in op.get("responses", {}).items()
                    },
                }
            )
    return ops


_redoc = SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html")


@office_view()
def redoc(request: HttpRequest) -> HttpResponse:
    """The API reference in Redoc, for signed-in office users (like ``/api/docs/``)."""
    response: HttpResponse = _redoc(request)
    return response


@office_view()
def docs(request: HttpRequest) -> HttpResponse:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = _operations(schema)
    tags: dict[str, list[dict[str, Any]]] = {}
    for op in ops:
        tags.setdefault(op["tag"], []).append(op)
    components = schema.get("components", {}).get("schemas", {})
    shown = {}
    for name, comp in sorted(components.items()):
        props = comp.get("properties", {})
        required = set(comp.get("required", []))
        shown[name] = [
            {
                "name": p,
                "type": _schema_ref(spec) or ", ".join(str(e) for e in spec.get("enum", [])),
                "required": p in required,
                "read_only": spec.get("readOnly", False),
                "description": spec.get("description", ""),
            }
            for p, spec in props.items()
        ]
    return render(
        request,
        "api/docs.html",
        {"info": schema.get("info", {}), "tags": tags, "components": shown},
    )


@csrf_exempt  # it writes nothing; a POST to no endpoint is a 404, not a CSRF refusal
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any path under ``/api/`` that names no endpoint (or an id the route cannot take, such
    as ``-146``): the API's 404 in the API's error shape, never the office's HTML page.

    A path that lacks only its final slash is sent on to it, as Django's ``APPEND_SLASH``
    did before this catch-all existed (it resolves everything under ``/api/``)."""
    if not request.path.endswith("/") and request.method in ("GET", "HEAD"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.url_name != "api-not-found":
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else "")
            )
    return JsonResponse(
        {"detail": "Not found.", "errors": {"path": [f"No endpoint at {request.path[:200]}."]}},
        status=404,
    )
