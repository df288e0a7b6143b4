"""What the permits contribute to the dashboard, the facility page and the property page.

Through :mod:`sewer_office.core.panels`, like every other app, so that ``core`` and
``registry`` (below the permits) show permits without importing them. The pages lay these
records out themselves, so the permits contribute template context, not panels.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import urlencode

from sewer_office.accounts.access import visible
from sewer_office.core.panels import SEARCH_ROWS, SearchGroup, SearchHit

from . import dashboard
from .kinds import KINDS, may_file
from .listing import all_permits, labelled
from .models import GrinderApproval, IndustrialDischargeApproval, InterceptorRequirement

#: Records of each kind shown on a property page; the rest are one click away (the list
#: filtered to the property), so the page stays fast for a property with a long history.
PROPERTY_ROWS = 10


def dashboard_context(request: Any) -> dict[str, Any]:
    """The work queues and the office at a glance (``queues``, ``summary``)."""
    return dashboard.build(request.user)


def property_context(request: Any, prop: Any) -> dict[str, Any]:
    """The property's records of each kind (``records``) and what the user may file."""
    records = []
    for kind in KINDS.values():
        qs = visible(kind.list_queryset().filter(property=prop), request.user).order_by(
            "-filed_on", "-id"
        )
        rows = list(qs[: PROPERTY_ROWS + 1])
        if rows:
            more = len(rows) > PROPERTY_ROWS
            records.append(
                {
                    "kind": kind,
                    "rows": rows[:PROPERTY_ROWS],
                    "total": qs.count() if more else len(rows),
                }
            )
    return {
        "records": records,
        "file_kinds": [
            k for k in KINDS.values() if may_file(request.user, k) and k.slug != "interceptor"
        ],
    }


def facility_context(request: Any, establishment: Any) -> dict[str, Any]:
    """The establishment's discharge approvals, interceptor requirements and grinders."""
    return {
        "approvals": visible(
            IndustrialDischargeApproval.objects.filter(
                establishment=establishment
            ).prefetch_related("conditions"),
            request.user,
        ),
        "interceptors": visible(
            InterceptorRequirement.objects.filter(establishment=establishment), request.user
        ),
        "grinders": visible(
            GrinderApproval.objects.filter(establishment=establishment), request.user
        ),
    }


def search(request: Any, q: str) -> SearchGroup:
    """Permits and approvals of every kind whose number, applicant or address contains ``q``."""
    found = labelled(all_permits(request.user, {"q": q})[: SEARCH_ROWS + 1])
    return SearchGroup(
        title="Permits and approvals",
        hits=[
            SearchHit(
                r["number"],
                r["url"],
                " · ".join(
                    x
                    for x in (
                        r["kind"].label,
                        r["applicant__name"],
                        r["property__address"],
                        r["state_label"],
                    )
                    if x
                ),
            )
            for r in found[:SEARCH_ROWS]
        ],
        more=len(found) > SEARCH_ROWS,
        list_url=reverse("permits:index") + "?" + urlencode({"q": q}) + "#all-permits",
        order=15,
    )
