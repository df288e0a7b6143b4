"""Back office view of the column mappings, the facility imports and the review queue:
read-only — every change goes through the app's services (pages, command line), which check
the role and write the audit event."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import ColumnMapping, FacilityImport, ReviewItem

register_read_only(ColumnMapping, FacilityImport, ReviewItem)
