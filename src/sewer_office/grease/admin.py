"""Back office view of grease traps and interceptors, their sizing checks and pump-outs: read-only — every change goes through the
app's services (pages, API, commands), so that it is made by the role the law names and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import GreaseInterceptor, PumpOut, SizingCheck

register_read_only(GreaseInterceptor, SizingCheck, PumpOut)
