"""Back office view of the signed reports: read-only (the services sign, review and audit)."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import BaselineStatement, Report, Review, Signatory, Signature, SigningCode

register_read_only(Signatory, Report, Signature, Review, SigningCode, BaselineStatement)
