"""The common shape of every application: number, state, applicant, property, filing date.

``filed_on`` is the application date in town time: fees are assessed from the amounts in
force on it (§ 196-18 B), and the record can be replayed under the law of that day.
"""

from __future__ import annotations

import builtins
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from sewer_office.accounts.access import person_ids
from sewer_office.accounts.actors import Actor
from sewer_office.core.links import link
from sewer_office.core.models import KeepsItsTown, TimeStamped
from sewer_office.core.workflow import Workflow


def filed_order_index(prefix: str) -> models.Index:
    """The index of a kind's records in filing order: the dashboard's work queues ("oldest
    first") and the lists ("newest first") read their first rows from it instead of sorting
    every record in the queue's states. One per kind, since an abstract model's index name
    cannot be both unique and short enough."""
    return models.Index(fields=["filed_on", "id"], name=f"{prefix}_filed_order")


def town_indexes(prefix: str) -> tuple[models.Index, ...]:
    """The indexes of a kind's records in one member town: its counts by state (a town's
    dashboard) and its records in filing order (a town's lists), read among the town's rows
    alone rather than the county's joined to their parcels (docs/scale.md)."""
    return (
        models.Index(fields=["jurisdiction", "state"], name=f"{prefix}_town_state"),
        models.Index(fields=["jurisdiction", "filed_on", "id"], name=f"{prefix}_town_filed"),
    )


class Application(KeepsItsTown, TimeStamped):
    """Abstract base of permits and approvals. Each keeps its parcel's town."""

    number = models.CharField(max_length=24, unique=True, blank=True)
    state = models.CharField(max_length=40, db_index=True)
    applicant = models.ForeignKey(
        "registry.Person", on_delete=models.PROTECT, related_name="%(class)s_applications"
    )
    property = models.ForeignKey(
        "registry.Property", on_delete=models.PROTECT, related_name="%(class)s_set"
    )
    filed_on = models.DateField("application date")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    description = models.TextField(blank=True)

    WORKFLOW: ClassVar[Workflow]
    NUMBER_PREFIX: ClassVar[str] = "APP"
    KIND_SLUG: ClassVar[str] = ""
    CITATION: ClassVar[str] = ""
    ACCESS_PATHS: ClassVar[tuple[str, ...]] = ("applicant", "property__owner")
    TOWN_SOURCES: ClassVar[tuple[str, ...]] = ("property",)

    class Meta:
        abstract = True
        ordering = ("-filed_on", "-id")

    def __str__(self) -> str:
        return f"{self.number or self.NUMBER_PREFIX} {self._meta.verbose_name}"

    def assign_number(self) -> None:
        """``PREFIX-YEAR-00042`` from the primary key: unique without a counter table."""
        self.number = f"{self.NUMBER_PREFIX}-{self.filed_on:%Y}-{self.pk:05d}"

    def is_applicant(self, user: Actor) -> bool:
        """Whether ``user`` acts for a person the record belongs to (its ``ACCESS_PATHS``)."""
        ids = person_ids(user)
        if not ids:
            return False
        cond = Q()
        for path in self.ACCESS_PATHS:
            cond |= Q(**{f"{path}__in": ids})
        return type(self)._default_manager.filter(cond, pk=self.pk).exists()

    @builtins.property
    def state_label(self) -> str:
        return self.WORKFLOW.label(self.state)

    @builtins.property
    def is_open(self) -> bool:
        return not self.WORKFLOW.state(self.state).terminal

    def get_absolute_url(self) -> str:
        return link("permits:detail", args=[self.KIND_SLUG, self.pk])
