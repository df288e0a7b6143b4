"""Filtersets of the meters app (the API's list of slugs; the web pages show one meter's)."""

from __future__ import annotations

from typing import Any

import django_filters

from sewer_office.core.filters import IdFilter

from . import services
from .models import SlugEvent


class SlugFilter(django_filters.FilterSet):
    establishment = IdFilter(field_name="meter__sampling_point__establishment")
    reported = django_filters.BooleanFilter(method="filter_reported")

    class Meta:
        model = SlugEvent
        fields = ("meter",)

    def filter_reported(self, qs: Any, name: str, value: bool | None) -> Any:
        if value is None:
            return qs
        without = services.unreported(qs)
        return qs.exclude(pk__in=without.values("pk")) if value else without
