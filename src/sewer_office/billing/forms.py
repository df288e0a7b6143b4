"""Forms of the money pages: a payment, credit applied, a refund, the statement's dates, the
aging day, the accounting export's dates (the API validates the same fields through the
services)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from sewer_office.core.forms import DateInput
from sewer_office.registry.pickers import PersonField

from .choices import PaymentMethod
from .models import Invoice


def _invoice_label(obj: Any) -> str:
    return f"{obj.number} issued {obj.issued_on:%Y-%m-%d}, USD {obj.total:,}"


class PaymentForm(forms.Form):
    person = PersonField(label="Paid by")
    received_on = forms.DateField(widget=DateInput, required=False, help_text="default today")
    method = forms.ChoiceField(choices=PaymentMethod.choices)
    reference = forms.CharField(
        max_length=60, required=False, help_text="check number, card or transfer reference"
    )
    amount = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    invoices = forms.ModelMultipleChoiceField(
        queryset=Invoice.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="applied oldest due first, each up to what it owes; the rest is credit",
    )
    #: Offered to an account acting for several towns: the books a payment applied to no
    #: invoice is received into (one applied to invoices goes into theirs).
    town = forms.ChoiceField(
        required=False,
        label="Into the books of",
        help_text="paying invoices: their town's; paying none, the town it is received for",
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(
        self,
        *args: Any,
        open_invoices: Any = None,
        towns: Sequence[tuple[str, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["invoices"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        if open_invoices is not None:
            field.queryset = open_invoices
        field.label_from_instance = _invoice_label  # type: ignore[method-assign]  # a label per row, as Django documents
        books = self.fields["town"]
        assert isinstance(books, forms.ChoiceField)
        if len(towns) > 1:
            books.choices = [("", "the invoices' town"), *towns]
        else:  # one town's clerk: their town's books, nothing to choose
            del self.fields["town"]


class CreditForm(forms.Form):
    invoice = forms.ModelChoiceField(queryset=Invoice.objects.none())
    amount = forms.DecimalField(
        max_digits=12, decimal_places=2, required=False, help_text="default: as much as it owes"
    )

    def __init__(self, *args: Any, open_invoices: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["invoice"]
        assert isinstance(field, forms.ModelChoiceField)
        if open_invoices is not None:
            field.queryset = open_invoices


class RefundForm(forms.Form):
    amount = forms.DecimalField(max_digits=12, decimal_places=2)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    method = forms.ChoiceField(choices=PaymentMethod.choices)
    reference = forms.CharField(max_length=60, required=False)
    refunded_on = forms.DateField(widget=DateInput, required=False, help_text="default today")


class PeriodForm(forms.Form):
    start = forms.DateField(widget=DateInput, required=False)
    end = forms.DateField(widget=DateInput, required=False)


class AgingForm(forms.Form):
    on = forms.DateField(widget=DateInput, required=False, label="As of")
