"""Grinder approvals, grease trap / interceptor requirements and flushing notices (§ 196-19)."""

from __future__ import annotations

from django.db import models

from sewer_office.permits.choices import InterceptorKind

from .base import Application, filed_order_index, town_indexes


class GrinderApproval(Application):
    establishment = models.ForeignKey(
        "registry.Establishment", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    make_model = models.CharField("make and model", max_length=120)
    motor_hp = models.DecimalField("motor rating (hp)", max_digits=6, decimal_places=3)
    rule_check = models.JSONField(default=dict, blank=True)
    decided_on = models.DateField(null=True, blank=True)

    NUMBER_PREFIX = "GRD"
    KIND_SLUG = "grinder"
    CITATION = "§ 196-19 D(3)"

    class Meta(Application.Meta):
        verbose_name = "grinder approval"
        indexes = (filed_order_index("grinder"), *town_indexes("grinder"))


class InterceptorRequirement(Application):
    """A grease trap or interceptor an establishment must provide."""

    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="interceptors"
    )
    kind = models.CharField(max_length=24, choices=InterceptorKind.choices)
    basis = models.TextField(
        help_text="Why it is required (the Superintendent's opinion for F(1))."
    )
    unit_type = models.CharField(max_length=80, blank=True)
    capacity = models.CharField(max_length=40, blank=True)
    location = models.CharField(max_length=200, blank=True)
    accessible = models.BooleanField(default=False)
    installed_on = models.DateField(null=True, blank=True)
    health_approval_ref = models.CharField(max_length=60, blank=True)
    approved_on = models.DateField(null=True, blank=True)

    NUMBER_PREFIX = "INT"
    KIND_SLUG = "interceptor"
    CITATION = "§ 196-19 F"
    ACCESS_PATHS = ("applicant", "property__owner", "establishment__operator")

    class Meta(Application.Meta):
        verbose_name = "grease trap / interceptor requirement"
        indexes = (filed_order_index("interceptor"), *town_indexes("interceptor"))

    @property
    def citation(self) -> str:
        return "§ 196-19 F(2)" if self.kind == InterceptorKind.GREASE_TRAP else "§ 196-19 F(1)"


class FlushingNotice(Application):
    building = models.ForeignKey("registry.Building", on_delete=models.PROTECT, related_name="+")
    planned_on = models.DateField("flushing planned on")
    water_source = models.CharField(max_length=120)
    water_unpolluted = models.BooleanField(
        "flushing water is unpolluted water (§ 196-15 UNPOLLUTED WATER OR WASTE)", default=False
    )
    tri_municipal_notified_on = models.DateField("Tri-Municipal notified on")
    acknowledged_on = models.DateField(null=True, blank=True)
    flushed_on = models.DateField(null=True, blank=True)

    NUMBER_PREFIX = "FLN"
    KIND_SLUG = "flushing"
    CITATION = "§ 196-19 L"

    class Meta(Application.Meta):
        verbose_name = "flushing notice"
        indexes = (filed_order_index("flushing"), *town_indexes("flushing"))
