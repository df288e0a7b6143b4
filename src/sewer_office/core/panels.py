"""Panels other apps contribute to the facility page and to the dashboard.

Each monitoring app has a ``panels`` module with ``facility_panel(request, establishment)``
and ``dashboard_panel(request)``, each returning a :class:`Panel` or None (nothing to show
to this user). The facility page and the dashboard render the panels in order, so a new
activity joins both pages without either page knowing its models.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

PANEL_MODULES = (
    "sewer_office.monitoring.panels",
    "sewer_office.meters.panels",
    "sewer_office.grease.panels",
    "sewer_office.inspections.panels",
    "sewer_office.enforcement.panels",
)


@dataclass
class Panel:
    title: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 50


def _collect(hook: str, *args: Any) -> list[Panel]:
    panels = []
    for name in PANEL_MODULES:
        module = importlib.import_module(name)
        panel = getattr(module, hook)(*args)
        if panel is not None:
            panels.append(panel)
    return sorted(panels, key=lambda p: p.order)


def facility_panels(request: Any, establishment: Any) -> list[Panel]:
    return _collect("facility_panel", request, establishment)


def dashboard_panels(request: Any) -> list[Panel]:
    return _collect("dashboard_panel", request)
