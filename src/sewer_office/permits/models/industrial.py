"""Industrial discharge and cooling water approvals (§ 196-16 D–F)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.findings.services import findings_of
from sewer_office.permits.choices import (
    EVENTS_PER_YEAR,
    DischargeKind,
    MonitoringFrequency,
    SampleType,
)

from .base import Application, filed_order_index, town_indexes

#: Conditions the decision imposes on the wastes, and the subsection authorising each: the
#: form of "Approve with conditions" (§ 196-19 E(1)) offers these.
DECISION_CONDITIONS: dict[str, tuple[str, str]] = {
    "pretreatment": ("Pretreatment to an acceptable condition", "§ 196-19 E(1)(b)"),
    "flow_equalization": ("Control over quantities and rates of discharge", "§ 196-19 E(1)(c)"),
    "control_manhole": ("Control manhole with meters and appurtenances", "§ 196-19 H"),
    "sampling": ("Sampling and measurement at the control manhole", "§ 196-19 I"),
    "surcharge": ("Payment for the added cost of handling and treating", "§ 196-19 E(1)(d)"),
    "special_agreement": ("Special agreement for waste of unusual strength", "§ 196-19 J"),
}

#: The terms an individual control mechanism issued to a Significant Industrial User must
#: state (40 CFR 403.8(f)(1)(iii)(B)), recorded by staff before the approval is issued; the
#: list of elements and how each is satisfied is :mod:`sewer_office.permits.control_mechanism`.
CONTROL_TERMS: dict[str, tuple[str, str]] = {
    "non_transferable": ("Non-transferability", "40 CFR 403.8(f)(1)(iii)(B)(2)"),
    "effluent_limits": (
        "Effluent limits and Best Management Practices",
        "40 CFR 403.8(f)(1)(iii)(B)(3)",
    ),
    "reporting": (
        "Reporting, notification and recordkeeping",
        "40 CFR 403.8(f)(1)(iii)(B)(4)",
    ),
    "penalties": ("Civil and criminal penalties", "40 CFR 403.8(f)(1)(iii)(B)(5)"),
    "compliance_schedule": ("Compliance schedule", "40 CFR 403.8(f)(1)(iii)(B)(5)"),
    "slug_control": ("Slug discharge control", "40 CFR 403.8(f)(1)(iii)(B)(6)"),
    "slug_not_necessary": (
        "Determination: slug control not necessary",
        "40 CFR 403.8(f)(1)(iii)(B)(6)",
    ),
}

#: Every kind of condition an approval records, and the provision authorising each.
CONDITION_KINDS: dict[str, tuple[str, str]] = {**DECISION_CONDITIONS, **CONTROL_TERMS}


class IndustrialDischargeApproval(Application):
    establishment = models.ForeignKey(
        "registry.Establishment", on_delete=models.PROTECT, related_name="discharge_approvals"
    )
    discharge_kind = models.CharField(max_length=20, choices=DischargeKind.choices)
    flow_gpd = models.DecimalField(
        "flow (gpd)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    #: Of ``flow_gpd``, the process wastewater (40 CFR 403.3(v)(1)(ii): 25,000 gpd of process
    #: wastewater; ICIS-NPDES IUAverageDailyProcessWastewaterFlowRateGPD).
    process_flow_gpd = models.DecimalField(
        "process wastewater flow (gpd)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    #: The nine-character identifier EPA's ICIS-NPDES (or the State) gives this industrial
    #: user's control mechanism; recorded by staff, never invented.
    icis_permit_id = models.CharField("ICIS-NPDES permit identifier", max_length=9, blank=True)
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
    # --- term, expiry, renewal (40 CFR 403.8(f)(1)(iii)) -------------------------------------
    term_years = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="the term in years, set at approval (at most the federal five years)",
    )
    expires_on = models.DateField(
        null=True, blank=True, help_text="the last day the approval is in force"
    )
    renews = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="renewals",
        help_text="the approval this application renews",
    )

    NUMBER_PREFIX = "IDA"
    KIND_SLUG = "industrial"
    CITATION = "§ 196-16 E"
    ACCESS_PATHS = ("applicant", "property__owner", "establishment__operator")

    class Meta(Application.Meta):
        verbose_name = "industrial discharge approval"
        indexes = (filed_order_index("ida"), *town_indexes("ida"))

    @property
    def legal_basis(self) -> str:
        return "§ 196-16 F" if self.discharge_kind == DischargeKind.COOLING_WATER else "§ 196-16 E"

    @property
    def approved(self) -> bool:
        return self.state in {"approved", "approved_with_conditions"}

    def expired_on(self, day: date) -> bool:
        """Whether the approval was granted and its term had run out before ``day``."""
        return self.approved and self.expires_on is not None and self.expires_on < day

    @property
    def expired(self) -> bool:
        return self.expired_on(timezone.localdate())

    @property
    def expiry_finding(self) -> Any:
        """The APPROVAL_EXPIRED finding recorded about this approval, if any."""
        return findings_of(self).filter(kind="approval_expired").first()

    @property
    def renewal_timely(self) -> bool | None:
        """For a renewal: whether it was applied for before the renewed approval expired."""
        renewed = self.renews
        if renewed is None or renewed.expires_on is None:
            return None
        return self.filed_on <= renewed.expires_on


class SelfMonitoringRequirement(models.Model):
    """A pollutant the user must sample and report itself, where, how and how often: the
    self-monitoring element of an individual control mechanism (40 CFR 403.8(f)(1)(iii)(B)(4):
    "identification of the pollutants to be monitored ..., sampling location, sampling
    frequency, and sample type")."""

    approval = models.ForeignKey(
        IndustrialDischargeApproval,
        on_delete=models.PROTECT,
        related_name="self_monitoring",
    )
    parameter = models.CharField(max_length=60)
    sampling_point = models.CharField(max_length=80)
    sample_type = models.CharField(max_length=20, choices=SampleType.choices)
    frequency = models.CharField(max_length=12, choices=MonitoringFrequency.choices)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return (
            f"{self.parameter}: {self.get_sample_type_display()} at {self.sampling_point}, "
            f"{self.get_frequency_display().lower()}"
        )

    @property
    def events_per_year(self) -> int:
        return EVENTS_PER_YEAR[self.frequency]


class ApprovalCondition(models.Model):
    """A condition of an approval, with the provision that authorises it: one the decision
    imposes (§ 196-19), or a term of the control mechanism recorded before the decision (40
    CFR 403.8(f)(1)(iii)(B)). Append-only: added, never edited."""

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
