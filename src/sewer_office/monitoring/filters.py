"""Filtersets of sampling and results: one per list, used by the web lists and the API alike."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db import models

from sewer_office.core.forms import DateInput
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import OPEN_REVIEWS

from .models import LabResult

#: The finding list's ``review`` value for what still needs a look: current and new or
#: acknowledged (the page's default).
OPEN = "open"


def _facility(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    """A facility by its code, as laboratory files write it (any case)."""
    code = value.strip().upper()
    return qs.filter(establishment__code=code) if code else qs


def _lowered(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    """``name`` equal to ``value`` without surrounding blanks, in lower case (as stored)."""
    v = value.strip().lower()
    return qs.filter(**{name: v}) if v else qs


def _stripped(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    v = value.strip()
    return qs.filter(**{name: v}) if v else qs


class LabResultFilter(django_filters.FilterSet):
    """Results by facility code, analyte, status, state and sampling day."""

    facility = django_filters.CharFilter(method=_facility, label="Facility")
    parameter = django_filters.CharFilter(method=_lowered, label="Parameter")
    status = django_filters.CharFilter(method=_lowered, label="Status")
    state = django_filters.CharFilter(method=_lowered, label="State")
    sampled_from = django_filters.DateFilter(
        field_name="sampled_at", lookup_expr="date__gte", label="Sampled from", widget=DateInput
    )
    sampled_to = django_filters.DateFilter(
        field_name="sampled_at", lookup_expr="date__lte", label="Sampled to", widget=DateInput
    )

    class Meta:
        model = LabResult
        fields: tuple[str, ...] = ()


class FindingFilter(django_filters.FilterSet):
    """Findings by facility code, kind, status, review (``open``: still to look at) and
    whether they are current."""

    facility = django_filters.CharFilter(method=_facility, label="Facility")
    kind = django_filters.CharFilter(method=_stripped, label="Kind")
    status = django_filters.CharFilter(method=_stripped, label="Status")
    review = django_filters.CharFilter(method="by_review", label="Review")
    current = django_filters.BooleanFilter(label="Current")

    class Meta:
        model = Finding
        fields: tuple[str, ...] = ()

    def by_review(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = value.strip()
        if v == OPEN:
            return qs.filter(current=True, review__in=OPEN_REVIEWS)
        return qs.filter(review=v) if v else qs
