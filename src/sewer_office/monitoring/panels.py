"""The monitoring app's panels: on the facility page, sampling points, recent results with
status and citations, a chart per parameter with its limits, and the facility's open findings
(of every kind: results, slugs, pump-outs, inspections); on the dashboard, new findings to
review and sampling due."""

from __future__ import annotations

from typing import Any

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import (
    APPLICANT,
    ENGINEER,
    SUPERINTENDENT,
    has_role,
    is_staff_member,
)
from sewer_office.core.panels import Panel
from sewer_office.findings.choices import ReviewState
from sewer_office.findings.queries import by_severity, open_findings, status_counts

from . import queries
from .models import DischargeLimit, SamplingEvent, SamplingPoint
from .services import SAMPLERS

DASHBOARD_ROWS = 8
RECENT_SAMPLES = 10


def facility_panel(request: Any, establishment: Any) -> Panel | None:
    user = request.user
    findings = open_findings(user).filter(establishment=establishment)
    return Panel(
        title="Sampling and results",
        template="monitoring/_facility_panel.html",
        context={
            "est": establishment,
            "points": visible(SamplingPoint.objects.filter(establishment=establishment), user),
            "limits": visible(
                DischargeLimit.objects.filter(establishment=establishment).select_related(
                    "approval"
                ),
                user,
            ),
            "results": queries.recent_results(establishment, user),
            "events": list(
                visible(
                    SamplingEvent.objects.filter(establishment=establishment).select_related(
                        "sampling_point"
                    ),
                    user,
                ).order_by("-collected_at", "-id")[:RECENT_SAMPLES]
            ),
            "may_sample": has_role(user, *SAMPLERS),
            "parameters": queries.parameters_of(establishment),
            "findings": list(findings[: queries.OPEN_FINDINGS]),
            "may_add_point": has_role(user, SUPERINTENDENT, ENGINEER),
            "may_report": has_role(user, SUPERINTENDENT, ENGINEER, APPLICANT),
        },
        order=10,
    )


def dashboard_panel(request: Any) -> Panel | None:
    user = request.user
    if not is_staff_member(user):
        return None
    new = open_findings(user).filter(review=ReviewState.NEW)
    counts = status_counts(new)
    return Panel(
        title="Findings and sampling",
        template="monitoring/_dashboard_panel.html",
        context={
            "new_count": sum(n for _s, n in counts),
            "counts": counts,
            "new": list(by_severity(new)[:DASHBOARD_ROWS]),
            "due": queries.sampling_due(user)[:DASHBOARD_ROWS],
        },
        order=10,
    )
