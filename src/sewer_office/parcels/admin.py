"""Back office view of the roll imports, owner changes, reviews and retirements: read-only —
every change goes through the app's services (pages, commands), which write the audit event."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import OwnerChange, ParcelReview, Retirement, RollImport

register_read_only(RollImport, OwnerChange, ParcelReview, Retirement)
