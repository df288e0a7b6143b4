"""The record that the Town adopted its enforcement response plan (40 CFR 403.8(f)(5)).

The plan itself is dated data of the jurisdiction (``enforcement.yaml``, read by
:mod:`sewer_rules.enforcement_guide`); what the office records is the decision: which version
(its effective date and the SHA-256 of its canonical text, :func:`sewer_rules.
enforcement_plan.plan_sha256`), on which day, by which body, under which resolution — and who
recorded it, when. Written once: a mistake is answered by recording the right decision, never
by editing this one. A version whose text no longer has the fingerprint adopted is not the
plan adopted (:mod:`.plan`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import WrittenOnce


class PlanAdoption(WrittenOnce):
    """One adoption of one version of the enforcement response plan."""

    plan_effective = models.DateField(help_text="the effective date of the version adopted")
    plan_sha256 = models.CharField(
        max_length=64, help_text="SHA-256 of the version's canonical text, as adopted"
    )
    plan_source = models.CharField(
        max_length=200, help_text="the file the version was read from (the jurisdiction's)"
    )
    adopted_on = models.DateField(help_text="the day the body adopted it")
    adopted_by = models.CharField(max_length=120, help_text="the body that adopted it")
    resolution = models.CharField(max_length=80, help_text="the decision's reference")
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("adopted_on", "id")
        constraints = (
            models.UniqueConstraint(
                fields=["plan_effective", "plan_sha256"], name="one_adoption_per_plan_text"
            ),
        )

    def __str__(self) -> str:
        return self.reference

    @property
    def reference(self) -> str:
        """``adopted 2026-03-02 by Town Board resolution 2026-41``."""
        return (
            f"adopted {self.adopted_on:%Y-%m-%d} by {self.adopted_by} resolution {self.resolution}"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "plan_effective": self.plan_effective.isoformat(),
            "plan_sha256": self.plan_sha256,
            "adopted_on": self.adopted_on.isoformat(),
            "adopted_by": self.adopted_by,
            "resolution": self.resolution,
        }
