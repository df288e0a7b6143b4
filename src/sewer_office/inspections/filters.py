"""Filters of the inspection list (web page and API)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db import models
from django.utils import timezone

from sewer_office.accounts.access import visible
from sewer_office.accounts.roles import is_staff_member
from sewer_office.registry.models import Establishment
from sewer_office.registry.pickers import use_pickers

from .choices import InspectionKind, InspectionState
from .models import Inspection


def _facilities(request: Any) -> models.QuerySet[Establishment]:
    """The facilities the user may see (none without a request)."""
    return visible(Establishment.objects.order_by("name", "id"), getattr(request, "user", None))


class InspectionFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=InspectionKind.choices)
    state = django_filters.ChoiceFilter(choices=InspectionState.choices)
    # django-filter calls the queryset with the request (its stubs know only a queryset)
    establishment = django_filters.ModelChoiceFilter(queryset=_facilities, label="Facility")  # type: ignore[arg-type]
    upcoming = django_filters.BooleanFilter(
        method="filter_upcoming",
        label="Upcoming only",
        widget=forms.CheckboxInput,
    )

    class Meta:
        model = Inspection
        fields = ("kind", "state", "establishment")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # chosen by search by the office, from its own few by a facility's account
        user = getattr(self.request, "user", None)
        use_pickers(self.form, ("establishment",), select=not is_staff_member(user))

    def filter_upcoming(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        """Scheduled inspections from now on, soonest first."""
        if not value:
            return qs
        return qs.filter(
            state=InspectionState.SCHEDULED, scheduled_for__gte=timezone.now()
        ).order_by("scheduled_for", "id")
