"""Filtersets of the grease app (the web list and the API alike)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models
from django.utils import timezone

from sewer_office.core.filters import IdFilter

from .choices import InterceptorKind
from .models import GreaseInterceptor
from .services import overdue


class InterceptorFilter(django_filters.FilterSet):
    establishment = IdFilter(field_name="establishment_id", label="Est. id")
    q = django_filters.CharFilter(method="search", label="Search")
    kind = django_filters.ChoiceFilter(choices=InterceptorKind.choices)
    active = django_filters.BooleanFilter()
    overdue = django_filters.BooleanFilter(method="only_overdue", label="Overdue")

    class Meta:
        model = GreaseInterceptor
        fields = ("establishment", "kind", "active")

    def only_overdue(
        self, qs: models.QuerySet[Any], name: str, value: bool | None
    ) -> models.QuerySet[Any]:
        """Overdue (or never pumped and undated) today; the clock is computed, not stored."""
        if value is None:
            return qs
        ids = {c.trap.pk for c in overdue(qs, timezone.localdate())}
        return qs.filter(pk__in=ids) if value else qs.exclude(pk__in=ids)

    def search(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = value.strip()
        if not v:
            return qs
        return qs.filter(
            models.Q(establishment__name__icontains=v)
            | models.Q(location__icontains=v)
            | models.Q(make_model__icontains=v)
        )
