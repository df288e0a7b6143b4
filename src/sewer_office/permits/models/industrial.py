"""Industrial discharge and cooling water approvals (§ 196-16 D–F)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from sewer_office.permits.choices import DischargeKind

from .base import Application

#: Kinds of condition and the subsection authorising each.
CONDITION_KINDS: dict[str, tuple[str, str]] = {
    "pretreatment": ("Pretreatment to an acceptable condition", "§ 196-19 E(1)(b)"),
    "flow_equalization": ("Control over quantities and rates of discharge", "§ 196-19 E(1)(c)"),
    "control_manhole": ("Control manhole with meters and appurtenances", "§ 196-19 H"),
    "sampling": ("Sampling and measurement at the control manhole", "§ 196-19 I"),
    "surcharge": ("Payment for the added cost of handling and treating", "§ 196-19 E(1)(d)"),
    "special_agreement": ("Special agreement for waste of unusual strength", "§ 196-19 J"),
}


class IndustrialDischargeApproval(Application):
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="discharge_approvals"
    )
    discharge_kind = models.CharField(max_length=20, choices=DischargeKind.choices)
    flow_gpd = models.DecimalField(
        "flow (gpd)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    temperature_f = models.DecimalField(
        "temperature (°F)", max_digits=6, decimal_places=2, null=True, blank=True
    )
    #: Declared concentrations: analyte name → value as text (mg/l; pH in SU).
    concentrations = models.JSONField(default=dict, blank=True)
    categorical_category = models.CharField(
        "categorical standard (40 CFR part), if any", max_length=80, blank=True
    )
    evaluation = models.JSONField(default=dict, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    NUMBER_PREFIX = "IDA"
    KIND_SLUG = "industrial"
    CITATION = "§ 196-16 E"
    ACCESS_PATHS = ("applicant", "property__owner", "establishment__operator")

    class Meta(Application.Meta):
        verbose_name = "industrial discharge approval"

    @property
    def legal_basis(self) -> str:
        return "§ 196-16 F" if self.discharge_kind == DischargeKind.COOLING_WATER else "§ 196-16 E"

    @property
    def approved(self) -> bool:
        return self.state in {"approved", "approved_with_conditions"}


class ApprovalCondition(models.Model):
    """A condition of an approval, with the subsection that authorises it."""

    approval = models.ForeignKey(
        IndustrialDischargeApproval, on_delete=models.PROTECT, related_name="conditions"
    )
    kind = models.CharField(max_length=30, choices=[(k, v[0]) for k, v in CONDITION_KINDS.items()])
    text = models.TextField()
    citation = models.CharField(max_length=40)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.citation})"
