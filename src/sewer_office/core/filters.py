"""Filters every list shares (pages and API): numbers bounded before they reach the database.

django-filter's ``NumberFilter`` reads its value as a ``Decimal`` of any size: ``?property=1e30``
or a twenty-digit id went to the query as written and SQLite refused to bind it (OverflowError,
a server error). The filters here validate first: an id is a whole number from 1 to the largest
the database stores (``MAX_ID``), a year has four digits, any other number fits a 64-bit
integer's range — otherwise the answer is 400 naming the parameter, and no query runs.

Every filterset of the office uses these (``tests/office/test_hostile_api.py`` walks them all),
and the API's filter backend builds the filtersets of ``filterset_fields`` on
:class:`OfficeFilterSet`, whose defaults are the bounded filters.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django_filters.rest_framework import DjangoFilterBackend

#: The largest id the database stores (a 64-bit signed integer, Django's BigAutoField).
MAX_ID = 2**63 - 1
#: The widest number any other numeric filter accepts (either sign).
MAX_NUMBER = Decimal(MAX_ID)


class IdField(forms.IntegerField):
    """A record's id: a whole number from 1 to :data:`MAX_ID`."""

    default_error_messages: ClassVar[dict[str, Any]] = {
        "invalid": "Enter a record id: a whole number from 1 to 9223372036854775807.",
        "min_value": "Enter a record id: a whole number from 1 to 9223372036854775807.",
        "max_value": "Enter a record id: a whole number from 1 to 9223372036854775807.",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)


class YearField(forms.IntegerField):
    default_error_messages: ClassVar[dict[str, Any]] = {
        "invalid": "Enter a year: a whole number from 1 to 9999.",
        "min_value": "Enter a year: a whole number from 1 to 9999.",
        "max_value": "Enter a year: a whole number from 1 to 9999.",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 9999)
        super().__init__(**kwargs)


class BoundedDecimalField(forms.DecimalField):
    """A finite decimal within ±:data:`MAX_NUMBER`."""

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is not None and abs(value) > MAX_NUMBER:
            raise ValidationError(
                f"Enter a number between -{MAX_NUMBER} and {MAX_NUMBER}.", code="max_value"
            )


class IdFilter(django_filters.NumberFilter):
    """A filter on a record's id (``?property=12``), bounded as :class:`IdField`."""

    # django-filter's stubs type NumberFilter.field_class as DecimalField; these are
    # IntegerFields, which is what the filter hands to the form.
    field_class = IdField  # type: ignore[assignment]


class YearFilter(django_filters.NumberFilter):
    field_class = YearField  # type: ignore[assignment]  # an IntegerField, as IdFilter


class BoundedNumberFilter(django_filters.NumberFilter):
    field_class = BoundedDecimalField


#: The number filters every filterset of the office may use; a plain ``NumberFilter`` is not one.
BOUNDED_NUMBER_FILTERS = (IdFilter, YearFilter, BoundedNumberFilter)

_NUMBER_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.SmallAutoField,
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveBigIntegerField,
    models.PositiveSmallIntegerField,
    models.DecimalField,
    models.FloatField,
)


class OfficeFilterSet(django_filters.FilterSet):
    """A filterset whose generated number filters are bounded (for ``filterset_fields``)."""

    FILTER_DEFAULTS: ClassVar[dict[Any, dict[str, Any]]] = {
        **django_filters.FilterSet.FILTER_DEFAULTS,
        **{field: {"filter_class": BoundedNumberFilter} for field in _NUMBER_FIELDS},
    }


class OfficeFilterBackend(DjangoFilterBackend):
    """The API's filter backend: ``filterset_fields`` filtersets built on :class:`OfficeFilterSet`."""

    filterset_base = OfficeFilterSet
