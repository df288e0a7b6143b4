"""Private wastewater disposal systems (§ 196-17)."""

from __future__ import annotations

from django.db import models

from sewer_office.permits.choices import SystemType

from .base import Application, filed_order_index, town_indexes


class PrivateDisposalSystem(Application):
    system_type = models.CharField(max_length=20, choices=SystemType.choices)
    design_flow_gpd = models.PositiveIntegerField("design flow (gpd)", null=True, blank=True)
    health_approval_ref = models.CharField(max_length=60, blank=True)
    health_approved_on = models.DateField(null=True, blank=True)
    completion_ref = models.CharField(max_length=60, blank=True)
    completed_on = models.DateField(null=True, blank=True)
    forms_filed_on = models.DateField(null=True, blank=True)
    co_number = models.CharField(max_length=40, blank=True)
    co_issued_on = models.DateField(null=True, blank=True)
    connection_required_on = models.DateField(null=True, blank=True)
    abandoned_on = models.DateField(null=True, blank=True)
    filled_with = models.CharField(max_length=120, blank=True)

    NUMBER_PREFIX = "PDS"
    KIND_SLUG = "private-system"
    CITATION = "§ 196-17"

    class Meta(Application.Meta):
        verbose_name = "private wastewater disposal system"
        indexes = (filed_order_index("pds"), *town_indexes("pds"))
