"""The building sewer permit record (§ 196-18)."""

from __future__ import annotations

from django.db import models

from sewer_office.permits.choices import PermitClass

from .base import Application, filed_order_index


class BuildingSewerPermit(Application):
    permit_class = models.PositiveSmallIntegerField(choices=PermitClass.choices)
    building = models.ForeignKey(
        "registry.Building", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reuses_old_sewer = models.BooleanField(
        "reuses an old building sewer", default=False, help_text="§ 196-18 E"
    )
    design = models.JSONField(default=dict, blank=True)
    # Fee in force on the application date (§ 196-18 B); amount None = not configured.
    fee_amount = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    fee_parameter = models.CharField(max_length=60, blank=True)
    fee_effective = models.DateField(null=True, blank=True)
    fee_authority = models.CharField(max_length=200, blank=True)
    fee_paid_on = models.DateField(null=True, blank=True)
    fee_receipt = models.CharField(max_length=40, blank=True)
    old_sewer_result = models.CharField(max_length=10, blank=True)
    old_sewer_examined_on = models.DateField(null=True, blank=True)
    plan_checks = models.JSONField(default=list, blank=True)
    plan_checks_version = models.CharField(max_length=60, blank=True)
    plans_approved_on = models.DateField(null=True, blank=True)
    road_opening_number = models.CharField(max_length=40, blank=True)
    road_opening_issued_on = models.DateField(null=True, blank=True)
    ready_on = models.DateField(null=True, blank=True)
    inspected_on = models.DateField(null=True, blank=True)
    connected_on = models.DateField(null=True, blank=True)
    supervised_by = models.CharField(max_length=120, blank=True)

    NUMBER_PREFIX = "BSP"
    KIND_SLUG = "building-sewer"
    CITATION = "§ 196-18"

    class Meta(Application.Meta):
        verbose_name = "building sewer permit"
        indexes = (
            models.Index(fields=["state", "filed_on"], name="bsp_state_filed"),
            filed_order_index("bsp"),
        )
