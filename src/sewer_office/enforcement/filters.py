"""The one filter of violations, shared by the web list and the API (choices, not ids)."""

from __future__ import annotations

from typing import Any, cast

import django_filters
from django.db import models

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.registry.models import Establishment, Person

from .models import ComplianceSchedule, Violation
from .workflow import OPEN_STATES, WORKFLOW


class ViolationFilter(django_filters.FilterSet):
    state = django_filters.ChoiceFilter(choices=WORKFLOW.choices)
    establishment = django_filters.ModelChoiceFilter(
        queryset=Establishment.objects.filter(violations__isnull=False).distinct().order_by("name"),
        label="Facility",
    )
    person = django_filters.ModelChoiceFilter(
        queryset=Person.objects.filter(violations__isnull=False).distinct().order_by("name"),
        label="Person responsible",
    )
    open = django_filters.BooleanFilter(method="filter_open", label="Open only")

    class Meta:
        model = Violation
        fields = ("state", "establishment", "person")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = getattr(self.request, "user", None)
        if not is_staff_member(user):
            # an outside user's choices name only its own facilities and persons
            mine = visible(Violation.objects.all(), user)
            self.filters["establishment"].queryset = Establishment.objects.filter(
                violations__in=mine
            ).distinct()
            self.filters["person"].queryset = Person.objects.filter(violations__in=mine).distinct()

    def filter_open(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        return qs.filter(state__in=OPEN_STATES) if value else qs


class ScheduleFilter(django_filters.FilterSet):
    """Compliance schedules, per facility (the web list and the API)."""

    establishment = django_filters.ModelChoiceFilter(
        queryset=Establishment.objects.filter(compliance_schedules__isnull=False)
        .distinct()
        .order_by("name"),
        label="Facility",
    )

    class Meta:
        model = ComplianceSchedule
        fields = ("establishment",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user = getattr(self.request, "user", None)
        if not is_staff_member(user):
            mine = visible(ComplianceSchedule.objects.all(), user)
            establishment = cast(django_filters.ModelChoiceFilter, self.filters["establishment"])
            establishment.queryset = Establishment.objects.filter(
                compliance_schedules__in=mine
            ).distinct()
