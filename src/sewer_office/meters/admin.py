"""Back office view of meters, uploads of readings, slugs, excursions and their reports: read-only — every change goes through the
app's services (pages, API, commands), so that it is made by the role the law names and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import (
    Excursion,
    Meter,
    MeterBaseline,
    MeterDay,
    Reading,
    ReadingUpload,
    SlugEvent,
    SlugReevaluation,
    SlugReport,
)

register_read_only(
    Meter,
    MeterBaseline,
    MeterDay,
    ReadingUpload,
    Reading,
    SlugReevaluation,
    SlugEvent,
    Excursion,
    SlugReport,
)
