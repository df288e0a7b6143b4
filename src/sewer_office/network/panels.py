"""What the network contributes to the property page: its sampling point (§ 196-19 I).

Through :mod:`sewer_office.core.panels`, so that the registry's property page (below the
network) shows it without importing the network.
"""

from __future__ import annotations

from typing import Any

from .services import property_sampling_points


def property_context(request: Any, prop: Any) -> dict[str, Any]:
    return {"sampling_points": property_sampling_points(prop)}
