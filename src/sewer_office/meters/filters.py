"""Filtersets of the meters app (the API's list of slugs; the web pages show one meter's)."""

from __future__ import annotations

from typing import Any

import django_filters

from sewer_office.core.lookup import id_or_text

from . import services
from .models import SlugEvent


class SlugFilter(django_filters.FilterSet):
    establishment = django_filters.CharFilter(method="by_facility", label="Facility (code or name)")
    reported = django_filters.BooleanFilter(method="filter_reported")

    class Meta:
        model = SlugEvent
        fields = ("meter",)

    def by_facility(self, qs: Any, name: str, value: str) -> Any:
        return id_or_text(
            qs,
            value,
            "meter__sampling_point__establishment_id",
            (
                "meter__sampling_point__establishment__code",
                "meter__sampling_point__establishment__name",
            ),
        )

    def filter_reported(self, qs: Any, name: str, value: bool | None) -> Any:
        if value is None:
            return qs
        without = services.unreported(qs)
        return qs.exclude(pk__in=without.values("pk")) if value else without
