"""Back office view of permits and approvals: read-only — every change goes through the
workflow (pages or API), so that it is made by the role the law names and audited."""

from __future__ import annotations

from django.contrib import admin

from sewer_office.core.admin import ReadOnlyAdmin, register_read_only

from .kinds import KINDS
from .models import ApprovalCondition, SelfMonitoringRequirement

for _kind in KINDS.values():
    admin.site.register(
        _kind.model,
        type(
            f"{_kind.model.__name__}Admin",
            (ReadOnlyAdmin,),
            {
                "list_display": ("number", "state", "applicant", "property", "filed_on"),
                "list_filter": ("state",),
                "search_fields": ("number", "applicant__name", "property__address"),
            },
        ),
    )

register_read_only(ApprovalCondition, SelfMonitoringRequirement)
