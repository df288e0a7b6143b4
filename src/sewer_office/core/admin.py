"""Back office: audit events and attachments are read-only (they are the record)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model

from .models import (
    Attachment,
    AuditEvent,
    ImportedRecord,
    IssuedDocument,
    Letterhead,
    LetterTemplate,
)


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """Viewable in the back office, never added, changed or deleted there."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


def register_read_only(*models: type[Model]) -> None:
    """Show each of ``models`` in the back office, read-only: its records change only through
    the services (pages, API, commands), which check the role and write the audit event."""
    for model in models:
        admin.site.register(model, type(f"{model.__name__}Admin", (ReadOnlyAdmin,), {}))


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = (
        "at",
        "actor_name",
        "action",
        "object_repr",
        "state_from",
        "state_to",
        "citation",
    )
    list_filter = ("action", "content_type")
    search_fields = ("object_repr", "actor_name", "reason")
    date_hierarchy = "at"


@admin.register(Attachment)
class AttachmentAdmin(ReadOnlyAdmin):
    list_display = ("title", "content_type", "object_id", "size", "created_at")


# the letters: changed only through the office's editor (/letters/), issued documents never
register_read_only(LetterTemplate, Letterhead, IssuedDocument)
# where a record made outside the office came from: written once with it (core.imported)
register_read_only(ImportedRecord)
