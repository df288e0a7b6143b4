"""The building sewer permit record (§ 196-18).

``permit_class`` is the class the applicant declared; ``rule_class`` the class § 196-18 B's rule
gives from what the application states (its ``service_use``, the ``industrial_wastes`` it declares, the
sources its design connects), recorded on filing, with its reasons. The fee is the rule's class
fee; a declared class that disagrees is flagged for the clerk (:attr:`class_disagrees`), never
silently accepted. Records filed before the rule was applied have no ``rule_class`` and keep
their declared class.

§ 196-18 B wants the fee "paid to the Town at the time the application is filed": until the fee
is paid or waived by a recorded decision (``fee_waived_on`` and its authority; the reason is
the waiver's audit event, :attr:`fee_waiver_reason`) the application is a draft awaiting the
filing fee (the state ``submitted``).
"""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db import models

from sewer_office.core.models import AuditEvent
from sewer_office.permits.choices import PermitClass, ServiceUse
from sewer_rules.ordinance.s196_18_building_sewers.permit_class import CLASS_TEXT

from .base import Application, filed_order_index, town_indexes


class BuildingSewerPermit(Application):
    permit_class = models.PositiveSmallIntegerField(
        choices=PermitClass.choices, help_text="the class the applicant declared"
    )
    service_use = models.CharField("use", max_length=20, choices=ServiceUse.choices, blank=True)
    industrial_wastes = models.TextField(
        blank=True, help_text="the industrial wastes the establishment will discharge, as declared"
    )
    rule_class = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="the class by § 196-18 B's rule from what the application states",
    )
    class_reasons = models.JSONField(default=list, blank=True)
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
    fee_waived_on = models.DateField(null=True, blank=True)
    fee_waiver_authority = models.CharField(
        max_length=200, blank=True, help_text="who decided the waiver (e.g. the Board's resolution)"
    )
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

    @property
    def charged_class(self) -> int:
        """The class whose fee is due: the rule's, else (older records) the declared one."""
        return self.rule_class if self.rule_class is not None else self.permit_class

    @property
    def class_disagrees(self) -> bool:
        """Whether the declared class differs from the rule's (flagged for the clerk)."""
        return self.rule_class is not None and self.rule_class != self.permit_class

    @property
    def class_text(self) -> str:
        """ "class 2 — service to an establishment producing industrial wastes, § 196-18 B(2)"."""
        return CLASS_TEXT[self.charged_class]

    @property
    def fee_waiver_reason(self) -> str:
        """Why the fee was waived: the reason recorded with the waiver (its audit event)."""
        if self.fee_waived_on is None:
            return ""
        event = (
            AuditEvent.objects.filter(
                content_type=ContentType.objects.get_for_model(self),
                object_id=str(self.pk),
                action="waive_fee",
            )
            .order_by("-at", "-id")
            .first()
        )
        return event.reason if event is not None else ""

    @property
    def fee_settled(self) -> bool:
        """Whether the filing fee is paid or waived (the application is then filed)."""
        return self.fee_paid_on is not None or self.fee_waived_on is not None

    class Meta(Application.Meta):
        verbose_name = "building sewer permit"
        indexes = (
            models.Index(fields=["state", "filed_on"], name="bsp_state_filed"),
            filed_order_index("bsp"),
            *town_indexes("bsp"),
        )
