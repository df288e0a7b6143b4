"""Back office: the program's records, read only (they change through the services)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from .models import (
    AnnualReportEdition,
    BaselineChecklist,
    Designation,
    HazardousWasteNotification,
    ReportDue,
    ReportRequirement,
    SNCDetermination,
)


class ReadOnly(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


for model in (
    Designation,
    ReportRequirement,
    ReportDue,
    SNCDetermination,
    BaselineChecklist,
    HazardousWasteNotification,
    AnnualReportEdition,
):
    admin.site.register(model, ReadOnly)
