"""What the network contributes to the property page (its sampling point, § 196-19 I) and
to the header's search (manholes).

Through :mod:`sewer_office.core.panels`, so that the registry's property page (below the
network) shows it without importing the network.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import urlencode

from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.panels import SEARCH_ROWS, SearchGroup, SearchHit

from .models import Manhole
from .services import property_sampling_points


def property_context(request: Any, prop: Any) -> dict[str, Any]:
    return {"sampling_points": property_sampling_points(prop)}


def search(request: Any, q: str) -> SearchGroup | None:
    """Manholes of the active network whose identifier contains ``q`` (staff only: the
    network page is the office's), each a link to its upstream trace."""
    if not is_staff_member(request.user):
        return None
    found = list(
        Manhole.objects.filter(version__active=True, ident__icontains=q).order_by("ident")[
            : SEARCH_ROWS + 1
        ]
    )
    page = reverse("registry:network")
    return SearchGroup(
        title="Manholes",
        hits=[
            SearchHit(
                m.ident,
                page + "?" + urlencode({"manhole": m.ident}),
                "public sewer" if m.public else "private",
            )
            for m in found[:SEARCH_ROWS]
        ],
        more=len(found) > SEARCH_ROWS,
        order=40,
    )
