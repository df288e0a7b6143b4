"""Back office: an import of records of the past is read-only (it is the record)."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import RecordImport

register_read_only(RecordImport)
