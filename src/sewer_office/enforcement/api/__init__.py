"""API of the enforcement app (its routes here; :mod:`.serializers`, :mod:`.violations`,
:mod:`.schedules`): violations and notices, and the actions on a violation —
issue, serve, record-delivery (certified mail), report-correction, verify, escalate, refer,
cost (and reject-correction, supersede, dismiss), the court's judgment (:mod:`.money`,
§ 196-22 B), and a petition against an order of a town's own ladder and its decision
(:mod:`..petitions`) — through the same services and workflow as the pages. The money in the Town's
books is billing's: ``POST .../bill-costs/`` (§ 196-22 C) and ``.../collection/`` (§ 196-22 B)
are answered by ``billing.enforcement_api`` (mounted under this prefix by the API's urls), and
a violation's ``invoices`` come from billing's ``violation_data`` hook (:mod:`core.panels`). A
violation's ``fines`` is the rule's count (the office's :func:`~.liability.fines`), the same
as ``sewer-use fines`` gives for the same dates.

``GET /api/enforcement/violations/`` takes the web list's filters (one filterset,
:class:`~.filters.ViolationFilter`). An action answers the violation as it now is; a refusal
answers with the services' message (400 invalid, 403 reserved, 409 not now / blocked).
"""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern

from sewer_office.enforcement.api.schedules import MilestoneViewSet, ScheduleViewSet
from sewer_office.enforcement.api.violations import NoticeViewSet, ViolationViewSet

#: (prefix under /api/, viewset, basename)
ROUTES: list[tuple[str, Any, str]] = [
    ("enforcement/violations", ViolationViewSet, "violation"),
    ("enforcement/notices", NoticeViewSet, "notice"),
    ("enforcement/schedules", ScheduleViewSet, "schedule"),
    ("enforcement/milestones", MilestoneViewSet, "milestone"),
]
PATHS: list[URLPattern] = []
