"""The filters of the billing lists (charges, invoices, payments), shared by the pages and
the API (``filterset_class``)."""

from __future__ import annotations

from typing import Any

import django_filters

from sewer_office.core.filters import IdFilter, YearFilter

from .balances import with_balance
from .choices import ChargeSource, InvoiceKind, InvoiceState, PaymentMethod, PayStatus
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
    status = django_filters.ChoiceFilter(
        choices=PayStatus.choices, method="filter_status", label="Status"
    )

    class Meta:
        model = Invoice
        fields = ("kind", "state", "person", "year", "run")

    def filter_status(self, queryset: Any, name: str, value: str) -> Any:
        """Issued, part paid, paid… — computed from the payments and credit notes
        (:mod:`.balances`), so the queryset is annotated if it is not yet."""
        if "pay_status" not in queryset.query.annotations:
            queryset = with_balance(queryset)
        return queryset.filter(pay_status=value)


class InvoicePageFilter(InvoiceFilter):
    """The invoice list page's filters: the API's, less those that take a record's id (the
    page finds a person by name)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("person", "run"):
            self.filters.pop(name, None)


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


class PaymentPageFilter(PaymentFilter):
    """The payment list page's filters: the API's, less the person's id (the page finds the
    payer by name)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters.pop("person", None)
