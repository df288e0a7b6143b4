"""The Content-Security-Policy header on every answer (a script injected into a page cannot run).

The office's pages run only scripts served from its own static files — htmx, Leaflet, Redoc
and a few small files — so ``script-src 'self'`` without ``'unsafe-inline'``: an injected
``<script>`` or ``onclick`` in any page does not run. Styles allow ``'unsafe-inline'`` because
Redoc and htmx insert ``<style>`` elements and a few templates set ``style=`` attributes; a
style cannot run code. Images may also come from the map's tile server when one is configured
(``SEWER_USE_MAP_TILE_URL``); Redoc's search runs in a ``blob:`` worker. Nothing may frame the
office, and forms post only to it. ``SEWER_USE_CONTENT_SECURITY_POLICY`` replaces the whole
policy when a town's proxy needs another one.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def tile_source(url: str) -> str:
    """The CSP source of a Leaflet tile URL template (``{s}`` subdomains as ``*``), or ''."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc.replace('{s}', '*')}"


def policy() -> str:
    """The office's policy, from the settings."""
    configured = str(getattr(settings, "SEWER_USE_CONTENT_SECURITY_POLICY", "") or "")
    if configured:
        return configured
    tiles = tile_source(str(getattr(settings, "SEWER_USE_MAP_TILE_URL", "") or ""))
    images = " ".join(s for s in ("'self'", "data:", "blob:", tiles) if s)
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            f"img-src {images}",
            "font-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


class ContentSecurityPolicyMiddleware:
    """Adds the policy to every answer that does not already carry one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy()
        return response
