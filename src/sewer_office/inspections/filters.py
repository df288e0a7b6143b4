"""Filters of the inspection list (web page and API)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db import models
from django.utils import timezone

from sewer_office.registry.models import Establishment

from .choices import InspectionKind, InspectionState
from .models import Inspection


class InspectionFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=InspectionKind.choices)
    state = django_filters.ChoiceFilter(choices=InspectionState.choices)
    establishment = django_filters.ModelChoiceFilter(
        queryset=Establishment.objects.all(),
        label="Facility (id)",
        widget=forms.NumberInput(attrs={"placeholder": "establishment id"}),
    )
    upcoming = django_filters.BooleanFilter(
        method="filter_upcoming",
        label="Upcoming only",
        widget=forms.CheckboxInput,
    )

    class Meta:
        model = Inspection
        fields = ("kind", "state", "establishment")

    def filter_upcoming(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        """Scheduled inspections from now on, soonest first."""
        if not value:
            return qs
        return qs.filter(
            state=InspectionState.SCHEDULED, scheduled_for__gte=timezone.now()
        ).order_by("scheduled_for", "id")
