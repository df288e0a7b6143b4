"""Back office view of sampling points, discharge limits, laboratory imports, samples and results: read-only — every change goes through the
app's services (pages, API, commands), so that it is made by the role the law names and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import DischargeLimit, LabImport, LabMapping, LabResult, SamplingEvent, SamplingPoint

register_read_only(SamplingPoint, DischargeLimit, LabImport, SamplingEvent, LabResult, LabMapping)
