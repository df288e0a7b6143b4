"""Back office view of network versions, manholes, pipes, building connections, control manholes: read-only — every change goes through the
app's services (pages, API, commands), so that it is made by the role the law names and audited."""

from __future__ import annotations

from sewer_office.core.admin import register_read_only

from .models import BuildingConnection, Manhole, NetworkVersion, SamplingPointOverride, SewerPipe

register_read_only(NetworkVersion, Manhole, SewerPipe, BuildingConnection, SamplingPointOverride)
