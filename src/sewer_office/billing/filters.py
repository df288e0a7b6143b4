"""The filters of the billing lists (charges, invoices, payments), shared by the pages and
the API (``filterset_class``)."""

from __future__ import annotations

import django_filters

from sewer_office.core.filters import IdFilter, YearFilter

from .choices import ChargeSource, InvoiceKind, InvoiceState, PaymentMethod
from .models import Charge, Invoice, Payment


class ChargeFilter(django_filters.FilterSet):
    source = django_filters.ChoiceFilter(choices=ChargeSource.choices)
    person = IdFilter(field_name="person_id", label="Person (id)")
    assessed_from = django_filters.DateFilter(field_name="assessed_on", lookup_expr="gte")
    assessed_to = django_filters.DateFilter(field_name="assessed_on", lookup_expr="lte")

    class Meta:
        model = Charge
        fields = ("source", "person", "run")


class InvoiceFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=InvoiceKind.choices)
    state = django_filters.ChoiceFilter(choices=InvoiceState.choices)
    person = IdFilter(field_name="person_id", label="Person (id)")
    name = django_filters.CharFilter(
        field_name="person__name", lookup_expr="icontains", label="Billed to"
    )
    year = YearFilter()
    issued_from = django_filters.DateFilter(field_name="issued_on", lookup_expr="gte")
    issued_to = django_filters.DateFilter(field_name="issued_on", lookup_expr="lte")
    due_before = django_filters.DateFilter(field_name="due_on", lookup_expr="lt")

    class Meta:
        model = Invoice
        fields = ("kind", "state", "person", "year", "run")


class PaymentFilter(django_filters.FilterSet):
    method = django_filters.ChoiceFilter(choices=PaymentMethod.choices)
    person = IdFilter(field_name="person_id", label="Person (id)")
    name = django_filters.CharFilter(
        field_name="person__name", lookup_expr="icontains", label="Paid by"
    )
    receipt = django_filters.CharFilter(
        field_name="receipt_number", lookup_expr="icontains", label="Receipt"
    )
    received_from = django_filters.DateFilter(field_name="received_on", lookup_expr="gte")
    received_to = django_filters.DateFilter(field_name="received_on", lookup_expr="lte")

    class Meta:
        model = Payment
        fields = ("method", "person")
