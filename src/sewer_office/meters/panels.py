"""The meters app's panels on the facility page and the dashboard (see sewer_office.core.panels)."""

from __future__ import annotations

from typing import Any

from sewer_office.core.panels import Panel


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    return None


def dashboard_panel(request: Any) -> Panel | None:
    return None
