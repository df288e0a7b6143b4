"""A user's petition against an order of a town whose law allows one (the Town of
Poughkeepsie's administrative order: a petition to the Town Engineer within 15 calendar days of
receipt), and the official's decision on it.

The petition's window is computed when it is recorded, from the day the order was received, by
the rule of the town's ladder (:func:`sewer_rules.response_clock.petition_due`), and kept with
its basis: a petition received after the window is recorded as late, never refused (what the
official does with it is the official's decision). The decision is recorded once; the petition
itself is never edited or deleted.
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from sewer_office.core.models import ImmutableRecord
from sewer_office.enforcement.choices import PetitionAsks, PetitionDecision
from sewer_office.enforcement.models.violations import (
    VIOLATION_PATHS,
    Notice,
    Violation,
    only_filling,
)


class Petition(models.Model):
    """A written petition to modify or suspend an order, as received, and its decision."""

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="petitions")
    order = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="petitions")
    asks = models.CharField(max_length=10, choices=PetitionAsks.choices)
    grounds = models.TextField(help_text="what the petition says, in short")
    received_on = models.DateField(help_text="the day the petition reached the official")
    due_on = models.DateField(help_text="the last day of the petition's window, as its law counts")
    window = models.JSONField(help_text="how the last day was computed (the ladder's rule)")
    timely = models.BooleanField(help_text="received within the window")
    citation = models.CharField(max_length=80, help_text="the provision that allows the petition")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    decision = models.CharField(max_length=10, choices=PetitionDecision.choices, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decision_note = models.TextField(blank=True)

    ACCESS_PATHS: ClassVar[tuple[str, ...]] = tuple(f"violation__{p}" for p in VIOLATION_PATHS)
    DECISION_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"decision", "decided_on", "decided_by_id", "decision_note"}
    )

    class Meta:
        ordering = ("received_on", "id")

    def __str__(self) -> str:
        return f"Petition on {self.order} received {self.received_on}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            only_filling(self, self.DECISION_FIELDS, "A recorded petition")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ImmutableRecord("petitions are never deleted")

    @builtins.property
    def pending(self) -> bool:
        return not self.decision
