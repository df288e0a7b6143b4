"""API of the grease app: viewsets for the router and plain paths (see sewer_office.api.urls)."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern

#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = []
#: extra paths under /api/
PATHS: list[URLPattern] = []
