"""Filtersets of the onboarding app's lists."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from .choices import ReviewState
from .models import ReviewItem


class ReviewItemFilter(django_filters.FilterSet):
    """The review queue: open items unless another state is asked for."""

    state = django_filters.ChoiceFilter(
        choices=ReviewState.choices, empty_label="Any state", label="State"
    )
    q = django_filters.CharFilter(method="search", label="Search")

    class Meta:
        model = ReviewItem
        fields = ("state",)

    def search(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = value.strip()
        if not v:
            return qs
        return qs.filter(
            models.Q(reason__icontains=v)
            | models.Q(facility_import__source_name__icontains=v)
            | models.Q(values__icontains=v)
        )
