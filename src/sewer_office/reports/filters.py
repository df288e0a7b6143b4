"""The filter of the reports list (page and ``/api/reports/``)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from sewer_office.core.filters import IdFilter

from .models import Report

STATES = (
    ("unsigned", "Not signed"),
    ("signed", "Signed, to review"),
    ("accepted", "Accepted"),
    ("rejected", "Rejected"),
)


class ReportFilter(django_filters.FilterSet):
    establishment = IdFilter(field_name="establishment_id", label="Facility (id)")
    state = django_filters.ChoiceFilter(choices=STATES, method="by_state")

    class Meta:
        model = Report
        fields = ("establishment", "due")

    def by_state(self, qs: QuerySet[Report], name: str, value: Any) -> QuerySet[Report]:
        if value == "unsigned":
            return qs.filter(signature__isnull=True)
        if value == "signed":
            return qs.filter(signature__isnull=False, review__isnull=True)
        return qs.filter(review__decision=value)
