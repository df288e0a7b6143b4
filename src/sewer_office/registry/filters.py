"""Filtersets of the registry (web lists and API)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models
from django.db.models import Q

from .choices import EstablishmentKind, PersonKind, WastewaterService
from .models import Establishment, Person, Property, ServiceArea


class PropertyFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    service_area = django_filters.ModelChoiceFilter(queryset=ServiceArea.objects.all())
    wastewater_service = django_filters.ChoiceFilter(choices=WastewaterService.choices)

    class Meta:
        model = Property
        fields = ("service_area", "wastewater_service")

    def search(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = value.strip()
        if not v:
            return qs
        return qs.filter(
            Q(parcel_id__icontains=v) | Q(address__icontains=v) | Q(owner__name__icontains=v)
        )


class PersonFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label="Name")
    kind = django_filters.ChoiceFilter(choices=PersonKind.choices)

    class Meta:
        model = Person
        fields = ("kind",)


class EstablishmentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    kind = django_filters.ChoiceFilter(choices=EstablishmentKind.choices)

    class Meta:
        model = Establishment
        fields = ("kind",)

    def search(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = value.strip()
        if not v:
            return qs
        return qs.filter(
            Q(name__icontains=v)
            | Q(code__icontains=v)
            | Q(building__property__address__icontains=v)
        )
