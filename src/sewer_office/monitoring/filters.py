"""Filtersets of sampling and results: one per list, used by the web lists and the API alike."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db import models
from django.db.models import Q

from sewer_office.core.forms import DateInput
from sewer_office.core.statuses import STATUS_CHOICES
from sewer_office.findings.choices import FindingKind, ReviewState
from sewer_office.findings.models import Finding
from sewer_office.findings.queries import OPEN_REVIEWS

from .choices import ResultState
from .models import LabResult

#: The finding list's ``review`` value for what still needs a look: current and new or
#: acknowledged (the page's default).
OPEN = "open"
#: The review filter's choices, by label (the page's default first).
REVIEW_CHOICES = (
    (OPEN, "Open (new or acknowledged)"),
    (ReviewState.NEW.value, "New"),
    (ReviewState.ACKNOWLEDGED.value, "Acknowledged"),
    (ReviewState.CLOSED.value, "Closed"),
    ("", "All"),
)


def _facility(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    """A facility by its code (as laboratory files write it) or a part of its code or name,
    in any case: ``ACME-01``, ``acme`` and ``Acme Plating`` all find Acme Plating."""
    text = value.strip()
    if not text:
        return qs
    return qs.filter(
        Q(establishment__code__iexact=text)
        | Q(establishment__code__icontains=text)
        | Q(establishment__name__icontains=text)
    )


def _code_of(value: str, choices: Any) -> str:
    """A choice's code from its code or its label, in any case (``Prohibited`` → ``prohibited``)."""
    v = value.strip()
    for code, label in choices:
        if v.lower() in (str(code).lower(), str(label).lower()):
            return str(code)
    return v


def status_code(value: str) -> str:
    """The status code a ``status`` filter value names (its code or label), or ``""``."""
    return _code_of(value, STATUS_CHOICES)


def _status(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    v = status_code(value)
    return qs.filter(status=v) if v else qs


def _kind(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    v = _code_of(value, FindingKind.choices)
    return qs.filter(kind=v) if v else qs


def _state(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    v = _code_of(value, ResultState.choices)
    return qs.filter(state=v) if v else qs


def _select(choices: Any, everything: str = "any") -> forms.Select:
    """A choice list by label, with a first entry for no filter (the code is the value)."""
    return forms.Select(choices=[("", everything), *[(c, str(lbl)) for c, lbl in choices]])


def _lowered(qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
    """``name`` equal to ``value`` without surrounding blanks, in lower case (as stored)."""
    v = value.strip().lower()
    return qs.filter(**{name: v}) if v else qs


class LabResultFilter(django_filters.FilterSet):
    """Results by facility (code or name), analyte, status, state and sampling day."""

    facility = django_filters.CharFilter(
        method=_facility,
        label="Facility",
        widget=forms.TextInput(attrs={"placeholder": "code or name"}),
    )
    parameter = django_filters.CharFilter(method=_lowered, label="Parameter")
    status = django_filters.CharFilter(
        method=_status, label="Status", widget=_select(STATUS_CHOICES)
    )
    state = django_filters.CharFilter(
        method=_state, label="State", widget=_select(ResultState.choices)
    )
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
    """Findings by facility (code or name), kind, status, review (``open``: still to look
    at) and whether they are current. Status and kind take the code or the label."""

    facility = django_filters.CharFilter(
        method=_facility,
        label="Facility",
        widget=forms.TextInput(attrs={"placeholder": "code or name"}),
    )
    kind = django_filters.CharFilter(
        method=_kind, label="Kind", widget=_select(FindingKind.choices)
    )
    status = django_filters.CharFilter(
        method=_status, label="Status", widget=_select(STATUS_CHOICES)
    )
    review = django_filters.CharFilter(
        method="by_review",
        label="Review",
        widget=forms.Select(choices=REVIEW_CHOICES),
    )
    current = django_filters.BooleanFilter(label="Current")

    class Meta:
        model = Finding
        fields: tuple[str, ...] = ()

    def by_review(self, qs: models.QuerySet[Any], name: str, value: str) -> models.QuerySet[Any]:
        v = _code_of(value, ReviewState.choices)
        if v == OPEN:
            return qs.filter(current=True, review__in=OPEN_REVIEWS)
        return qs.filter(review=v) if v else qs
