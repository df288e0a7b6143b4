"""The filter of SNC determinations, shared by the web list and the API."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from sewer_office.core.filters import YearFilter

from .models import SNCDetermination


class SNCFilter(django_filters.FilterSet):
    year = YearFilter(method="filter_year", label="Year")
    snc = django_filters.BooleanFilter(label="In SNC")
    facility = django_filters.CharFilter(
        field_name="establishment__name", lookup_expr="icontains", label="Facility"
    )

    class Meta:
        model = SNCDetermination
        fields = ("snc",)

    def filter_year(
        self, qs: models.QuerySet[Any], name: str, value: int | None
    ) -> models.QuerySet[Any]:
        if value is None:
            return qs
        return qs.filter(period_start__year__lte=value, period_end__year__gte=value)
