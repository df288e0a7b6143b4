"""Back office view of registrations, link requests and identity checks: read-only — every
change goes through the portal's services, which check the role and write the audit event."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import IdentityCheck, LinkRequest, Registration

register_read_only(Registration, LinkRequest, IdentityCheck)
